#include "event_queue.hpp"

#include <fcntl.h>
#include <unistd.h>

namespace shoal::launcher {

EventQueue::EventQueue() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0) {
    read_fd_ = fds[0];
    write_fd_ = fds[1];
  }
}

EventQueue::~EventQueue() {
  if (read_fd_ >= 0) ::close(read_fd_);
  if (write_fd_ >= 0) ::close(write_fd_);
}

void EventQueue::push(HostEvent event) noexcept {
  try {
    std::lock_guard lock(mutex_);
    events_.push_back(std::move(event));
  } catch (...) {
    // Out of memory in PMIx's thread: losing one notice is better than unwinding into C code.
    return;
  }
  // A full pipe already holds a pending wake-up, so EAGAIN is fine to ignore.
  const char byte = 1;
  [[maybe_unused]] const ssize_t n = ::write(write_fd_, &byte, 1);
}

std::vector<HostEvent> EventQueue::take() {
  char buf[256];
  while (::read(read_fd_, buf, sizeof buf) > 0) {
  }
  std::lock_guard lock(mutex_);
  std::vector<HostEvent> out(std::make_move_iterator(events_.begin()),
                             std::make_move_iterator(events_.end()));
  events_.clear();
  return out;
}

}  // namespace shoal::launcher
