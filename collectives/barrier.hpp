// Barriers over all PEs. The dissemination algorithm here is the first member of the collective
// registry that the collectives issue builds; until then it serves shmem_barrier_all, shmem_sync_all
// and the library's own collective steps (allocation, finalize).
#pragma once

#include "status.hpp"

namespace shoal {
class Runtime;
}

namespace shoal::coll {

// Reserves the symmetric flags the barrier signals through; called by every PE at start-up,
// in the same order as every other start-up allocation.
Status init_barrier(Runtime &rt);
void finalize_barrier() noexcept;

// Every PE arrives before any leaves. Does not complete outstanding puts (shmem_sync_all).
void sync_all(const char *routine) noexcept;
// quiet, then sync_all (shmem_barrier_all).
void barrier_all(const char *routine) noexcept;

}  // namespace shoal::coll
