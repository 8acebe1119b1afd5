// Signals as events: SIGCHLD and the termination signals are blocked and read from a
// signalfd in the main poll() loop, so no code runs in signal-handler context and no thread
// created later (PMIx's) can receive them.
#pragma once

#include <signal.h>

#include <vector>

namespace shoal::launcher {

class SignalChannel {
 public:
  SignalChannel() = default;
  ~SignalChannel();
  SignalChannel(const SignalChannel &) = delete;
  SignalChannel &operator=(const SignalChannel &) = delete;

  // Must run before any thread is created: the mask is inherited by new threads.
  // SIGINT/SIGTERM/SIGHUP are taken over unless they were ignored when oshrun started (as
  // under nohup, or for background jobs of a non-interactive shell): then they stay ignored,
  // for oshrun and for the PEs.
  bool open();
  int fd() const { return fd_; }

  // Signals that arrived since the last call (each at most once per call).
  std::vector<int> take();

  // For a freshly forked child, before exec: the signal mask and the dispositions oshrun
  // changed go back to what oshrun itself was started with. Async-signal-safe.
  void restore_in_child() const noexcept;

 private:
  int fd_ = -1;
  sigset_t old_mask_{};
  sigset_t blocked_{};
  struct sigaction old_pipe_ {
  }, old_ttin_{}, old_ttou_{}, old_chld_{};
};

}  // namespace shoal::launcher
