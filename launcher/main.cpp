// oshrun / shmemrun: starts the PEs of an OpenSHMEM job on this node, acting as their PMIx
// server. See options.cpp for the command line and job.cpp for the life of a job.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "diagnostics.hpp"
#include "environment.hpp"
#include "host_list.hpp"
#include "job.hpp"
#include "options.hpp"
#include "program_lookup.hpp"
#include "remote_launch.hpp"

using namespace shoal::launcher;

namespace {

// With one of 0, 1, 2 closed, the next pipe or /dev/null we open would take its number and be
// mistaken for a standard stream (ours or, after dup2, a PE's).
void ensure_standard_fds() {
  for (int fd = 0; fd <= 2; ++fd)
    if (::fcntl(fd, F_GETFD) == -1) {
      const int null_fd = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
      if (null_fd >= 0 && null_fd != fd) {
        ::dup2(null_fd, fd);
        ::close(null_fd);
      }
    }
}

// --host / --hostfile: hosts that are all this machine only bound -np (without -np the job
// takes every slot, as with mpirun); any other host hands the job to a launcher that reaches
// it (remote_launch.hpp). Returns -1 to run the job here, else oshrun's exit status.
int place_on_hosts(Options &options) {
  std::vector<HostEntry> hosts = options.host_entries;
  std::string source = "--host " + options.host;
  if (!options.hostfile.empty()) {
    HostfileResult read = read_hostfile(options.hostfile, usable_cpus());
    if (!read.error.empty()) {
      diag(read.error);
      return 2;
    }
    hosts = std::move(read.hosts);
    source = "hostfile '" + options.hostfile + "'";
  }
  const ThisHost me = ThisHost::probe();
  std::vector<std::string> others;
  for (const HostEntry &h : hosts)
    if (!me.is(h.name) && std::find(others.begin(), others.end(), h.name) == others.end())
      others.push_back(h.name);
  if (!others.empty()) return hand_over_job(options, others);

  const int slots = total_slots(hosts, kMaxPes);
  if (!options.np_given) {
    options.np = slots;
  } else if (options.np > slots && !options.oversubscribe) {
    diag("-np " + std::to_string(options.np) + " is more than the " + std::to_string(slots) +
         " slots of " + source + "; ask for at most " + std::to_string(slots) +
         " PEs, or add --oversubscribe");
    return 2;
  }
  return -1;
}

int run(int argc, char **argv) {
  const ParseResult parsed = parse_options(argc, argv);
  switch (parsed.action) {
    case ParseAction::help:
      write_all(STDOUT_FILENO, usage_text());
      return 0;
    case ParseAction::version:
      write_all(STDOUT_FILENO, version_text());
      return 0;
    case ParseAction::usage_error:
      diag(parsed.error);
      write_all(STDERR_FILENO, usage_text());
      return 2;
    case ParseAction::run:
      break;
  }

  JobConfig config;
  config.options = parsed.options;
  std::string warning;
  if (const auto srun =
          srun_handoff(config.options, std::getenv("PATH"), std::getenv("SLURM_JOB_ID"),
                       std::getenv("SLURM_STEP_ID"), warning))
    return hand_over_to_srun(config.options, *srun);
  if (!warning.empty()) diag(warning);
  if (config.options.hosts_given()) {
    const int status = place_on_hosts(config.options);
    if (status >= 0) return status;
  }
  config.environment = build_pe_environment(config.options.exports);

  // Checked once, here, before any PE exists: a typo gives one message, not N failing PEs.
  const std::string &program = config.options.program.front();
  const ProgramLookup found = lookup_program(program, find_variable(config.environment, "PATH"));
  if (found.error != 0) {
    diag("cannot run '" + program + "': " + std::strerror(found.error));
    return found.exit_status();
  }
  config.program_path = found.path;
  // Whatever oshrun creates (its session directory, and PMIx's stores and rendezvous files,
  // which PMIx's threads make at any time) is for this user only. The PEs get the caller's
  // umask back.
  config.pe_umask = ::umask(077);
  return run_job(config);
}

}  // namespace

int main(int argc, char **argv) {
  set_program_name(argc > 0 ? argv[0] : "oshrun");
  ensure_standard_fds();
  try {
    return run(argc, argv);
  } catch (const std::exception &e) {
    diag(std::string("fatal: ") + e.what());
  } catch (...) {
    diag("fatal: unknown error");
  }
  return 1;
}
