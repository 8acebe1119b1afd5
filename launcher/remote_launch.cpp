#include "remote_launch.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <set>

#include "diagnostics.hpp"
#include "environment.hpp"
#include "program_lookup.hpp"

extern char **environ;

namespace shoal::launcher {
namespace {

std::string base_name(const std::string &path) { return path.substr(path.rfind('/') + 1); }

long long now_ms() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

// Runs "<path> --version" (stdin from /dev/null, stdout and stderr captured, at most 10 s)
// and returns its output, or "" when it could not be run.
std::string version_output(const std::string &path) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return "";
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return "";
  }
  if (pid == 0) {
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
    ::dup2(pipe_fds[1], STDOUT_FILENO);
    ::dup2(pipe_fds[1], STDERR_FILENO);
    char *const argv[] = {const_cast<char *>(path.c_str()), const_cast<char *>("--version"),
                          nullptr};
    ::execv(path.c_str(), argv);
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  std::string out;
  const long long deadline = now_ms() + 10000;
  for (;;) {
    const long long left = deadline - now_ms();
    if (left <= 0) break;
    pollfd p{pipe_fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    char buf[1024];
    const ssize_t n = ::read(pipe_fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (out.size() < 65536) out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(pipe_fds[0]);
  ::kill(pid, SIGKILL);  // harmless when it has exited; ends one that hangs
  while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  return out;
}

std::string first_line(const std::string &text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

bool forwarded_by_default(const std::string &name) {
  return name.rfind("SMA_", 0) == 0 || name.rfind("SHMEM_", 0) == 0 || name.rfind("UCX_", 0) == 0;
}

bool plain_word(const std::string &word) {
  if (word.empty()) return false;
  for (char c : word)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
          std::strchr("_@%+=:,./-", c) != nullptr))
      return false;
  return true;
}

// "host node2 is" / "hosts node2, node3 are"
std::string describe_hosts(const std::vector<std::string> &hosts) {
  std::string text = hosts.size() == 1 ? "host " : "hosts ";
  for (std::size_t i = 0; i < hosts.size(); ++i) text += (i ? ", " : "") + hosts[i];
  return text + (hosts.size() == 1 ? " is" : " are");
}

}  // namespace

LauncherChoice choose_remote_launcher(const std::string &explicit_path, const char *path_env) {
  LauncherChoice choice;
  if (!explicit_path.empty()) {
    const ProgramLookup found = lookup_program(explicit_path, path_env);
    if (found.error != 0) {
      choice.error = "cannot use --launcher '" + explicit_path + "': " + std::strerror(found.error);
      return choice;
    }
    choice.launcher.path = found.path;
    choice.launcher.dialect = base_name(found.path).rfind("prte", 0) == 0
                                  ? RemoteLauncher::Dialect::prrte
                                  : RemoteLauncher::Dialect::open_mpi;
    return choice;
  }
  if (const ProgramLookup prterun = lookup_program("prterun", path_env); prterun.error == 0) {
    choice.launcher = {prterun.path, RemoteLauncher::Dialect::prrte};
    return choice;
  }
  std::string foreign;  // an mpirun that is not Open MPI's, and what it says it is
  for (const char *name : {"mpirun", "mpirun.openmpi"}) {
    const ProgramLookup mpirun = lookup_program(name, path_env);
    if (mpirun.error != 0) continue;
    const std::string says = version_output(mpirun.path);
    if (says.find("Open MPI") != std::string::npos) {
      choice.launcher = {mpirun.path, RemoteLauncher::Dialect::open_mpi};
      return choice;
    }
    if (foreign.empty())
      foreign = mpirun.path + " is not Open MPI's mpirun (its --version says '" +
                (says.empty() ? std::string("nothing") : first_line(says)) + "')";
  }
  choice.error = foreign.empty() ? "neither prterun nor mpirun is in PATH" : foreign;
  return choice;
}

std::vector<std::string> remote_command(const RemoteLauncher &launcher, const Options &options,
                                        const std::vector<std::string> &environment, bool as_root) {
  const bool prrte = launcher.dialect == RemoteLauncher::Dialect::prrte;
  std::vector<std::string> argv{launcher.path};
  auto add = [&argv](std::initializer_list<std::string> words) {
    argv.insert(argv.end(), words.begin(), words.end());
  };
  if (as_root) add({"--allow-run-as-root"});
  // Without -np both launchers, like oshrun, start one PE per slot.
  if (options.np_given) add({prrte ? "--np" : "-np", std::to_string(options.np)});
  if (!options.host.empty()) add({"--host", options.host});
  if (!options.hostfile.empty()) add({"--hostfile", options.hostfile});
  // PRRTE's spellings; its --oversubscribe and --tag-output are deprecated aliases of these.
  if (options.oversubscribe) {
    if (prrte)
      add({"--map-by", ":OVERSUBSCRIBE"});
    else
      add({"--oversubscribe"});
  }
  if (options.tag_output) {
    if (prrte)
      add({"--output", "tag"});
    else
      add({"--tag-output"});
  }
  // --bind-to auto is oshrun's default and has no equivalent: the launcher's default applies.
  if (options.bind_to == Options::Binding::core) add({"--bind-to", "core"});
  if (options.bind_to == Options::Binding::none) add({"--bind-to", "none"});

  std::set<std::string> named;
  for (const std::string &x : options.exports) {
    const std::string name = x.substr(0, x.find('='));
    if (x.find('=') == std::string::npos && !find_variable(environment, name)) {
      diag("warning: -x " + x + ": " + x + " is not set; not passed to the PEs");
      continue;
    }
    add({"-x", x});
    named.insert(name);
  }
  std::vector<std::string> inherited;
  for (const std::string &entry : environment) {
    const std::string name = entry.substr(0, entry.find('='));
    if (forwarded_by_default(name) && !named.count(name)) inherited.push_back(name);
  }
  std::sort(inherited.begin(), inherited.end());
  inherited.erase(std::unique(inherited.begin(), inherited.end()), inherited.end());
  for (const std::string &name : inherited) add({"-x", name});

  argv.insert(argv.end(), options.program.begin(), options.program.end());
  return argv;
}

std::string shell_command_line(const std::vector<std::string> &argv) {
  std::string line;
  for (const std::string &word : argv) {
    if (!line.empty()) line += ' ';
    if (plain_word(word)) {
      line += word;
      continue;
    }
    line += '\'';
    for (char c : word) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return line;
}

int hand_over_job(const Options &options, const std::vector<std::string> &other_hosts) {
  const char *path_env = std::getenv("PATH");
  const LauncherChoice choice = choose_remote_launcher(options.launcher, path_env);
  if (!choice.error.empty()) {
    diag(describe_hosts(other_hosts) +
         " not this one, and jobs on other hosts need prterun or Open MPI's mpirun: " +
         choice.error +
         "; install one (Debian: apt-get install openmpi-bin) or give "
         "--launcher PATH");
    return 127;
  }
  std::vector<std::string> environment;
  for (char **e = environ; e && *e; ++e) environment.emplace_back(*e);
  const std::vector<std::string> argv =
      remote_command(choice.launcher, options, environment, ::geteuid() == 0);
  if (!options.quiet)
    diag(describe_hosts(other_hosts) + " not this one: handing the job to " +
         base_name(choice.launcher.path) + ": " + shell_command_line(argv));

  std::vector<char *> c_argv;
  for (const std::string &a : argv) c_argv.push_back(const_cast<char *>(a.c_str()));
  c_argv.push_back(nullptr);
  ::execv(choice.launcher.path.c_str(), c_argv.data());
  const int err = errno;
  diag("cannot run '" + choice.launcher.path + "': " + std::strerror(err));
  return err == ENOENT || err == ENOTDIR ? 127 : 126;
}

std::optional<SrunHandoff> srun_handoff(const Options &options, const char *path_env,
                                        const char *slurm_job_id, const char *slurm_step_id,
                                        std::string &warning) {
  SrunHandoff handoff;
  handoff.job_id = slurm_job_id ? slurm_job_id : "";
  if (!options.launcher.empty()) {
    if (base_name(options.launcher).rfind("srun", 0) != 0) return std::nullopt;
    const ProgramLookup found = lookup_program(options.launcher, path_env);
    if (found.error != 0)
      handoff.error =
          "cannot use --launcher '" + options.launcher + "': " + std::strerror(found.error);
    else if (options.hosts_given())
      handoff.error =
          "srun places the PEs on the nodes of the allocation: leave out --host and "
          "--hostfile with --launcher " +
          options.launcher;
    handoff.srun_path = found.path;
    return handoff;
  }
  if (options.no_srun || options.hosts_given() || handoff.job_id.empty()) return std::nullopt;
  if (slurm_step_id && *slurm_step_id) return std::nullopt;
  const ProgramLookup found = lookup_program("srun", path_env);
  if (found.error != 0) {
    warning = "warning: inside Slurm job " + handoff.job_id +
              " but srun is not in PATH: starting the PEs on this node only";
    return std::nullopt;
  }
  handoff.srun_path = found.path;
  return handoff;
}

std::vector<std::string> srun_command(const std::string &srun_path, const Options &options,
                                      const std::vector<std::string> &environment,
                                      std::string &error) {
  std::vector<std::string> argv{srun_path, "--mpi=pmix"};
  if (options.np_given) argv.insert(argv.end(), {"-n", std::to_string(options.np)});
  argv.push_back("--kill-on-bad-exit=1");
  if (options.oversubscribe) argv.push_back("--overcommit");
  if (options.tag_output) argv.push_back("--label");
  if (options.bind_to == Options::Binding::core) argv.push_back("--cpu-bind=cores");
  if (options.bind_to == Options::Binding::none) argv.push_back("--cpu-bind=none");
  std::string exports = "--export=ALL";
  for (const std::string &x : options.exports) {
    const std::size_t eq = x.find('=');
    if (eq == std::string::npos) {
      // srun exports oshrun's whole environment: a set VAR needs nothing more.
      if (!find_variable(environment, x))
        diag("warning: -x " + x + ": " + x + " is not set; not passed to the PEs");
      continue;
    }
    if (x.find(',') != std::string::npos) {
      error = "-x " + x + ": srun's --export cannot carry a value with a comma; export " +
              x.substr(0, eq) + " before running oshrun instead";
      return {};
    }
    exports += "," + x;
  }
  argv.push_back(exports);
  argv.insert(argv.end(), options.program.begin(), options.program.end());
  return argv;
}

int hand_over_to_srun(const Options &options, const SrunHandoff &handoff) {
  if (!handoff.error.empty()) {
    diag(handoff.error);
    return 2;
  }
  std::vector<std::string> environment;
  for (char **e = environ; e && *e; ++e) environment.emplace_back(*e);
  std::string error;
  const std::vector<std::string> argv =
      srun_command(handoff.srun_path, options, environment, error);
  if (!error.empty()) {
    diag(error);
    return 2;
  }
  if (!options.quiet)
    diag((handoff.job_id.empty() ? std::string("--launcher ") + options.launcher
                                 : "inside Slurm job " + handoff.job_id) +
         ": handing the job to srun: " + shell_command_line(argv));
  std::vector<char *> c_argv;
  for (const std::string &a : argv) c_argv.push_back(const_cast<char *>(a.c_str()));
  c_argv.push_back(nullptr);
  ::execv(handoff.srun_path.c_str(), c_argv.data());
  const int err = errno;
  diag("cannot run '" + handoff.srun_path + "': " + std::strerror(err));
  return err == ENOENT || err == ENOTDIR ? 127 : 126;
}

}  // namespace shoal::launcher
