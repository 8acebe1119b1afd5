// What the launcher that started this process says about the job, through the variables
// launchers set (not ours: the library's own variables are in config/config_table.def).
#pragma once

#include <string>

namespace shoal::boot {

// Whether a PMIx server started this process (it names our namespace in PMIX_NAMESPACE).
bool pmix_server_present();

// When a launcher without PMIx started this process as one of several (Slurm without
// --mpi=pmix, a PMI-1/2 launcher, Open MPI's mpirun built without PMIx), the variable that says
// so with its value, such as "SLURM_STEP_NUM_TASKS=4"; otherwise empty.
std::string non_pmix_job_of_several();

}  // namespace shoal::boot
