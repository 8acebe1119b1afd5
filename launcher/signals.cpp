#include "signals.hpp"

#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>

namespace shoal::launcher {
namespace {

bool is_ignored(int sig) {
  struct sigaction sa {};
  return ::sigaction(sig, nullptr, &sa) == 0 && sa.sa_handler == SIG_IGN;
}

void ignore(int sig, struct sigaction &old) {
  struct sigaction sa {};
  sa.sa_handler = SIG_IGN;
  sigemptyset(&sa.sa_mask);
  ::sigaction(sig, &sa, &old);
}

}  // namespace

SignalChannel::~SignalChannel() {
  if (fd_ >= 0) ::close(fd_);
}

bool SignalChannel::open() {
  sigemptyset(&blocked_);
  sigaddset(&blocked_, SIGCHLD);
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    if (!is_ignored(sig)) sigaddset(&blocked_, sig);
  if (::sigprocmask(SIG_BLOCK, &blocked_, &old_mask_) != 0) return false;

  // Writing to a closed stdout/stdin pipe must be an EPIPE error, not death. Reading or writing
  // the terminal from a background job must not stop oshrun (reads then fail with EIO, which
  // the stdin forwarder treats as end of input).
  ignore(SIGPIPE, old_pipe_);
  ignore(SIGTTIN, old_ttin_);
  ignore(SIGTTOU, old_ttou_);
  // An inherited "SIGCHLD ignored" would make the kernel reap the PEs behind our back and
  // leave us without their exit statuses.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(SIGCHLD, &dfl, &old_chld_);

  fd_ = ::signalfd(-1, &blocked_, SFD_CLOEXEC | SFD_NONBLOCK);
  return fd_ >= 0;
}

std::vector<int> SignalChannel::take() {
  std::vector<int> out;
  signalfd_siginfo info[16];
  for (;;) {
    const ssize_t n = ::read(fd_, info, sizeof info);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n / static_cast<ssize_t>(sizeof info[0]); ++i) {
      const int sig = static_cast<int>(info[i].ssi_signo);
      bool seen = false;
      for (int s : out) seen = seen || s == sig;
      if (!seen) out.push_back(sig);
    }
  }
  return out;
}

void SignalChannel::restore_in_child() const noexcept {
  ::sigaction(SIGPIPE, &old_pipe_, nullptr);
  ::sigaction(SIGTTIN, &old_ttin_, nullptr);
  ::sigaction(SIGTTOU, &old_ttou_, nullptr);
  ::sigaction(SIGCHLD, &old_chld_, nullptr);
  ::sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
}

}  // namespace shoal::launcher
