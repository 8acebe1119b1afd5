// Recursive doubling collect/fcollect. With p the largest power of two <= n and r = n - p,
// team PEs 0..p-1 are the core and PE p+i (i < r) is the extra partner of core PE i:
//   1. each extra PE puts its block into its core partner's dest;
//   2. the core runs log2 p rounds: in the round of mask m, core PE i exchanges with core PE
//      i^m everything it holds -- the blocks of core PEs [b, b+m), b = i & ~(m-1), and of
//      their extra partners [b+p, min(b+m, r)+p) -- so the holdings double every round;
//   3. each core PE with an extra partner puts all blocks but the partner's own into it.
// Power-of-two teams skip steps 1 and 3. Every block goes straight to its final offset (at most
// two contiguous ranges per message) and is forwarded from the sender's own dest, so no
// scratch is needed. Each message is exactly one notification, even when its ranges are empty;
// each PE grants, on entry, every PE that will write into it (its partners of steps 1-3).
#include <cstddef>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/collect/blocks.hpp"
#include "collectives/tree.hpp"

namespace shoal::coll {
namespace {

void run(Channel &channel, const Args &args) {
  const int n = channel.size(), me = channel.rank();
  const int p = tree::floor_power_of_two(n), r = n - p;

  blocks::place_own(channel, args);

  if (tree::is_extra(me, p)) {  // extra PE: hand the block to the core partner, wait for the rest
    const int core = tree::fold_partner(me, p);
    channel.grant(core);
    channel.await_grant(core);
    blocks::send(channel, args, core, me, me + 1);
    channel.await(core);
    return;
  }

  for (int m = 1; m < p; m <<= 1) channel.grant(tree::doubling_partner(me, m));
  if (me < r) {
    channel.grant(tree::fold_partner(me, p));
    channel.await(tree::fold_partner(me, p));
  }
  for (int m = 1; m < p; m <<= 1) {
    const int partner = tree::doubling_partner(me, m);
    const tree::Holdings held = tree::doubling_holdings(me, m, p, n);
    channel.await_grant(partner);
    blocks::send(channel, args, partner, held.lo1, held.hi1, held.lo2, held.hi2);
    channel.await(partner);
  }
  if (me < r) {
    const int extra = tree::fold_partner(me, p);
    channel.await_grant(extra);
    blocks::send(channel, args, extra, 0, extra, extra + 1, n);
  }
}

}  // namespace

extern const Algorithm collect_recursive_doubling, fcollect_recursive_doubling;
const Algorithm collect_recursive_doubling = {"recursive_doubling", Collective::collect, nullptr,
                                              run};
const Algorithm fcollect_recursive_doubling = {"recursive_doubling", Collective::fcollect, nullptr,
                                               run};

}  // namespace shoal::coll
