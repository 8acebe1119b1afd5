// Jobs on hosts other than this one: oshrun starts no daemons of its own, it replaces itself
// (exec) with a launcher that can start processes elsewhere and serves PMIx to them, PRRTE's
// prterun or Open MPI's mpirun, given the same job in that launcher's own options.
#pragma once

#include <string>
#include <vector>

#include "options.hpp"

namespace shoal::launcher {

struct RemoteLauncher {
  // Which command line it takes: PRRTE's (prterun) or Open MPI's (mpirun 4.x and 5.x).
  enum class Dialect { open_mpi, prrte };
  std::string path;
  Dialect dialect = Dialect::open_mpi;
};

// The launcher to hand a job to: `explicit_path` (--launcher; a name without a slash is
// searched in PATH; PRRTE's options when its name starts with "prte", else Open MPI's), or
// else prterun, then Open MPI's mpirun (checked with --version: on Debian "mpirun" may be
// MPICH's, then mpirun.openmpi is tried), from `path_env`. On failure `error` says why.
struct LauncherChoice {
  RemoteLauncher launcher;
  std::string error;
};
LauncherChoice choose_remote_launcher(const std::string &explicit_path, const char *path_env);

// The launcher's argv (argv[0] its path) for the job of `options`: PEs, hosts, binding,
// output tags, oversubscription, --allow-run-as-root when `as_root`, the -x variables and
// every SMA_*, SHMEM_* and UCX_* variable of `environment` ("NAME=value" strings), and the
// program with its arguments. A bare "-x VAR" whose VAR is unset in `environment` is
// reported and left out, as for a job oshrun runs itself.
std::vector<std::string> remote_command(const RemoteLauncher &launcher, const Options &options,
                                        const std::vector<std::string> &environment, bool as_root);

// The command as one line a POSIX shell reads back into the same words.
std::string shell_command_line(const std::vector<std::string> &argv);

// Hands the job to another launcher: chooses it, prints (unless --quiet) one line naming it,
// the hosts that are not this one and the full command, and execs it. Returns only on
// failure, with oshrun's exit status (127 when no launcher can be found).
int hand_over_job(const Options &options, const std::vector<std::string> &other_hosts);

}  // namespace shoal::launcher
