#include "cpu_spread.hpp"

#include <vector>

namespace shoal {

int cpu_to_move_to(std::span<const std::int32_t> cpus, int me, const cpu_set_t &allowed) noexcept {
  const auto counted = [&](std::int32_t cpu) {
    return cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &allowed);
  };
  if (me < 0 || static_cast<std::size_t>(me) >= cpus.size() || !counted(cpus[me])) return -1;
  const int n_allowed = CPU_COUNT(&allowed);
  if (n_allowed < 2) return -1;
  std::vector<int> on(CPU_SETSIZE, 0);
  int pes = 0;
  for (std::size_t pe = 0; pe < cpus.size(); ++pe) {
    if (!counted(cpus[pe])) continue;
    ++on[static_cast<std::size_t>(cpus[pe])];
    ++pes;
    // Another PE on this CPU with a lower number moves, not this one.
    if (cpus[pe] == cpus[me] && static_cast<int>(pe) < me) return -1;
  }
  const int spread = (pes + n_allowed - 1) / n_allowed;
  if (on[static_cast<std::size_t>(cpus[me])] <= spread) return -1;
  int best = -1;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &allowed) && on[static_cast<std::size_t>(cpu)] < spread &&
        (best < 0 || on[static_cast<std::size_t>(cpu)] < on[static_cast<std::size_t>(best)]))
      best = cpu;
  return best;
}

}  // namespace shoal
