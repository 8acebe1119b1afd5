// The probe of cpu_spread.hpp: publishing this PE's CPU and moving it, inside the runtime.
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <vector>

#include "cpu_spread.hpp"
#include "log/log.hpp"
#include "observe/observe.hpp"
#include "runtime.hpp"

namespace shoal {

namespace {

std::uint64_t now_ns() noexcept {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(t.tv_nsec);
}

// PE pe's slot in its record area as this process sees it (observe::area_of), or null.
CpuSlot *slot_of(const Runtime &rt, int pe) noexcept {
  std::byte *area = observe::area_of(rt, pe);
  return area == nullptr ? nullptr : reinterpret_cast<CpuSlot *>(area + observe::kCpuSlotOffset);
}

}  // namespace

void spread_crowded_pes() noexcept {
  static thread_local std::uint64_t next_ns = 0;
  const std::uint64_t now = now_ns();
  if (now < next_ns) return;
  next_ns = now + kCpuSpreadProbeNs;
  Runtime *rt = g_runtime;
  if (rt == nullptr || rt->bootstrap == nullptr || getpid() != syscall(SYS_gettid)) return;
  // Only where this node's PEs are all the job has on this machine's CPUs: PEs of other nodes
  // on the same kernel (namespace or container hosts) would be on those CPUs unseen. Across 2
  // namespace hosts under ctest -j4 the spreading made the multihost tests 1.7x slower.
  const std::vector<int> &node = rt->bootstrap->local_peers();
  if (static_cast<int>(node.size()) != rt->pes_on_machine ||
      static_cast<int>(node.size()) < rt->bootstrap->size())
    return;
  CpuSlot *own = slot_of(*rt, rt->my_pe);
  if (own == nullptr) return;
  const int cpu = sched_getcpu();
  own->cpu.store(cpu, std::memory_order_relaxed);
  own->seen_ns.store(now, std::memory_order_relaxed);

  // The node's PEs, in the order of their numbers, and the CPU each reported lately.
  std::vector<std::int32_t> cpus(node.size(), -1);
  int me = -1;
  for (std::size_t i = 0; i < node.size(); ++i) {
    if (node[i] == rt->my_pe) me = static_cast<int>(i);
    const CpuSlot *slot = slot_of(*rt, node[i]);
    if (slot == nullptr) continue;
    const std::uint64_t seen = slot->seen_ns.load(std::memory_order_relaxed);
    if (seen != 0 && now - seen < kCpuSpreadFreshNs)
      cpus[i] = slot->cpu.load(std::memory_order_relaxed);
  }
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  const int to = cpu_to_move_to(cpus, me, allowed);
  if (to < 0) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(to, &one);
  // Allowing one CPU migrates this thread there; allowing the former set again keeps it there
  // (the kernel moves a task only when its CPU leaves the set) but unbound.
  if (sched_setaffinity(0, sizeof one, &one) != 0) return;
  if (sched_setaffinity(0, sizeof allowed, &allowed) != 0)
    SMA_LOG_WARN("core", "pe {}: cannot allow its CPUs again after moving to CPU {}", rt->my_pe,
                 to);
  own->cpu.store(sched_getcpu(), std::memory_order_relaxed);
  SMA_LOG_DEBUG("core", "pe {}: moved from CPU {} to CPU {}, which had fewer of the node's PEs",
                rt->my_pe, cpu, to);
  // Let the others see where it went before anyone moves again.
  next_ns = now + kCpuSpreadSettleNs;
}

}  // namespace shoal
