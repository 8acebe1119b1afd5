// Dissemination barrier: in round r every PE notifies team PE (me + 2^r) mod n and awaits the
// notification of team PE (me - 2^r) mod n. After ceil(log2 n) rounds every PE has heard,
// directly or through others, from every PE, so none leaves before all have arrived.
//
// The distances 1, 2, 4, ... are distinct and below n, so each ordered pair of PEs is used at
// most once per call: every notify has exactly one await, and the channel's counters keep
// back-to-back barriers apart.
#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/tree.hpp"

namespace shoal::coll {
namespace {

void run(Channel &channel, const Args &) {
  const int n = channel.size(), me = channel.rank();
  for (int distance = 1; distance < n; distance *= 2) {
    channel.notify(tree::ahead(me, distance, n));
    channel.await(tree::behind(me, distance, n));
  }
}

}  // namespace

extern const Algorithm barrier_dissemination;
const Algorithm barrier_dissemination = {"dissemination", Collective::barrier, nullptr, run};

}  // namespace shoal::coll
