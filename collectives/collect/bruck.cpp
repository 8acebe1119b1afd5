// Bruck collect/fcollect: ceil(log2 n) rounds. Before the round of distance d (1, 2, 4, ...),
// PE me holds the blocks me, me+1, ..., me+d-1 (mod n); it sends the first min(d, n-d) of them
// to PE me-d and receives as many from PE me+d, so afterwards it holds min(2d, n) blocks.
//
// The textbook algorithm gathers into a rotated buffer and rotates it at the end. Here every
// block is put straight at its final offset in the receiver's dest (the counts and offsets are
// known everywhere and dest is symmetric), so no rotation and no scratch are needed: the blocks
// me..me+c-1 are one contiguous range of dest, or two when they wrap past team PE n-1.
// Senders forward what they received in earlier rounds from their own dest.
//
// Every round sends exactly one notification (even for empty ranges), and each PE grants every
// PE that will write into it (me+d for each d) on entry, so both stay balanced.
#include <cstddef>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/collect/blocks.hpp"
#include "collectives/tree.hpp"

namespace shoal::coll {
namespace {

void run(Channel &channel, const Args &args) {
  const int n = channel.size(), me = channel.rank();
  for (int d = 1; d < n; d <<= 1) channel.grant(tree::ahead(me, d, n));
  blocks::place_own(channel, args);

  for (int d = 1; d < n; d <<= 1) {
    const int to = tree::behind(me, d, n), from = tree::ahead(me, d, n);
    const int count = tree::bruck_count(d, n);  // blocks me .. me+count-1 (mod n)
    channel.await_grant(to);
    if (me + count <= n)
      blocks::send(channel, args, to, me, me + count);
    else
      blocks::send(channel, args, to, me, n, 0, me + count - n);
    channel.await(from);
  }
}

}  // namespace

extern const Algorithm collect_bruck, fcollect_bruck;
const Algorithm collect_bruck = {"bruck", Collective::collect, nullptr, run};
const Algorithm fcollect_bruck = {"bruck", Collective::fcollect, nullptr, run};

}  // namespace shoal::coll
