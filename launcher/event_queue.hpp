// The hand-off from PMIx's progress thread (where the server upcalls run) to oshrun's main
// thread. Upcalls must return at once and must not fork, wait or touch the job state, so they
// only record what happened here; the main thread wakes up through the pipe in its poll().
#pragma once

#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace shoal::launcher {

struct HostEvent {
  enum class Kind { connected, finalized, aborted };
  Kind kind = Kind::connected;
  int rank = -1;
  // finalized: true when PMIx reported the client gone because its process was exiting (lost
  // connection), false for a real PMIx_Finalize (see pmix_host.cpp).
  bool process_exiting = false;
  int status = 0;       // aborted: the status given to PMIx_Abort
  std::string message;  // aborted: the message given to PMIx_Abort
};

class EventQueue {
 public:
  EventQueue();
  ~EventQueue();
  EventQueue(const EventQueue &) = delete;
  EventQueue &operator=(const EventQueue &) = delete;

  bool ok() const { return read_fd_ >= 0; }
  int wake_fd() const { return read_fd_; }  // readable when events are waiting

  // Any thread; never throws, never blocks for long.
  void push(HostEvent event) noexcept;
  // Main thread: everything pushed so far, oldest first.
  std::vector<HostEvent> take();

 private:
  std::mutex mutex_;
  std::deque<HostEvent> events_;
  int read_fd_ = -1;
  int write_fd_ = -1;
};

}  // namespace shoal::launcher
