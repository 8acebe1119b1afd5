// Ring collect/fcollect: n-1 steps around the ring of team PEs. At step s, PE me passes block
// (me - s) mod n to PE me+1: its own block first, then each block it received from PE me-1 at
// the step before, read from where it landed in its own dest (store and forward). Every block
// goes straight to its final offset, so no scratch is needed and each link carries n-1 blocks:
// bandwidth-optimal, n-1 latencies.
//
// Empty blocks (counts[b] == 0) are neither sent nor awaited; both ends know the counts, so
// the k-th notification on a link is always the k-th nonempty block. Credits: PE me lets its
// predecessor write into its dest (granted on entry) iff some block other than its own is
// nonempty, the same condition under which the predecessor waits for that credit.
#include <cstddef>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/collect/blocks.hpp"
#include "collectives/tree.hpp"

namespace shoal::coll {
namespace {

void run(Channel &channel, const Args &args) {
  const int n = channel.size(), me = channel.rank();
  const int next = tree::ahead(me, 1, n), prev = tree::behind(me, 1, n);
  const std::size_t es = args.elem_size;
  auto *dest = static_cast<std::byte *>(args.dest);

  if (args.total - args.counts[me] > 0) channel.grant(prev);
  blocks::place_own(channel, args);

  bool granted = false;
  for (int s = 0; s < n - 1; ++s) {
    const int b = tree::behind(me, s, n);
    if (args.counts[b] == 0) continue;
    if (s > 0) channel.await(prev);  // block b has arrived from prev
    if (!granted) {
      channel.await_grant(next);
      granted = true;
    }
    std::byte *block = dest + args.displs[b] * es;
    channel.send(block, block, args.counts[b] * es, next);
  }
  if (args.counts[next] > 0) channel.await(prev);  // the last block, me+1's, is not forwarded
}

}  // namespace

extern const Algorithm collect_ring, fcollect_ring;
const Algorithm collect_ring = {"ring", Collective::collect, nullptr, run};
const Algorithm fcollect_ring = {"ring", Collective::fcollect, nullptr, run};

}  // namespace shoal::coll
