// Distributed locks (shmem_set_lock, shmem_test_lock, shmem_clear_lock): a fair MCS queue lock
// built only on the AMOs of amo.hpp. See lock.cpp for the word layout and the protocol.
#pragma once

namespace shoal::lock {

// Blocks until this PE holds the lock; PEs get it in the order they asked for it.
void set(long *lock, const char *routine) noexcept;
// Takes the lock only if no PE holds or waits for it; returns 0 if taken, 1 otherwise.
int test(long *lock, const char *routine) noexcept;
// Completes this PE's outstanding puts (quiet), then passes the lock on. Fatal if this PE
// does not hold it.
void clear(long *lock, const char *routine) noexcept;

}  // namespace shoal::lock
