#include "collectives/alone.hpp"

#include <cstring>

#include "collectives/channel.hpp"

namespace shoal::coll {

bool needs_no_algorithm(Collective c, int team_size, const Args &args) noexcept {
  if (team_size == 1) return true;
  switch (c) {
    case Collective::barrier:
      return false;
    case Collective::collect:
    case Collective::fcollect:
      return args.total == 0;
    default:
      return args.nelems == 0;
  }
}

void complete_alone(Collective c, int team_size, const Args &args) noexcept {
  const std::size_t bytes = args.bytes();
  if (team_size != 1 || bytes == 0) return;  // nothing to move
  switch (c) {
    case Collective::barrier:
      return;
    case Collective::alltoall: {  // the one block to itself, element by element with the strides
      auto *dest = static_cast<std::byte *>(args.dest);
      const auto *source = static_cast<const std::byte *>(args.source);
      const auto dest_step = static_cast<std::size_t>(args.dst_stride) * args.elem_size;
      const auto source_step = static_cast<std::size_t>(args.sst_stride) * args.elem_size;
      for (std::size_t i = 0; i < args.nelems; ++i)
        std::memmove(dest + i * dest_step, source + i * source_step, args.elem_size);
      return;
    }
    case Collective::broadcast:
      broadcast_to_root_dest(args);
      return;
    case Collective::scan:
      if (args.exclusive) {
        std::memset(args.dest, 0, bytes);
        return;
      }
      [[fallthrough]];
    default:  // reduce, collect, fcollect: its own vector
      if (args.dest != args.source) std::memmove(args.dest, args.source, bytes);
      return;
  }
}

void run_call(const Algorithm &algorithm, Channel &channel, const Args &args) noexcept {
  if (needs_no_algorithm(algorithm.collective, channel.size(), args))
    complete_alone(algorithm.collective, channel.size(), args);
  else
    algorithm.run(channel, args);
}

}  // namespace shoal::coll
