// How long a wait yields its CPU before it naps (core/wait.hpp, Backoff).
//
// Where every PE has a CPU, a wait that yielded kRounds times in a row without news waits for
// something slow: it naps, which leaves the CPU to whoever computes. Where the machine runs more
// PEs than CPUs, the PE waited for is usually waiting for a CPU, and a nap makes the waiter late
// by the nap and the kernel's timer slack (about 70 us) each time it is woken up to find the
// answer there: one PE's nap delays the PEs waiting for it, which nap in turn. 8 PEs on 4
// namespace hosts of 2 CPUs took 250-480 us per barrier in half of the runs that way, against
// 52-90 us when the waits kept yielding (OSHMEM, which yields, 80-86). So there the stage lasts
// kOversubscribedNs instead: a wait that long is waiting for a PE that computes, and napping
// then costs it nothing.
#pragma once

#include <cstdint>

namespace shoal {

class YieldStage {
 public:
  // Yields without news after which a wait naps, where every PE has a CPU.
  static constexpr unsigned kRounds = 256;
  // How long it yields where the machine runs more PEs than CPUs.
  static constexpr std::uint64_t kOversubscribedNs = 100'000'000;

  // Records a yield that ended at now_ns.
  void yielded(std::uint64_t now_ns) noexcept {
    if (first_ns_ == 0) first_ns_ = now_ns;
    last_ns_ = now_ns;
  }
  // Whether a wait `rounds` rounds into the stage goes on yielding rather than napping.
  bool goes_on(unsigned rounds, bool oversubscribed) const noexcept {
    if (rounds <= kRounds) return true;
    return oversubscribed && last_ns_ - first_ns_ < kOversubscribedNs;
  }
  // Something happened: the next quiet spell starts the stage afresh.
  void reset() noexcept { first_ns_ = last_ns_ = 0; }

 private:
  std::uint64_t first_ns_ = 0;  // when the stage's first yield ended; 0: none yet
  std::uint64_t last_ns_ = 0;   // when its latest ended
};

}  // namespace shoal
