// Helpers for multi-PE GoogleTest programs (see mpp_main.cpp for the harness).
//
// Every test in these programs runs on every PE, in the same order. Two rules keep a
// failing test from turning into a hung one:
//   * a test may return early (ASSERT_*, GTEST_SKIP) only when every PE takes the same
//     decision: use SHOAL_REQUIRE_NPES / SHOAL_ASSERT_ALL_PES for conditions that could
//     differ between PEs;
//   * checks that compare data use EXPECT_* (or the check_* helpers) and let the test
//     reach its closing barrier.
#pragma once

#include <shmem.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>

// Spec version of the header we compile against, e.g. 106 for OpenSHMEM 1.6. Routines
// introduced after 1.4 are guarded with it so the suite also builds against older
// implementations (useful to validate the tests themselves).
#define SHOAL_TEST_SPEC_VERSION (SHMEM_MAJOR_VERSION * 100 + SHMEM_MINOR_VERSION)
// 1 when the suite tests Shoal itself (tests/CMakeLists.txt defines it), 0 when it validates
// its logic against another implementation. What Shoal provides must then be there: a guard
// that would skip elsewhere fails instead (SHOAL_SKIP_UNLESS_SHOAL).
#ifndef SHOAL_TEST_IMPL_IS_SHOAL
#define SHOAL_TEST_IMPL_IS_SHOAL 0
#endif
// Skips with `why` under another implementation; under Shoal, which provides the feature,
// fails with it instead, so Shoal's own CI cannot pass by skipping.
#if SHOAL_TEST_IMPL_IS_SHOAL
#define SHOAL_SKIP_UNLESS_SHOAL(why) FAIL() << (why) << " (Shoal provides it: this must not skip)"
#else
#define SHOAL_SKIP_UNLESS_SHOAL(why) GTEST_SKIP() << (why)
#endif
#ifndef SHOAL_TEST_HAVE_1_5
#define SHOAL_TEST_HAVE_1_5 (SHOAL_TEST_SPEC_VERSION >= 105)
#endif
#ifndef SHOAL_TEST_HAVE_1_6
#define SHOAL_TEST_HAVE_1_6 (SHOAL_TEST_SPEC_VERSION >= 106)
#endif

namespace shoal::test {

// Largest PE count the harness' symmetric scratch arrays support.
inline constexpr int kMaxPes = 1024;

// This PE's number and the job's size, asked once: a PE's number never changes while it runs,
// and the tests' fill and check loops call these for every element (three calls per byte through
// left() cost some programs a third of their CPU). The first call comes after the harness's
// shmem_init.
inline int me() {
  static const int pe = shmem_my_pe();
  return pe;
}
inline int npes() {
  static const int n = shmem_n_pes();
  return n;
}
inline int right() { return (me() + 1) % npes(); }
inline int left() { return (me() + npes() - 1) % npes(); }

// Sum of `value` over all PEs, returned on every PE. Uses only RMA and
// shmem_barrier_all, so it also works where collectives are not implemented yet.
// Collective: every PE must call it.
int sum_over_pes(int value);

// True on every PE iff `cond` is true on every PE. Collective.
inline bool all_pes(bool cond) { return sum_over_pes(cond ? 0 : 1) == 0; }

// The thread level the harness requested through shmem_init_thread (from the
// environment variable SHOAL_TEST_INIT_THREAD), or -1 when it called shmem_init.
int requested_thread_level();
// The level shmem_init_thread reported (meaningful only when requested_thread_level() >= 0).
int provided_thread_level();
// Return code of shmem_init_thread (0 when shmem_init was used).
int init_thread_rc();

// Deterministic values that encode (source PE, index) so a misplaced or stale element is
// caught. Integers wrap modulo their width; floating values stay exactly representable.
template <class T>
T value_of(int pe, std::size_t index) {
  const std::uint64_t v = static_cast<std::uint64_t>(pe + 1) * 1000003u +
                          static_cast<std::uint64_t>(index) * 7919u + 17u;
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v % 1048573u) + static_cast<T>(0.25);
  } else {
    return static_cast<T>(v);
  }
}

// A value no PE writes at a given index: marks "must stay untouched".
inline constexpr int kSentinelPe = 250;
template <class T>
T sentinel_of(std::size_t index) {
  return value_of<T>(kSentinelPe, index);
}

template <class T>
std::string show(const T& v) {
  std::ostringstream os;
  if constexpr (std::is_integral_v<T>) {
    os << +v;
  } else if constexpr (std::is_floating_point_v<T>) {
    os.precision(21);
    os << v;
  } else {
    const auto* b = reinterpret_cast<const unsigned char*>(&v);
    os << "0x";
    static const char* hex = "0123456789abcdef";
    for (std::size_t i = 0; i < sizeof(T); ++i) os << hex[b[i] >> 4] << hex[b[i] & 15];
  }
  return os.str();
}

template <class T>
bool same_value(const T& a, const T& b) {
  if constexpr (std::is_arithmetic_v<T>) {
    return a == b;
  } else {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
  }
}

// Checks a[i] == expected(i) for i in [begin, end); reports the first mismatch and the
// number of mismatches instead of one line per element.
template <class T, class Expected>
::testing::AssertionResult check_range(const char* what, const T* a, std::size_t begin,
                                       std::size_t end, Expected expected) {
  std::size_t bad = 0, first = 0;
  T got{}, want{};
  for (std::size_t i = begin; i < end; ++i) {
    const T e = expected(i);
    if (!same_value(a[i], e)) {
      if (bad++ == 0) {
        first = i;
        got = a[i];
        want = e;
      }
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << what << ": " << bad << " of " << (end - begin) << " elements wrong in [" << begin
         << ", " << end << "); first at index " << first << ": got " << show(got) << ", expected "
         << show(want);
}

// Polls `*flag` (a plain load through volatile) until it equals `want`. Between polls it
// calls shmem_quiet (drives progress in implementations that need it) and yields, since
// tests run more PEs than cores. Returns false on timeout.
template <class T>
bool wait_for_value(const T* flag, T want,
                    std::chrono::seconds timeout = std::chrono::seconds(60)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (unsigned spin = 0;; ++spin) {
    if (*static_cast<const volatile T*>(flag) == want) return true;
    if ((spin & 63u) == 63u) {
      shmem_quiet();
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    } else {
      std::this_thread::yield();
    }
  }
}

// RAII symmetric allocation. Collective (shmem_malloc / shmem_free are).
template <class T>
class SymArray {
 public:
  explicit SymArray(std::size_t n) : n_(n) {
    p_ = static_cast<T*>(shmem_malloc(n * sizeof(T) > 0 ? n * sizeof(T) : 1));
  }
  ~SymArray() {
    if (p_ != nullptr) shmem_free(p_);
  }
  SymArray(const SymArray&) = delete;
  SymArray& operator=(const SymArray&) = delete;
  T* get() const { return p_; }
  T& operator[](std::size_t i) const { return p_[i]; }
  std::size_t size() const { return n_; }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace shoal::test

// Detecting, at compile time, whether shmem.h declares a routine (for routines that are
// new or were renamed between spec versions). SHOAL_TEST_FALLBACK(name) declares a
// catch-all template `name` in namespace shoal_fallback returning not_declared. A function
// at *global* namespace scope that says `using namespace shoal_fallback;` and calls `name`
// unqualified gets the real routine when the header declares one (overload resolution
// prefers the non-template) and the fallback otherwise. (Inside another namespace the
// using-directive would hide the global declaration instead.)
namespace shoal_fallback {
struct not_declared {
  operator int() const { return -1; }
};
}  // namespace shoal_fallback
#define SHOAL_TEST_FALLBACK(name) \
  namespace shoal_fallback {      \
  template <class... A>           \
  not_declared name(A...) {       \
    return {};                    \
  }                               \
  }
template <class R>
inline constexpr bool shoal_declared = !std::is_same_v<R, shoal_fallback::not_declared>;

// Skips (on every PE alike) unless the program runs on exactly / at least k PEs.
#define SHOAL_REQUIRE_NPES(k)                                                    \
  do {                                                                           \
    if (shmem_n_pes() != (k)) GTEST_SKIP() << "needs exactly " << (k) << " PEs"; \
  } while (0)
#define SHOAL_REQUIRE_MIN_NPES(k)                                                \
  do {                                                                           \
    if (shmem_n_pes() < (k)) GTEST_SKIP() << "needs at least " << (k) << " PEs"; \
  } while (0)

// ASSERT that holds on every PE; if it fails anywhere, every PE leaves the test
// together (no PE is left waiting in a barrier). Collective.
#define SHOAL_ASSERT_ALL_PES(cond)                                                         \
  do {                                                                                     \
    const bool shoal_local_ok_ = static_cast<bool>(cond);                                  \
    EXPECT_TRUE(shoal_local_ok_) << #cond << " is false on PE " << shmem_my_pe();          \
    ASSERT_TRUE(::shoal::test::all_pes(shoal_local_ok_)) << #cond << " failed on some PE"; \
  } while (0)
