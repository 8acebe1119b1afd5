// Jobs on hosts other than this one: oshrun starts no daemons of its own, it replaces itself
// (exec) with a launcher that can start processes elsewhere and serves PMIx to them, PRRTE's
// prterun or Open MPI's mpirun, given the same job in that launcher's own options.
#pragma once

#include <optional>
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

// Inside a Slurm allocation: the allocation's srun starts the PEs (--mpi=pmix), so a job uses
// the nodes Slurm gave it instead of this node alone. `srun_path` is srun, `job_id` the
// allocation's SLURM_JOB_ID (empty when srun was named with --launcher outside one).
struct SrunHandoff {
  std::string srun_path;
  std::string job_id;
  std::string error;  // set when no srun can be used
};
// Whether the job of `options` goes to srun: --launcher naming srun, or else SLURM_JOB_ID set
// (an allocation of salloc or sbatch) and SLURM_STEP_ID not set (oshrun is not itself a task
// of a step, which owns only its share of a node), no --host/--hostfile and no --no-srun.
// Returns nullopt when oshrun runs the job itself; `warning` then says why an allocation's
// srun was not used, if it was not found.
std::optional<SrunHandoff> srun_handoff(const Options &options, const char *path_env,
                                        const char *slurm_job_id, const char *slurm_step_id,
                                        std::string &warning);

// srun's argv (argv[0] its path) for the job of `options`: --mpi=pmix, -n N when -np was given
// (else the allocation's task count), --kill-on-bad-exit=1 (oshrun ends the job when a PE
// fails), --label for --tag-output, --overcommit for --oversubscribe, --cpu-bind for --bind-to
// core|none, --export=ALL (srun then forwards every SMA_*, SHMEM_*, UCX_* and -x VAR
// variable) with the -x VAR=value settings appended, and the program with its arguments. A
// bare "-x VAR" whose VAR is unset in `environment` is reported and left out. Sets `error`
// (and returns nothing) for a -x value srun's --export cannot carry (one with a comma).
std::vector<std::string> srun_command(const std::string &srun_path, const Options &options,
                                      const std::vector<std::string> &environment,
                                      std::string &error);

// Hands the job to srun: prints (unless --quiet) one line with the command, and execs it.
// Returns only on failure, with oshrun's exit status.
int hand_over_to_srun(const Options &options, const SrunHandoff &handoff);

// Hands the job to another launcher: chooses it, prints (unless --quiet) one line naming it,
// the hosts that are not this one and the full command, and execs it. Returns only on
// failure, with oshrun's exit status (127 when no launcher can be found).
int hand_over_job(const Options &options, const std::vector<std::string> &other_hosts);

}  // namespace shoal::launcher
