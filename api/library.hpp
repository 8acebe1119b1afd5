// The library's life between shmem_init and shmem_finalize: the one place that starts every
// layer and stops it again, in one order, and the state of that life (running or not, nested
// inits, the PMIx session kept across a finalize). The entry points of api/setup.cpp call it.
//
// Start, bottom up:
//   1. core: the Runtime (configuration, PMIx bootstrap, UCX, symmetric memory, connections to
//      every PE, the default context), then the predefined teams;
//   2. collectives: the symmetric area of team slots, the algorithm selection, the predefined
//      teams' slots;
//   then the observation of calls starts (core/observe: SMA_PROFILE's counters, the
//   SMA_HANG_TIMEOUT watchdog), and a barrier ends shmem_init.
// Stop, top down:
//   1. contexts the program left alive (completed, then destroyed);
//   2. a barrier, while every layer still runs; then the profile's report (a collective step
//      over PMIx) and the watchdog's end;
//   3. teams: every team the program created, then the predefined ones (each gives its slot
//      back to the collectives' area, which is still attached);
//   4. collectives: the area is detached;
//   5. core: the Runtime (endpoints closed once every PE is done, UCX, memory; the PMIx session
//      stays for a later shmem_init and ends at exit).
#pragma once

#include "runtime.hpp"

namespace shoal::library {

// Starts the library (shmem_init_thread's contract: 0 on success, else non-zero after an error
// message and the job's abort); a nested call only counts. `provided` may be null.
int start(int requested_thread_level, int *provided) noexcept;
// Stops it at the shmem_finalize that matches the first start; earlier ones only count.
void stop() noexcept;

// start_pes programs (OpenSHMEM 1.2 and older) have no shmem_finalize: stop() runs at exit.
void stop_at_exit_for_start_pes() noexcept;
// shmem_global_exit in progress: the exit handler must not stop the library.
void exiting() noexcept;

}  // namespace shoal::library
