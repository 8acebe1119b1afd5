// The library's life between shmem_init and shmem_finalize: the one place that starts every
// layer and stops it again, in one order, and the one owner of the process state (library.cpp:
// struct Library). It holds the nesting of inits, the PMIx session kept across a finalize, and
// one Life per start: the Runtime and each layer's state as members, in start order (core's
// Runtime, team::State, coll::LayerState, observe::State). Each layer reaches its member through
// one accessor (g_runtime, team::state(), coll::state(), observe's bound state) that the owner
// binds when the layer starts and unbinds (null) when it stops; before the first start and after
// a stop the accessors are null and the entry points report the misuse (library_state()).
// The entry points of api/setup.cpp call it.
//
// Start, bottom up:
//   1. core: the Runtime (configuration, PMIx bootstrap, UCX, symmetric memory, connections to
//      every PE, the default context), then the team state and the predefined teams;
//   2. collectives: their state is bound, then the symmetric area of team slots, the algorithm
//      selection, the predefined teams' slots;
//   then g_runtime is bound and the observation of calls starts (core/observe: SMA_PROFILE's
//   counters, the SMA_HANG_TIMEOUT watchdog), and a barrier ends shmem_init.
// Stop, top down:
//   1. contexts the program left alive (completed, then destroyed);
//   2. a barrier, while every layer still runs; then the profile's report (a collective step
//      over PMIx) and the watchdog's end;
//   3. teams: every team the program created, then the predefined ones (each gives its slot
//      back to the collectives' area, which is still attached); the team state is unbound;
//   4. collectives: the area is detached, the plug-ins unloaded, their state unbound;
//   5. core: the Runtime (endpoints closed once every PE is done, UCX, memory; the PMIx session
//      goes back to the owner for a later shmem_init and ends at exit); then every accessor is
//      unbound and the Life freed, last member first.
// A program that exits without shmem_finalize stops nothing (that would be collective): the
// owner and its Life are never freed, so teams destroyed at exit still find the collectives'
// state.
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
// shmem_global_exit in progress: the exit handler must not stop the library, and the
// progress thread stops now, before exit() destroys what it uses.
void exiting() noexcept;

// The started library's Runtime, for the entry point `routine`: a call before shmem_init or
// after shmem_finalize is a fatal error that names the routine.
Runtime &running(const char *routine) noexcept;

}  // namespace shoal::library
