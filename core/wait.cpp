#include "wait.hpp"

#include <sched.h>
#include <unistd.h>

#include "runtime.hpp"

namespace shoal {

bool oversubscribed() noexcept {
  // -1: not known yet (the bootstrap has not told us how many PEs share the node).
  static int known = -1;
  if (known >= 0) return known != 0;
  if (!g_runtime || !g_runtime->bootstrap) return false;
  cpu_set_t allowed;
  int cpus = sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : 1;
  // A launcher that gives each PE a core of its own (oshrun does when the PEs fit, mpirun with
  // --bind-to core) leaves one CPU in this PE's mask: the node's PEs then share the CPUs online.
  if (cpus == 1) cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  const auto local_pes = static_cast<int>(g_runtime->bootstrap->local_peers().size());
  known = local_pes > cpus ? 1 : 0;
  return known != 0;
}

bool spans_nodes() noexcept {
  // -1: not known yet (before the bootstrap, a job is taken to be on one node).
  static int known = -1;
  if (known >= 0) return known != 0;
  if (!g_runtime || !g_runtime->bootstrap) return false;
  const boot::Bootstrap &b = *g_runtime->bootstrap;
  known = static_cast<int>(b.local_peers().size()) < b.size() ? 1 : 0;
  return known != 0;
}

int quick_polls() noexcept { return spans_nodes() || oversubscribed() ? 0 : kQuickPolls; }

}  // namespace shoal
