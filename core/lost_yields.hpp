// Whether a waiting PE may yield its CPU (core/wait.hpp, Backoff). A yield hands the CPU to
// whoever else is runnable on it. A PE that waits too hands it back within microseconds; a task
// that computes (another job, the program's own threads) keeps it for its whole time slice, 2-5
// ms here, however soon what this PE waits for arrives. With one busy task beside each of two
// PEs across two hosts, a third of the yields were such losses and a blocking get took 42 us to
// 1.5 ms (median) in place of 11; OSHMEM, which spins, kept 11.
//
// So once yields are lost, the thread's waits do not yield for kNoYieldNs: they spin through
// the yield stage, then nap, which leaves the CPU to whoever computes. Not where the machine runs
// more PEs than CPUs: there the task that computes is likely the PE waited for, and the yield
// is what lets it finish (and its waiting PEs hand the CPU back at once).
//
// One lost yield is not enough: a system task that wakes now and then (on this VM one on CPU 1
// every 512 ms, for 0.8-3.5 ms) takes the CPU from a PE that spins just as from one that yields,
// and after that one loss 100 ms of waits napped: a 2-PE flag wait after its peer computed for
// 1 ms (putget_bench flag_idle_lat, PEs bound to a CPU each) saw the flag 13-36 us late in about
// one point of six, 0.3 us otherwise (OSHMEM 0.23 always). A task that computes beside the PE
// takes yield after yield, each within a time slice or two of the last; the interrupts above came
// 43 ms apart at the closest. So a loss counts only within kConfirmNs of the one before it.
#pragma once

#include <cstdint>

namespace shoal {

class LostYields {
 public:
  // A yield slower than this lost the CPU to a task that computes.
  static constexpr std::uint64_t kLostYieldNs = 500'000;
  // How long the waits of a thread that lost a yield do not yield.
  static constexpr std::uint64_t kNoYieldNs = 100'000'000;
  // How soon after a lost yield another must be lost for a task that computes to be there.
  static constexpr std::uint64_t kConfirmNs = 20'000'000;

  // Records a yield of took_ns that ended at now_ns, on a machine that runs more PEs than CPUs or
  // not.
  void yielded(std::uint64_t took_ns, std::uint64_t now_ns, bool oversubscribed) noexcept {
    if (took_ns <= kLostYieldNs || oversubscribed) return;
    if (last_loss_ns_ != 0 && now_ns - last_loss_ns_ < kConfirmNs) lost_at_ns_ = now_ns;
    last_loss_ns_ = now_ns;
  }
  // Whether yields were lost (confirmed) and the thread's waits have not yielded since: then ask
  // may_yield (this alone reads no clock).
  bool any() const noexcept { return lost_at_ns_ != 0; }
  bool may_yield(std::uint64_t now_ns) noexcept {
    if (lost_at_ns_ == 0) return true;
    if (now_ns - lost_at_ns_ < kNoYieldNs) return false;
    lost_at_ns_ = 0;
    return true;
  }

 private:
  std::uint64_t lost_at_ns_ = 0;    // when the last confirmed loss ended; 0: none lately
  std::uint64_t last_loss_ns_ = 0;  // when the last lost yield ended, confirmed or not; 0: none
};

}  // namespace shoal
