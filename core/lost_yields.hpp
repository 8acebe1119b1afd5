// Whether a waiting PE may yield its CPU (core/wait.hpp, Backoff). A yield hands the CPU to
// whoever else is runnable on it. A PE that waits too hands it back within microseconds; a task
// that computes (another job, the program's own threads) keeps it for its whole time slice, 2-5
// ms here, however soon what this PE waits for arrives. With one busy task beside each of two
// PEs across two hosts, a third of the yields were such losses and a blocking get took 42 us to
// 1.5 ms (median) in place of 11; OSHMEM, which spins, kept 11.
//
// So once a yield is lost, the thread's waits do not yield for kNoYieldNs: they spin through
// the yield stage, then nap, which leaves the CPU to whoever computes. Not where the machine runs
// more PEs than CPUs: there the task that computes is likely the PE waited for, and the yield
// is what lets it finish (and its waiting PEs hand the CPU back at once).
#pragma once

#include <cstdint>

namespace shoal {

class LostYields {
 public:
  // A yield slower than this lost the CPU to a task that computes.
  static constexpr std::uint64_t kLostYieldNs = 500'000;
  // How long the waits of a thread that lost a yield do not yield.
  static constexpr std::uint64_t kNoYieldNs = 100'000'000;

  // Records a yield of took_ns that ended at now_ns, on a machine that runs more PEs than CPUs or
  // not.
  void yielded(std::uint64_t took_ns, std::uint64_t now_ns, bool oversubscribed) noexcept {
    if (took_ns > kLostYieldNs && !oversubscribed) lost_at_ns_ = now_ns;
  }
  // Whether some yield was lost and the thread's waits have not yielded since: then ask
  // may_yield (this alone reads no clock).
  bool any() const noexcept { return lost_at_ns_ != 0; }
  bool may_yield(std::uint64_t now_ns) noexcept {
    if (lost_at_ns_ == 0) return true;
    if (now_ns - lost_at_ns_ < kNoYieldNs) return false;
    lost_at_ns_ = 0;
    return true;
  }

 private:
  std::uint64_t lost_at_ns_ = 0;  // when the last lost yield ended; 0: none lately
};

}  // namespace shoal
