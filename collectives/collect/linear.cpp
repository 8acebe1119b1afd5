// Linear collect/fcollect: every PE puts its block straight into every other PE's dest at its
// final offset, then waits for the n-1 blocks of the others. One step, n-1 messages per PE:
// best for small data or few PEs, but every PE receives n-1 messages at once (incast).
// Peers are visited starting after this PE so the PEs do not all hit PE 0 first.
//
// A PE with an empty block sends nothing: only PEs with counts[j] > 0 are granted by, and
// awaited by, the others, so credits and notifications stay balanced.
#include <cstddef>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/collect/blocks.hpp"

namespace shoal::coll {
namespace {

void run(Channel &channel, const Args &args) {
  const int n = channel.size(), me = channel.rank();
  const std::size_t es = args.elem_size;
  auto *dest = static_cast<std::byte *>(args.dest);

  for (int k = 1; k < n; ++k) {
    const int peer = (me + k) % n;
    if (args.counts[peer] > 0) channel.grant(peer);
  }
  const std::size_t bytes = args.counts[me] * es;
  if (bytes > 0) {
    std::byte *mine = dest + args.displs[me] * es;
    blocks::place_own(channel, args);
    for (int k = 1; k < n; ++k) {
      const int peer = (me + k) % n;
      channel.await_grant(peer);
      channel.send(mine, args.source, bytes, peer);
    }
  }
  for (int k = 1; k < n; ++k) {
    const int peer = (me + n - k) % n;
    if (args.counts[peer] > 0) channel.await(peer);
  }
}

}  // namespace

extern const Algorithm collect_linear, fcollect_linear;
const Algorithm collect_linear = {"linear", Collective::collect, nullptr, run};
const Algorithm fcollect_linear = {"linear", Collective::fcollect, nullptr, run};

}  // namespace shoal::coll
