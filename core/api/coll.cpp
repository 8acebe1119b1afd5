// Collective entry points. Only the all-PE synchronizations exist yet; they run the
// dissemination barrier of collectives/.
#include "api/export.hpp"
#include "collectives/barrier.hpp"

extern "C" void pshmem_barrier_all(void) noexcept { shoal::coll::barrier_all("shmem_barrier_all"); }
SMA_WEAK_ALIAS(shmem_barrier_all)
extern "C" void pshmem_sync_all(void) noexcept { shoal::coll::sync_all("shmem_sync_all"); }
SMA_WEAK_ALIAS(shmem_sync_all)
