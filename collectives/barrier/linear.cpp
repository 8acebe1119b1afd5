// Linear barrier: every PE but team PE 0 notifies PE 0 and awaits its release; PE 0 awaits every
// other PE, then releases them all. 2(n - 1) notifications, all through PE 0; simple and fine
// for small teams.
#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"

namespace shoal::coll {
namespace {

constexpr int kCoordinator = 0;

void run(Channel &channel, const Args &) {
  const int n = channel.size();
  if (channel.rank() != kCoordinator) {
    channel.notify(kCoordinator);
    channel.await(kCoordinator);
    return;
  }
  for (int pe = 0; pe < n; ++pe)
    if (pe != kCoordinator) channel.await(pe);
  for (int pe = 0; pe < n; ++pe)
    if (pe != kCoordinator) channel.notify(pe);
}

}  // namespace

extern const Algorithm barrier_linear;
const Algorithm barrier_linear = {"linear", Collective::barrier, nullptr, run};

}  // namespace shoal::coll
