#include "job.hpp"

#include <sched.h>

#include <poll.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>

#include "cpu_claims.hpp"
#include "cpu_topology.hpp"
#include "diagnostics.hpp"
#include "environment.hpp"
#include "event_queue.hpp"
#include "pmix_host.hpp"
#include "process_group.hpp"
#include "session_files.hpp"
#include "signals.hpp"
#include "stdio_forwarder.hpp"

namespace shoal::launcher {
namespace {

using Clock = std::chrono::steady_clock;

// How long PEs get between the polite signal and SIGKILL.
constexpr auto kKillGrace = std::chrono::seconds(2);
// How long PE output pipes may stay open after the last PE exited (something that escaped the
// PE's process group holds them); then the rest is read without waiting.
constexpr auto kDrainGrace = std::chrono::seconds(2);
// Where shared memory lives.
constexpr const char *kShmBase = "/dev/shm";

// An exit status the shell can see: the low 8 bits as exit() would give, but never turn a
// non-zero abort status into success.
int exit_status_for(int status) {
  if (status >= 0 && status <= 255) return status;
  return (status & 0xff) != 0 ? (status & 0xff) : 1;
}

// The job's PMIx namespace: "oshrun-<pid>-<32 hex digits>". The 128 random bits (getrandom)
// make it unguessable, so that knowing oshrun's pid is not enough to pose as one of its PEs;
// the pid prefix lets sweep_stale_sessions find the /dev/shm segments of a killed job from its
// session directory's name ("shoal-oshrun-<pid>-" is a prefix of every segment name).
bool make_namespace(std::string &nspace, std::string &error) {
  unsigned char bytes[16];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = std::string("getrandom: ") + std::strerror(errno);
      return false;
    }
    got += static_cast<std::size_t>(n);
  }
  static const char kHex[] = "0123456789abcdef";
  nspace = "oshrun-" + std::to_string(::getpid()) + "-";
  for (unsigned char b : bytes) {
    nspace += kHex[b >> 4];
    nspace += kHex[b & 0xf];
  }
  return true;
}

class Job {
 public:
  explicit Job(const JobConfig &config)
      : config_(config),
        pe_environment_(config.environment),
        host_(events_),
        procs_(signals_),
        output_(config.options.tag_output),
        pes_(static_cast<std::size_t>(config.options.np)) {}
  ~Job() { teardown(); }

  int run() {
    if (!launch()) begin_termination(1, SIGTERM);
    event_loop();
    teardown();
    return exit_status_;
  }

 private:
  struct PeState {
    bool connected = false;  // reached the PMIx server (PMIx_Init)
    bool finalized = false;  // called PMIx_Finalize
  };

  bool fail(const std::string &what) {
    diag(what);
    return false;
  }

  bool launch() {
    std::string error;
    if (!signals_.open())
      return fail(std::string("cannot set up signals: ") + std::strerror(errno));
    if (!events_.ok()) return fail(std::string("pipe: ") + std::strerror(errno));
    if (!make_namespace(nspace_, error)) return fail(error);
    if (!dir_.create(error)) return fail(error);
    sweep_stale_sessions(dir_.base());
    use_private_ucx_shm_dir();
    // No live job shares our pid, so whatever bears "oshrun-<our pid>-" is a leftover of a
    // killed oshrun that had the same pid.
    remove_shm_segments("oshrun-" + std::to_string(::getpid()));
    if (!host_.start(dir_.path(), error)) return fail(error);
    if (!host_.register_job(nspace_, config_.options.np, error)) return fail(error);

    int pe0_stdin = -1;
    if (!input_.prepare(pe0_stdin, error)) return fail(error);
    const int dev_null = open_dev_null();
    if (dev_null < 0) {
      ::close(pe0_stdin);
      return fail(std::string("/dev/null: ") + std::strerror(errno));
    }

    std::vector<char *> argv;
    for (const std::string &a : config_.options.program)
      argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);

    pe_cpus_ = choose_pe_cpus();
    bool ok = true;
    for (int rank = 0; rank < config_.options.np && ok; ++rank) {
      ok = spawn_pe(rank, argv.data(), rank == 0 ? pe0_stdin : dev_null, error);
      if (!ok) diag("cannot start PE " + std::to_string(rank) + ": " + error);
    }
    ::close(pe0_stdin);
    ::close(dev_null);
    return ok;
  }

  // UCX's shared-memory transport creates its files in /dev/shm and unlinks them only once they
  // are set up, so a PE killed during start-up (by a failing peer, or a signal to oshrun) leaves
  // them behind. In a directory of the job's own they go away with it (and with the stale
  // sweep after a killed oshrun). Best effort: otherwise UCX uses /dev/shm as usual; a
  // UCX_POSIX_DIR given by the user wins.
  void use_private_ucx_shm_dir() {
    if (find_variable(pe_environment_, "UCX_POSIX_DIR")) return;
    sweep_stale_sessions(kShmBase);
    std::string ignored;
    if (shm_dir_.create_in(kShmBase, ignored))
      pe_environment_.push_back("UCX_POSIX_DIR=" + shm_dir_.path());
  }

  // The CPU of each PE, or -1. Binding keeps the PEs of a small job on different cores: their
  // waits yield the CPU, so the kernel's balancer would otherwise often leave two PEs sharing
  // one core, and every exchange between them would cost a context switch. Other oshrun jobs
  // of the machine keep their CPUs (cpu_claims.hpp). With more PEs than free CPUs auto leaves
  // them free. Bound, a 4-PE barrier on 2 CPUs was steadier (unbound the kernel may keep 3 PEs
  // on one CPU for a whole run: 4.7 us against 2.9), but with every CPU full of pinned,
  // yielding PEs, another job's oshrun reaping a dead PE spun in the kernel
  // (shrink_dcache_parent) for 30 s while both jobs stood still.
  std::vector<int> choose_pe_cpus() {
    using Binding = Options::Binding;
    const int np = config_.options.np;
    if (config_.options.bind_to == Binding::none) return std::vector<int>(np, -1);
    cpu_set_t allowed;
    if (::sched_getaffinity(0, sizeof allowed, &allowed) != 0) return std::vector<int>(np, -1);
    std::vector<int> cpus;
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
    // PE k on the k-th core while there are cores (cpu_topology.hpp).
    return cpu_claim_.claim(cores_first(cpus), np, config_.options.bind_to == Binding::core);
  }

  bool spawn_pe(int rank, char *const *argv, int stdin_fd, std::string &error) {
    if (!host_.register_client(rank, error)) return false;
    CEnvironment env(pe_environment_);
    if (!host_.setup_fork(rank, env.get(), error)) return false;
    int out = -1, err = -1;
    if (!output_.add_pe(rank, out, err, error)) return false;
    SpawnRequest req;
    req.rank = rank;
    req.path = config_.program_path.c_str();
    req.argv = argv;
    req.envp = env.get();
    req.stdin_fd = stdin_fd;
    req.stdout_fd = out;
    req.stderr_fd = err;
    req.cpu = pe_cpus_[static_cast<std::size_t>(rank)];
    req.umask = config_.pe_umask;
    const bool ok = procs_.spawn(
        req, [&](pid_t pid) { host_.set_pid(rank, pid); }, error);
    ::close(out);
    ::close(err);
    return ok;
  }

  void event_loop() {
    for (;;) {
      const auto now = Clock::now();
      if (terminating_ && !killed_ && now >= kill_at_) {
        procs_.signal_all(SIGKILL);
        killed_ = true;
      }
      if (procs_.running() == 0) {
        if (output_.all_closed()) break;
        if (!drain_until_)
          drain_until_ = now + kDrainGrace;
        else if (now >= *drain_until_)
          break;
      }

      std::vector<pollfd> fds;
      if (signals_.fd() >= 0) fds.push_back({signals_.fd(), POLLIN, 0});
      if (events_.ok()) fds.push_back({events_.wake_fd(), POLLIN, 0});
      const std::size_t in_first = fds.size();
      const std::size_t in_count = input_.add_pollfds(fds);
      const std::size_t out_first = fds.size();
      const std::size_t out_count = output_.add_pollfds(fds);

      if (::poll(fds.data(), fds.size(), poll_timeout_ms()) < 0 && errno != EINTR) {
        diag(std::string("poll: ") + std::strerror(errno));
        break;
      }
      handle_host_events();
      for (int sig : signals_.take()) {
        if (sig == SIGCHLD)
          handle_exits();
        else
          on_signal(sig);
      }
      input_.handle(fds, in_first, in_count);
      output_.handle(fds, out_first, out_count);
    }
    output_.finish();
  }

  int poll_timeout_ms() const {
    std::optional<Clock::time_point> deadline;
    if (terminating_ && !killed_) deadline = kill_at_;
    if (drain_until_ && (!deadline || *drain_until_ < *deadline)) deadline = drain_until_;
    if (!deadline) return -1;
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now());
    return left.count() < 0 ? 0 : static_cast<int>(left.count());
  }

  void handle_host_events() {
    for (HostEvent &e : events_.take()) {
      PeState &pe = pes_[static_cast<std::size_t>(e.rank)];
      switch (e.kind) {
        case HostEvent::Kind::connected:  // (again, if it re-initializes after a finalize)
          pe.connected = true;
          pe.finalized = false;
          break;
        case HostEvent::Kind::finalized:
          if (!e.process_exiting) pe.finalized = true;
          break;
        case HostEvent::Kind::aborted:
          if (terminating_) break;
          // shmem_global_exit gives no message: name the PE and the status, except for 0,
          // which is an ordinary way to end a job.
          if (!e.message.empty())
            diag("PE " + std::to_string(e.rank) + " aborted the job: " + e.message);
          else if (e.status != 0)
            diag("PE " + std::to_string(e.rank) + " aborted the job with status " +
                 std::to_string(e.status));
          begin_termination(exit_status_for(e.status), SIGTERM);
          break;
      }
    }
  }

  void handle_exits() {
    const std::vector<PeExit> exits = procs_.exited();
    if (exits.empty()) return;
    // A PE's PMIx_Finalize or PMIx_Abort is queued before PMIx lets it continue, hence before
    // it can exit: taking the queue now makes sure we judge these exits knowing about them.
    handle_host_events();
    // Judged (and the other PEs told to end) before the reaping, which can block.
    for (const PeExit &e : exits) on_pe_exit(e);
    procs_.reap(exits);
  }

  void on_pe_exit(const PeExit &e) {
    output_.drain_available(e.rank);  // its last words before our verdict on it
    if (e.rank == 0) input_.stop();
    if (terminating_) return;  // we are ending the job: the rest exit however they exit

    const std::string who = "PE " + std::to_string(e.rank) + " (pid " + std::to_string(e.pid) + ")";
    const int st = e.wait_status;
    if (WIFSIGNALED(st)) {
      const int sig = WTERMSIG(st);
      const char *name = ::strsignal(sig);
      diag(who + " was killed by signal " + std::to_string(sig) + " (" +
           (name ? name : "unknown signal") + ")");
      begin_termination(128 + sig, SIGTERM);
    } else if (WIFEXITED(st) && WEXITSTATUS(st) != 0) {
      diag(who + " exited with status " + std::to_string(WEXITSTATUS(st)));
      begin_termination(WEXITSTATUS(st), SIGTERM);
    } else {
      const PeState &pe = pes_[static_cast<std::size_t>(e.rank)];
      // A PE that never talked to PMIx (e.g. `oshrun -np 2 hostname`) may simply exit; one
      // that did must have finalized, or its peers may wait for it forever.
      if (pe.connected && !pe.finalized) {
        diag(who + " exited without calling shmem_finalize");
        begin_termination(1, SIGTERM);
      }
    }
  }

  void on_signal(int sig) {
    if (!terminating_)
      begin_termination(128 + sig, sig);
    else
      procs_.signal_all(sig);  // pass on every further signal too
  }

  // First cause wins: its status is oshrun's, later PE deaths are consequences.
  void begin_termination(int status, int sig) {
    if (terminating_) return;
    terminating_ = true;
    exit_status_ = status;
    procs_.signal_all(sig);
    kill_at_ = Clock::now() + kKillGrace;
  }

  // Whether a PE that reached the PMIx server ended without finalizing (died, killed, aborted).
  bool some_pe_lost() const {
    for (const PeState &pe : pes_)
      if (pe.connected && !pe.finalized) return true;
    return false;
  }

  // Safe to call more than once; runs on every path out, including launch failures.
  void teardown() {
    host_.stop(some_pe_lost());
    if (!nspace_.empty()) remove_shm_segments(nspace_);
    if (procs_.running() == 0) remove_orphan_sysv_segments(procs_.pids());
    shm_dir_.remove();
    dir_.remove();
    cpu_claim_.release();
  }

  const JobConfig &config_;
  std::string nspace_;  // set by launch(), see make_namespace
  std::vector<std::string> pe_environment_;
  SignalChannel signals_;
  EventQueue events_;
  SessionDir dir_;                // the PMIx server's files
  SessionDir shm_dir_;            // UCX's shared-memory files
  CpuClaim cpu_claim_{kShmBase};  // the CPUs the PEs are bound to, for other jobs to keep off
  std::vector<int> pe_cpus_;      // the CPU of each PE, -1: unbound
  PmixHost host_;
  ProcessGroup procs_;
  OutputForwarder output_;
  StdinForwarder input_;
  std::vector<PeState> pes_;

  bool terminating_ = false;
  bool killed_ = false;
  int exit_status_ = 0;
  Clock::time_point kill_at_{};
  std::optional<Clock::time_point> drain_until_;
};

}  // namespace

int run_job(const JobConfig &config) {
  Job job(config);
  return job.run();
}

}  // namespace shoal::launcher
