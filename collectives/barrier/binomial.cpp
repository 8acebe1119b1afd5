// Binomial tree barrier rooted at team PE 0. The parent of PE v is v with its lowest set bit
// cleared; its children are v + 2^k for every 2^k below that bit (every 2^k for PE 0) that is
// still a team PE. Arrival flows up: each PE awaits all its children, then notifies its parent.
// Release flows down: each PE awaits its parent, then notifies its children. PE 0 hears from
// the whole team before releasing anyone, so none leaves before all have arrived.
//
// Every edge carries one notification each way per call, awaited once at the other end.
#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/tree.hpp"

namespace shoal::coll {
namespace {

void run(Channel &channel, const Args &) {
  const int n = channel.size(), me = channel.rank();

  for (int distance = 1; tree::binomial_child(me, distance, n); distance *= 2)
    channel.await(me + distance);
  if (me != 0) {
    const int parent = tree::binomial_parent(me);
    channel.notify(parent);
    channel.await(parent);
  }
  for (int distance = 1; tree::binomial_child(me, distance, n); distance *= 2)
    channel.notify(me + distance);
}

}  // namespace

extern const Algorithm barrier_binomial;
const Algorithm barrier_binomial = {"binomial", Collective::barrier, nullptr, run};

}  // namespace shoal::coll
