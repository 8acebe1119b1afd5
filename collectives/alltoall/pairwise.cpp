// Pairwise alltoall/alltoalls: n-1 steps; at step k PE me sends its block for PE (me+k) mod n
// and receives the block of PE (me-k) mod n, waiting for it before the next step, so each PE
// has one message in flight and no PE is flooded (unlike linear). For powers of two the
// partners are me XOR k instead, which makes every step a true pairwise exchange.
//
// Block layout: alltoall/blocks.hpp. Each PE writes once into every other PE's dest, so each
// grants every peer on entry and awaits one credit per peer.
#include <cstddef>

#include "collectives/algorithm.hpp"
#include "collectives/alltoall/blocks.hpp"
#include "collectives/channel.hpp"
#include "collectives/tree.hpp"

namespace shoal::coll {
namespace {

void run(Channel &channel, const Args &args) {
  const int n = channel.size(), me = channel.rank();
  for (int k = 1; k < n; ++k) channel.grant(tree::ahead(me, k, n));
  alltoall_blocks::put_block(channel, args, me);
  for (int k = 1; k < n; ++k) {
    const int to = tree::pairwise_to(me, k, n), from = tree::pairwise_from(me, k, n);
    channel.await_grant(to);
    alltoall_blocks::put_block(channel, args, to);
    channel.await(from);
  }
}

}  // namespace

extern const Algorithm alltoall_pairwise;
const Algorithm alltoall_pairwise = {"pairwise", Collective::alltoall, nullptr, run};

}  // namespace shoal::coll
