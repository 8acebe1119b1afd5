// How long a wait yields its CPU before it naps (core/wait.hpp, Backoff).
//
// Where every PE has a CPU and no yield lately lost it to a task that computes, the stage lasts
// kFreeCpuNs: a PE that naps lets its CPU go idle, and waking it costs the
// arrival it waited for tens of microseconds (on this VM 25-30 us: PE 0 waiting for a flag that
// PE 1 sets after computing 0.2 or 2 ms across two namespace hosts saw it 45-47 us after it was
// sent once its wait had napped, 17-21 us while it still spun, as OSHMEM's, which never naps,
// always does; the sender's put also took 13-14 us instead of 5-7, its system call waking the
// target). Against a wait of kFreeCpuNs, a wake-up is noise. Where a yield lost the CPU to a
// task that computes (lost_yields.hpp), the stage ends after kRounds yields without news: a nap
// then gives that task the CPU.
//
// Where the machine runs more PEs than CPUs, the PE waited for is usually waiting for a CPU, and
// a nap makes the waiter late by the nap and the kernel's timer slack (about 70 us) each time it
// is woken up to find the answer there: one PE's nap delays the PEs waiting for it, which nap in
// turn. 8 PEs on 4 namespace hosts of 2 CPUs took 250-480 us per barrier in half of the runs
// that way, against 52-90 us when the waits kept yielding (OSHMEM, which yields, 80-86). So there
// the stage lasts kOversubscribedNs: a wait that long is waiting for a PE that computes, and
// napping then costs it nothing.
//
// While yields come straight back (nobody wants the CPU), a wait spins between them and yields
// only now and then, to see whether a task has come to want the CPU. A yield is a system call,
// 1.3 us on the virtual machines of 2026-12 (a round of a wait on one node takes a tenth of
// that): probing every 16 rounds kept such a wait in the kernel close to half the time, and a
// flag stored meanwhile was seen only when the yield returned. Where every PE has a CPU a probe
// now comes kProbeNs after the last yield at the soonest. On one node a 2-PE flag round trip
// where each side first computed 1 ms (putget_bench flag_idle_lat) took 0.88-0.93 us per
// direction instead of 1.24-1.46 (0.41 when neither computed). Across nodes 16 rounds take
// about as long anyway, each a pass over a TCP worker. Where the machine runs more PEs than
// CPUs, the task that wants the CPU may be the PE waited for: probes stay every 16 rounds.
#pragma once

#include <cstdint>

namespace shoal {

class YieldStage {
 public:
  // Yields without news after which a wait naps, where a yield lately lost the CPU.
  static constexpr unsigned kRounds = 256;
  // How long it yields where every PE has a CPU and no task that computes took it lately.
  static constexpr std::uint64_t kFreeCpuNs = 10'000'000;
  // How long it yields where the machine runs more PEs than CPUs.
  static constexpr std::uint64_t kOversubscribedNs = 100'000'000;
  // The soonest a wait whose yields come straight back yields again, where every PE has a CPU.
  static constexpr std::uint64_t kProbeNs = 20'000;

  // Records a yield that ended at now_ns.
  void yielded(std::uint64_t now_ns) noexcept {
    if (first_ns_ == 0) first_ns_ = now_ns;
    last_ns_ = now_ns;
  }
  // Whether a wait `rounds` rounds into the stage goes on yielding rather than napping, on a
  // machine that runs more PEs than CPUs or not, where no yield lately lost the CPU to a task
  // that computes (`cpu_kept`) or one did.
  bool goes_on(unsigned rounds, bool oversubscribed, bool cpu_kept) const noexcept {
    if (rounds <= kRounds) return true;
    if (oversubscribed) return last_ns_ - first_ns_ < kOversubscribedNs;
    return cpu_kept && last_ns_ - first_ns_ < kFreeCpuNs;
  }
  // Whether a wait that spins because its latest yield came straight back yields again at
  // now_ns, to look whether a task wants the CPU: always on a machine that runs more PEs than
  // CPUs, otherwise once kProbeNs have passed since that yield (or when none ended yet).
  bool probe_due(bool oversubscribed, std::uint64_t now_ns) const noexcept {
    return oversubscribed || now_ns - last_ns_ >= kProbeNs;
  }
  // Something happened: the next quiet spell starts the stage afresh.
  void reset() noexcept { first_ns_ = last_ns_ = 0; }

 private:
  std::uint64_t first_ns_ = 0;  // when the stage's first yield ended; 0: none yet
  std::uint64_t last_ns_ = 0;   // when its latest ended
};

}  // namespace shoal
