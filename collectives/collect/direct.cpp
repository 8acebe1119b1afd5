// Direct collect/fcollect, for teams whose heaps are all mapped here (Args::direct: one node,
// shared memory on, dest and source in the symmetric heap). Every PE copies each peer's block
// straight from the peer's source into its own dest through the mapping (a pull): one copy per
// byte, no scratch, no store into another PE's memory but the channel counters.
//
//   1. a PE with a nonempty block tells every peer that its source is ready (notify);
//   2. it copies its own block, then for every peer with a nonempty block: awaits that peer's
//      "ready", copies the block from the peer's source and tells the peer it is done reading
//      (notify);
//   3. a PE with a nonempty block returns only after every peer is done reading its source,
//      since the caller may change source as soon as the call returns.
// Nothing is written into another PE's dest, so no credits. Per ordered pair (j, i) with
// counts[j] > 0 there are exactly two notifications each way in one call ("ready" j->i, "done"
// i->j), both ends know the counts, and j sends "ready" to i before it awaits i's "done": the
// counts balance and the two kinds cannot be confused, within a call or with the next one.
#include <cstddef>
#include <cstring>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/collect/blocks.hpp"

namespace shoal::coll {
namespace {

bool applies(const Channel &, const Args &args) { return args.direct; }

void run(Channel &channel, const Args &args) {
  const int n = channel.size(), me = channel.rank();
  const std::size_t es = args.elem_size;
  auto *dest = static_cast<std::byte *>(args.dest);
  const bool mine = args.counts[me] > 0;

  if (mine) {
    for (int k = 1; k < n; ++k) channel.notify((me + k) % n);
    blocks::place_own(channel, args);
  }
  // Peers are visited starting after this PE, so the PEs do not all read PE 0 first.
  for (int k = 1; k < n; ++k) {
    const int peer = (me + k) % n;
    if (args.counts[peer] == 0) continue;
    channel.await(peer);
    std::memcpy(dest + args.displs[peer] * es, channel.mapped(args.source, peer),
                args.counts[peer] * es);
    channel.notify(peer);
  }
  if (mine)
    for (int k = 1; k < n; ++k) channel.await((me + n - k) % n);
}

}  // namespace

extern const Algorithm collect_direct, fcollect_direct;
const Algorithm collect_direct = {"direct", Collective::collect, applies, run};
const Algorithm fcollect_direct = {"direct", Collective::fcollect, applies, run};

}  // namespace shoal::coll
