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
  // Something happened: the next quiet spell starts the stage afresh.
  void reset() noexcept { first_ns_ = last_ns_ = 0; }

 private:
  std::uint64_t first_ns_ = 0;  // when the stage's first yield ended; 0: none yet
  std::uint64_t last_ns_ = 0;   // when its latest ended
};

}  // namespace shoal
