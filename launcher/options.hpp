// Command-line parsing for oshrun / shmemrun.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "host_list.hpp"

namespace shoal::launcher {

// Largest job we accept: far beyond one node, but keeps rank arithmetic and fd counts sane.
inline constexpr int kMaxPes = 65536;

struct Options {
  int np = 1;
  bool np_given = false;  // with hosts and no -np, the job takes every slot (as mpirun)
  // -x arguments in the order given: "VAR" (export oshrun's current value) or "VAR=value".
  std::vector<std::string> exports;
  bool tag_output = false;
  // --bind-to: core binds PE k to the k-th CPU oshrun may use (round robin); none leaves the
  // scheduler free; automatic binds when there are at least as many CPUs as PEs.
  enum class Binding { automatic, core, none } bind_to = Binding::automatic;
  // --host (-H), every value joined with commas as given, and its parsed entries; --hostfile
  // (--machinefile). At most one of the two. Hosts that are all this machine only limit -np;
  // any other host hands the job to another launcher (remote_launch.hpp).
  std::string host;
  std::vector<HostEntry> host_entries;
  std::string hostfile;
  bool oversubscribe = false;  // -np may exceed the slots of the hosts
  // --launcher PATH: the launcher a job on other hosts is handed to (default: prterun, else
  // Open MPI's mpirun, from PATH).
  std::string launcher;
  // --no-srun: inside a Slurm allocation (SLURM_JOB_ID), start the PEs on this node instead
  // of handing the job to the allocation's srun.
  bool no_srun = false;
  bool quiet = false;  // --quiet: no line saying which launcher the job was handed to
  bool hosts_given() const { return !host.empty() || !hostfile.empty(); }
  // The program and its arguments; never empty after a successful parse.
  std::vector<std::string> program;
};

enum class ParseAction { run, help, version, usage_error };

struct ParseResult {
  ParseAction action = ParseAction::run;
  Options options;
  std::string error;  // set for usage_error
};

ParseResult parse_options(int argc, char **argv);

std::string usage_text();
std::string version_text();

}  // namespace shoal::launcher
