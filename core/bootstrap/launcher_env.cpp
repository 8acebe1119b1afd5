// The variables launchers set that the bootstrap reads. Each launcher names the job size its
// own way; any of them above 1 means the program was meant to be one PE of several.
#include "bootstrap/launcher_env.hpp"

#include <cstdlib>

namespace shoal::boot {

bool pmix_server_present() { return std::getenv("PMIX_NAMESPACE") != nullptr; }

std::string non_pmix_job_of_several() {
  static constexpr const char *kJobSizeVariables[] = {
      "SLURM_STEP_NUM_TASKS",  // srun
      "PMI_SIZE",              // PMI-1 and PMI-2 launchers (MPICH's hydra, srun --mpi=pmi2)
      "OMPI_COMM_WORLD_SIZE",  // Open MPI's mpirun
  };
  for (const char *name : kJobSizeVariables) {
    const char *value = std::getenv(name);
    if (value != nullptr && std::atol(value) > 1) return std::string(name) + "=" + value;
  }
  return {};
}

}  // namespace shoal::boot
