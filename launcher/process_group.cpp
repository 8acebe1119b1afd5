#include "process_group.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <initializer_list>

#include "signals.hpp"

namespace shoal::launcher {
namespace {

// Child side, between fork and exec: only async-signal-safe calls (oshrun has PMIx threads,
// whose locks may be held at the moment of the fork).

// Writes the pieces as one line with a single write(2): oshrun forwards the PE's stderr as it
// reads it, and a line written in several pieces could be forwarded half, with oshrun's own
// report of the PE's exit landing in its middle. A pipe write of up to PIPE_BUF bytes is atomic.
void child_write_line(std::initializer_list<const char *> pieces) {
  char line[PIPE_BUF];
  std::size_t used = 0;
  for (const char *piece : pieces)
    for (const char *c = piece; *c != '\0' && used < sizeof line - 1; ++c) line[used++] = *c;
  line[used++] = '\n';
  [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, line, used);
}

// Why execve failed, without strerror (not async-signal-safe). The program was found and is
// executable (checked before anything was forked), so what remains is mostly a file the kernel
// cannot run, or a script whose interpreter is missing.
const char *exec_error_text(int err, const char *path) {
  switch (err) {
    case ENOENT:
      return ::access(path, F_OK) == 0 ? "its interpreter or a library it needs was not found"
                                       : "No such file or directory";
    case ENOEXEC:
      return "Exec format error (not a program this machine can run)";
    case EACCES:
      return "Permission denied";
    case ETXTBSY:
      return "Text file busy";
    case ENOMEM:
      return "Cannot allocate memory";
    case E2BIG:
      return "Argument list too long";
    case ELIBBAD:
      return "Accessing a corrupted shared library";
    default:
      return "unexpected error";
  }
}

void close_fds_from(int first) {
#ifdef SYS_close_range
  if (::syscall(SYS_close_range, first, ~0U, 0) == 0) return;
#endif
  const long max = ::sysconf(_SC_OPEN_MAX);
  for (long fd = first; fd < (max > 0 && max < 65536 ? max : 65536); ++fd)
    ::close(static_cast<int>(fd));
}

[[noreturn]] void run_child(const SpawnRequest &req, const SignalChannel &signals, pid_t parent,
                            int go_fd) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);  // oshrun already died before PDEATHSIG was armed

  // Wait until the parent has recorded our pid (it closes its end of the pipe).
  char byte;
  while (::read(go_fd, &byte, 1) < 0 && errno == EINTR) {
  }

  if (::dup2(req.stdin_fd, STDIN_FILENO) < 0 || ::dup2(req.stdout_fd, STDOUT_FILENO) < 0 ||
      ::dup2(req.stderr_fd, STDERR_FILENO) < 0)
    ::_exit(127);
  // PMIx's sockets and every other descriptor of oshrun stay out of the PE.
  close_fds_from(3);
  signals.restore_in_child();
  ::umask(req.umask);
  if (req.cpu >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(req.cpu, &set);
    (void)::sched_setaffinity(0, sizeof set, &set);  // best effort: a PE runs unbound otherwise
  }

  ::execve(req.path, req.argv, req.envp);
  const int err = errno;
  child_write_line({"oshrun: exec of '", req.path, "' failed: ", exec_error_text(err, req.path)});
  ::_exit(err == ENOENT ? 127 : 126);
}

}  // namespace

bool ProcessGroup::spawn(const SpawnRequest &req, const std::function<void(pid_t)> &on_forked,
                         std::string &error) {
  int go[2];
  if (::pipe2(go, O_CLOEXEC) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    error = std::string("fork: ") + std::strerror(errno);
    ::close(go[0]);
    ::close(go[1]);
    return false;
  }
  if (pid == 0) {
    ::close(go[1]);
    run_child(req, signals_, parent, go[0]);
  }
  ::close(go[0]);
  // Also set here, so the group exists before we might signal it (whichever runs first wins).
  ::setpgid(pid, pid);
  pes_.push_back({req.rank, pid, false});
  ++running_;
  if (on_forked) on_forked(pid);
  ::close(go[1]);  // let the child exec
  return true;
}

void ProcessGroup::signal_all(int sig) {
  for (const Pe &pe : pes_) {
    if (pe.reaped) continue;
    if (::kill(-pe.pid, sig) != 0 && errno == ESRCH) ::kill(pe.pid, sig);
  }
}

std::vector<pid_t> ProcessGroup::pids() const {
  std::vector<pid_t> out;
  for (const Pe &pe : pes_) out.push_back(pe.pid);
  return out;
}

std::vector<PeExit> ProcessGroup::exited() const {
  std::vector<PeExit> out;
  for (const Pe &pe : pes_) {
    if (pe.reaped) continue;
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pe.pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
        info.si_pid != pe.pid)
      continue;
    // The status waitpid will give, built from what waitid saw.
    int status = 0;
    if (info.si_code == CLD_EXITED)
      status = (info.si_status & 0xff) << 8;
    else if (info.si_code == CLD_DUMPED)
      status = (info.si_status & 0x7f) | 0x80;
    else
      status = info.si_status & 0x7f;  // CLD_KILLED
    out.push_back({pe.rank, pe.pid, status});
  }
  return out;
}

void ProcessGroup::reap(const std::vector<PeExit> &exits) {
  for (const PeExit &e : exits)
    for (Pe &pe : pes_) {
      if (pe.pid != e.pid || pe.reaped) continue;
      ::kill(-pe.pid, SIGKILL);  // leftovers of this PE; harmless when there are none
      int status = 0;
      while (::waitpid(pe.pid, &status, 0) < 0 && errno == EINTR) {
      }
      pe.reaped = true;
      --running_;
    }
}

}  // namespace shoal::launcher
