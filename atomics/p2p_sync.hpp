// Point-to-point synchronization: waiting for, and testing, variables of this PE that other PEs
// (or threads) update. One template per routine shape, over the compared type; the API layer
// (api/p2p_sync.cpp) stamps the typed entry points out of the type tables.
//
// The variables are written by other processes (stores into a mapped heap, UCX transfers, AMOs)
// while we read them, so every read is an atomic acquire load: it never sees a torn value, and
// once it sees the awaited value it also sees what the writer stored before it (the data a
// flag or signal announces). Waiting keeps this PE's UCX worker progressing and gives the core
// away when nothing moves (core/wait.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ctx/context.hpp"
#include "wait.hpp"

namespace shoal::p2p {

// The comparison operators, with the values of the API's SHMEM_CMP_* constants (the API layer
// checks they agree; this layer does not include the public headers).
enum class Cmp : int { eq = 1, ne = 2, gt = 3, le = 4, lt = 5, ge = 6 };

// Returns cmp as a Cmp; an unknown value is a fatal error naming the routine. It also checks
// the library is running (the routines may not be called before shmem_init or after
// shmem_finalize).
Cmp check(int cmp, const char *routine) noexcept;

// Checks that the n variables of elem_size bytes at ivars are this PE's symmetric memory (no
// other PE could ever update anything else, so a wait would never end), aligned for atomic
// loads, and that n is not a negative count; otherwise a fatal error names the routine.
void check_ivars(const void *ivars, std::size_t n, std::size_t elem_size, std::size_t alignment,
                 const char *routine) noexcept;

// Both checks, for a call on n variables of type T.
template <typename T>
Cmp check(int cmp, const T *ivars, std::size_t n, const char *routine) noexcept {
  const Cmp c = check(cmp, routine);
  check_ivars(ivars, n, sizeof(T), alignof(T), routine);
  return c;
}

// The worker a waiting PE keeps progressing: the default context's.
inline ucx::UcxWorker &worker() noexcept { return *shoal_ctx_default.worker; }

template <typename T>
T load(const T *p) noexcept {
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

template <typename T>
bool compare(T value, Cmp cmp, T ref) noexcept {
  switch (cmp) {
    case Cmp::eq:
      return value == ref;
    case Cmp::ne:
      return value != ref;
    case Cmp::gt:
      return value > ref;
    case Cmp::le:
      return value <= ref;
    case Cmp::lt:
      return value < ref;
    case Cmp::ge:
      return value >= ref;
  }
  return false;
}

// Where a search for "any" satisfied element starts: after the one this thread found last, so a
// series of calls returns every satisfied element eventually, not always the lowest one.
inline thread_local std::size_t any_cursor = 0;

// The set of the array routines: ivars[i] for the i whose status is 0 (all i if status is
// null), compared with values[i * stride] (stride 0: one value for all; 1: the _vector forms).
template <typename T>
struct WaitSet {
  T *ivars;
  std::size_t n;
  const int *status;
  Cmp cmp;
  const T *values;
  std::size_t stride;

  bool included(std::size_t i) const noexcept { return status == nullptr || status[i] == 0; }
  bool satisfied(std::size_t i) const noexcept {
    return compare(load(&ivars[i]), cmp, values[i * stride]);
  }
  bool empty() const noexcept {
    for (std::size_t i = 0; i < n; ++i)
      if (included(i)) return false;
    return true;
  }
  // True when every element of the set is satisfied (so also when the set is empty).
  bool all() const noexcept {
    for (std::size_t i = 0; i < n; ++i)
      if (included(i) && !satisfied(i)) return false;
    return true;
  }
  // The index of one satisfied element, or SIZE_MAX.
  std::size_t any() const noexcept {
    const std::size_t start = n ? any_cursor % n : 0;
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t i = (start + k) % n;
      if (included(i) && satisfied(i)) {
        any_cursor = i + 1;
        return i;
      }
    }
    return SIZE_MAX;
  }
  // Writes the indices of all satisfied elements (in increasing order) and returns their count.
  std::size_t some(std::size_t *indices) const noexcept {
    std::size_t count = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (included(i) && satisfied(i)) indices[count++] = i;
    return count;
  }
};

template <typename T>
WaitSet<T> make_set(T *ivars, std::size_t n, const int *status, int cmp, const T *values,
                    std::size_t stride, const char *routine) noexcept {
  return {ivars, n, status, check(cmp, ivars, n, routine), values, stride};
}

// ---- one variable ---------------------------------------------------------------------------

// Returns the value that satisfied the condition (shmem_signal_wait_until returns it).
template <typename T>
T wait_until(T *ivar, int cmp, T ref, const char *routine) noexcept {
  const Cmp c = check(cmp, ivar, 1, routine);
  T value = load(ivar);
  if (compare(value, c, ref)) return value;
  shoal::wait_until(worker(), [&] {
    value = load(ivar);
    return compare(value, c, ref);
  });
  return value;
}

// A test progresses UCX once: a program polling with it must still let transfers complete.
template <typename T>
int test(T *ivar, int cmp, T ref, const char *routine) noexcept {
  const Cmp c = check(cmp, ivar, 1, routine);
  progress_once(worker());
  return compare(load(ivar), c, ref) ? 1 : 0;
}

// ---- arrays (values has one element, or one per element for the _vector forms) --------------

template <typename T>
void wait_until_all(T *ivars, std::size_t n, const int *status, int cmp, const T *values,
                    std::size_t stride, const char *routine) noexcept {
  const WaitSet<T> set = make_set(ivars, n, status, cmp, values, stride, routine);
  if (set.all()) return;
  shoal::wait_until(worker(), [&] { return set.all(); });
}

template <typename T>
std::size_t wait_until_any(T *ivars, std::size_t n, const int *status, int cmp, const T *values,
                           std::size_t stride, const char *routine) noexcept {
  const WaitSet<T> set = make_set(ivars, n, status, cmp, values, stride, routine);
  if (set.empty()) return SIZE_MAX;  // nothing could ever satisfy the wait
  std::size_t found = set.any();
  if (found != SIZE_MAX) return found;
  shoal::wait_until(worker(), [&] { return (found = set.any()) != SIZE_MAX; });
  return found;
}

template <typename T>
std::size_t wait_until_some(T *ivars, std::size_t n, std::size_t *indices, const int *status,
                            int cmp, const T *values, std::size_t stride,
                            const char *routine) noexcept {
  const WaitSet<T> set = make_set(ivars, n, status, cmp, values, stride, routine);
  if (set.empty()) return 0;
  std::size_t count = set.some(indices);
  if (count != 0) return count;
  shoal::wait_until(worker(), [&] { return (count = set.some(indices)) != 0; });
  return count;
}

// An empty test set (nelems 0, or every element excluded) counts as satisfied: the
// specification's return-value text says 1 for nelems 0, and wait_until_all returns at once on
// an empty set, so test_all agrees with it (the description's "returns 0" for an all-excluded
// status contradicts both).
template <typename T>
int test_all(T *ivars, std::size_t n, const int *status, int cmp, const T *values,
             std::size_t stride, const char *routine) noexcept {
  const WaitSet<T> set = make_set(ivars, n, status, cmp, values, stride, routine);
  progress_once(worker());
  return set.all() ? 1 : 0;
}

template <typename T>
std::size_t test_any(T *ivars, std::size_t n, const int *status, int cmp, const T *values,
                     std::size_t stride, const char *routine) noexcept {
  const WaitSet<T> set = make_set(ivars, n, status, cmp, values, stride, routine);
  progress_once(worker());
  return set.any();
}

template <typename T>
std::size_t test_some(T *ivars, std::size_t n, std::size_t *indices, const int *status, int cmp,
                      const T *values, std::size_t stride, const char *routine) noexcept {
  const WaitSet<T> set = make_set(ivars, n, status, cmp, values, stride, routine);
  progress_once(worker());
  return set.some(indices);
}

}  // namespace shoal::p2p
