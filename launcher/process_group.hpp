// The PE processes: fork/exec, signals, and reaping.
//
// Each PE leads its own process group, so that a signal reaches whatever the PE started as
// well (a PE may be a shell script), and so that terminal job control signals reach only
// oshrun, which forwards them once. Each PE also gets PR_SET_PDEATHSIG=SIGKILL: if oshrun is
// killed outright, its PEs do not live on.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace shoal::launcher {

class SignalChannel;

struct SpawnRequest {
  int rank = 0;
  const char *path = nullptr;  // resolved executable
  char *const *argv = nullptr;
  char *const *envp = nullptr;
  int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1;  // become the PE's 0, 1 and 2
  int cpu = -1;        // bind the PE to this CPU before exec; -1: inherit oshrun's affinity
  mode_t umask = 022;  // the PE's umask (oshrun's own is 077)
};

struct PeExit {
  int rank;
  pid_t pid;
  int wait_status;  // as from waitpid
};

class ProcessGroup {
 public:
  explicit ProcessGroup(const SignalChannel &signals) : signals_(signals) {}

  // Forks and execs one PE. `on_forked(pid)` runs in the parent after the fork but before the
  // child may exec: whatever it records about the pid is in place before the PE can run.
  bool spawn(const SpawnRequest &request, const std::function<void(pid_t)> &on_forked,
             std::string &error);

  // Sends `sig` to the process group of every PE not yet reaped.
  void signal_all(int sig);

  // Every PE that has exited and is not reaped yet, with its status, leaving it unreaped
  // (waitid WNOWAIT), without blocking: the caller can act on the exit, ending the other PEs,
  // before reap() returns, which the kernel can delay by seconds (release_task invalidating
  // the PE's /proc entries while another process walks /proc).
  std::vector<PeExit> exited() const;
  // Reaps the PEs of `exits` (from exited()). Before reaping a PE, anything still running in
  // its process group is killed: its pid (the group id) cannot be reused while it is an
  // unreaped zombie, so this never hits an unrelated process.
  void reap(const std::vector<PeExit> &exits);

  std::size_t running() const { return running_; }
  // Every PE's pid, reaped or not.
  std::vector<pid_t> pids() const;

 private:
  struct Pe {
    int rank;
    pid_t pid;
    bool reaped;
  };
  const SignalChannel &signals_;
  std::vector<Pe> pes_;
  std::size_t running_ = 0;
};

}  // namespace shoal::launcher
