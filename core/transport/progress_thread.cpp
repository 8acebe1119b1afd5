#include "transport/progress_thread.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "log/log.hpp"

namespace shoal::ucx {

std::atomic<ProgressThread *> ProgressThread::running_{nullptr};
thread_local bool InboundLease::held_here_ = false;

Status ProgressThread::start(UcxWorker &worker) {
  worker_ = &worker;
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
  const int worker_fd = worker_->event_fd();
  for (;;) {
    ucs_status_t armed;
    {
      // Blocks while an application thread waiting inside the library drives the worker.
      std::lock_guard drive(drive_);
      while (worker_->progress() != 0) {
      }
      // Arm the worker; if events arrived meanwhile it says busy and we progress again.
      armed = worker_->arm();
    }
    if (armed == UCS_ERR_BUSY) continue;
    if (armed != UCS_OK) {
      SMA_LOG_ERROR("ucx", "ucp_worker_arm failed: {}; progress thread stops",
                    ucs_status_string(armed));
      return;
    }
    pollfd fds[2] = {{worker_fd, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0 && errno != EINTR) {
      SMA_LOG_ERROR("ucx", "poll in the progress thread failed: {}", std::strerror(errno));
      return;
    }
    if (fds[1].revents & POLLIN) return;
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
