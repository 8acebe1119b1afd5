// Distributed locking routines (specification section "Distributed Locking Routines"); the
// MCS queue lock behind them is in atomics/lock.cpp.
#include "api/export.hpp"
#include "atomics/lock.hpp"

extern "C" void pshmem_set_lock(long *lock) noexcept { shoal::lock::set(lock, "shmem_set_lock"); }
SMA_WEAK_ALIAS(shmem_set_lock)

extern "C" int pshmem_test_lock(long *lock) noexcept {
  return shoal::lock::test(lock, "shmem_test_lock");
}
SMA_WEAK_ALIAS(shmem_test_lock)

extern "C" void pshmem_clear_lock(long *lock) noexcept {
  shoal::lock::clear(lock, "shmem_clear_lock");
}
SMA_WEAK_ALIAS(shmem_clear_lock)
