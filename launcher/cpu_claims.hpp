// Which CPU each PE of an oshrun job is bound to, and the record that keeps concurrent oshrun
// jobs on one machine off each other's CPUs.
//
// Each job used to bind its PE k to the k-th CPU it may use, so two small jobs started side by
// side (a test suite under ctest -j, a user's runs on a workstation) stacked their PEs on the
// same first CPUs while the others idled: two 2-PE jobs on a 64-CPU machine ran four PEs on
// CPUs 0 and 1, every exchange a context switch. Now each job that binds records its CPUs in a
// file in /dev/shm that it holds an flock() on while it runs, and a job binds to the CPUs no
// live record names. The kernel drops the lock however oshrun ends (SIGKILL included), which is
// how the record of a dead job is told from a live one; the next job removes it.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace shoal::launcher {

// The CPU of each of `np` PEs (-1: unbound), given the CPUs oshrun may use (`allowed`, in the
// order to hand them out: cpu_topology.hpp) and those other live jobs bound PEs to (`taken`).
// With enough free CPUs PE k gets the k-th free one. Otherwise `must_bind` (--bind-to core) binds
// round robin over the free CPUs, then the taken ones; without it (auto) the PEs stay unbound, as
// where they outnumber the CPUs.
std::vector<int> choose_cpus(const std::vector<int> &allowed, const std::set<int> &taken, int np,
                             bool must_bind);

// This job's record. claim() chooses the CPUs (choose_cpus) under an flock on the directory
// shared by every oshrun of the machine, so two jobs starting together do not both take the
// same free CPUs, and keeps the record until release() or destruction. Best effort: where the
// directory cannot be used (or locked within a second), the choice ignores other jobs.
class CpuClaim {
 public:
  explicit CpuClaim(std::string dir = "/dev/shm") : dir_(std::move(dir)) {}
  ~CpuClaim() { release(); }
  CpuClaim(const CpuClaim &) = delete;
  CpuClaim &operator=(const CpuClaim &) = delete;

  std::vector<int> claim(const std::vector<int> &allowed, int np, bool must_bind);
  void release();

 private:
  std::set<int> cpus_of_live_jobs() const;  // removes the records of dead jobs it meets
  bool record(const std::vector<int> &cpus);

  std::string dir_;
  std::string path_;  // this job's record; empty: none
  int fd_ = -1;       // open on it, with the flock held
};

}  // namespace shoal::launcher
