#include "transport/progress_thread.hpp"

#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "log/log.hpp"

namespace shoal::ucx {

std::atomic<ProgressThread *> ProgressThread::running_{nullptr};
thread_local bool InboundLease::held_here_ = false;

Status ProgressThread::start(UcxWorker &worker, int pe) {
  worker_ = &worker;
  pe_ = pe;
  wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake_fd_ < 0) {
    SMA_LOG_ERROR("ucx", "eventfd for the progress thread failed: {}", std::strerror(errno));
    return Status::io_error;
  }
  try {
    thread_ = std::thread([this] { run(); });
    running_.store(this, std::memory_order_release);
  } catch (const std::system_error &e) {
    SMA_LOG_ERROR("ucx", "cannot start the progress thread: {}", e.what());
    return Status::io_error;
  }
  return Status::ok;
}

void ProgressThread::run() noexcept {
  pthread_setname_np(pthread_self(), kThreadName);
  const int worker_fd = worker_->event_fd();
  std::uint64_t waits_seen = pe_waits_.load(std::memory_order_relaxed);
  int nap_ms = kLeaseNapMs;
  for (;;) {
    ucs_status_t armed = UCS_OK;
    bool pe_in_library = true;
    // An application thread that holds the worker is inside the library and serves it: nap
    // instead of queueing for it. (Blocked on the mutex, the thread was woken at the end of
    // every one of the PE's leases only to find it taken again by the next: a context switch
    // per message on the CPU the PEs need; 4-PE reductions across two hosts took 22-49 us in
    // place of 18-24 without the thread.)
    if (std::unique_lock drive(drive_, std::try_to_lock); drive.owns_lock()) {
      while (worker_->progress() != 0) {
      }
      // Has the PE waited inside the library since we last looked? Then it serves arrivals
      // itself, and an armed worker would wake this thread for every message: each wake-up is
      // a context switch that takes a core from a PE. Stay unarmed and look again after a nap;
      // arm once a whole nap passed without the PE waiting. (Counting the arrivals the PE
      // served instead is unstable: once the armed thread takes the arrivals first, the PE
      // serves none, and the thread stays armed and woken per message for the rest of the job;
      // across two hosts 4-PE reductions then took 2-6x as long.) A PE whose peers send it
      // nothing to serve while it computes has the thread asleep until something arrives.
      const std::uint64_t waits = pe_waits_.load(std::memory_order_relaxed);
      pe_in_library = waits != waits_seen;
      waits_seen = waits;
      // Arm the worker; if events arrived meanwhile it says busy and we progress again.
      if (!pe_in_library) {
        armed = worker_->arm();
        // Set while the worker is ours: a lease that takes it next sees it (see ~InboundLease).
        asleep_on_worker_.store(armed == UCS_OK, std::memory_order_relaxed);
      }
    }
    if (armed == UCS_ERR_BUSY) continue;
    // Without this thread no peer's operation on this PE completes: the peers would hang.
    // End the job instead, loudly (fatal is safe here: it logs, then PMIx_Abort and _Exit).
    if (armed != UCS_OK)
      fatal("the progress thread of pe " + std::to_string(pe_) + " failed: ucp_worker_arm: " +
            ucs_status_string(armed) + "; ending the job, since peers would wait for it forever");
    pollfd fds[2] = {{wake_fd_, POLLIN, 0}, {worker_fd, POLLIN, 0}};
    const int watched = pe_in_library ? 1 : 2;
    // Each nap is a wake-up that takes a core from a PE for a moment (a 1 ms nap throughout
    // cost a blocking get across hosts 3%).
    const int nap = nap_ms;
    nap_ms = pe_in_library ? std::min(2 * nap_ms, kLongestLeaseNapMs) : kLeaseNapMs;
    if (poll(fds, watched, pe_in_library ? nap : kWatchdogMs) < 0 && errno != EINTR)
      fatal("the progress thread of pe " + std::to_string(pe_) + " failed: poll: " +
            std::strerror(errno) + "; ending the job, since peers would wait for it forever");
    asleep_on_worker_.store(false, std::memory_order_relaxed);
    if (fds[0].revents & POLLIN) return;
  }
}

void ProgressThread::stop() noexcept {
  ProgressThread *self = this;
  running_.compare_exchange_strong(self, nullptr, std::memory_order_acq_rel);
  if (thread_.joinable()) {
    const uint64_t one = 1;
    if (write(wake_fd_, &one, sizeof one) != sizeof one)
      SMA_LOG_WARN("ucx", "waking the progress thread failed: {}", std::strerror(errno));
    thread_.join();
  }
  if (wake_fd_ >= 0) close(wake_fd_);
  wake_fd_ = -1;
  worker_ = nullptr;
}

}  // namespace shoal::ucx
