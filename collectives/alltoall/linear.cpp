// Linear alltoall/alltoalls: every PE puts each of its blocks straight into its owner's dest,
// then waits for the n-1 blocks of the others. One step and no ordering between messages:
// lowest latency for small blocks, but every PE is a target of n-1 PEs at once.
// Peers are visited starting after this PE so the PEs do not all hit PE 0 first.
//
// Block layout: alltoall/blocks.hpp.
#include <cstddef>

#include "collectives/algorithm.hpp"
#include "collectives/alltoall/blocks.hpp"
#include "collectives/channel.hpp"

namespace shoal::coll {
namespace {

void run(Channel &channel, const Args &args) {
  const int n = channel.size(), me = channel.rank();
  for (int k = 1; k < n; ++k) channel.grant((me + k) % n);
  alltoall_blocks::put_block(channel, args, me);
  for (int k = 1; k < n; ++k) {
    const int peer = (me + k) % n;
    channel.await_grant(peer);
    alltoall_blocks::put_block(channel, args, peer);
  }
  for (int k = 1; k < n; ++k) channel.await((me + n - k) % n);
}

}  // namespace

extern const Algorithm alltoall_linear;
const Algorithm alltoall_linear = {"linear", Collective::alltoall, nullptr, run};

}  // namespace shoal::coll
