// Distributed locking routines (specification section "Distributed Locking Routines"); the
// MCS queue lock behind them is in atomics/lock.cpp.
#include "api/export.hpp"
#include "atomics/lock.hpp"
#include "observe/observe.hpp"

namespace {
shoal::observe::Detail lock_detail(const long *lock) noexcept {
  shoal::observe::Detail d;
  d.addr = lock;
  return d;
}
}  // namespace

extern "C" void pshmem_set_lock(long *lock) noexcept {
  SMA_OBSERVE_CALL(lock, "shmem_set_lock", [&] { return lock_detail(lock); });
  shoal::lock::set(lock, "shmem_set_lock");
}
SMA_WEAK_ALIAS(shmem_set_lock)

extern "C" int pshmem_test_lock(long *lock) noexcept {
  SMA_OBSERVE_CALL(lock, "shmem_test_lock", [&] { return lock_detail(lock); });
  return shoal::lock::test(lock, "shmem_test_lock");
}
SMA_WEAK_ALIAS(shmem_test_lock)

extern "C" void pshmem_clear_lock(long *lock) noexcept {
  SMA_OBSERVE_CALL(lock, "shmem_clear_lock", [&] { return lock_detail(lock); });
  shoal::lock::clear(lock, "shmem_clear_lock");
}
SMA_WEAK_ALIAS(shmem_clear_lock)
