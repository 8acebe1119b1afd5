// Active-set reductions shmem_TYPE_OP_to_all (deprecated since OpenSHMEM 1.5, in 1.6) for
// every type and operation of the specification's active-set table:
//   short, int, long, long long         AND OR XOR MAX MIN SUM PROD
//   float, double, long double          MAX MIN SUM PROD
//   double _Complex, float _Complex     SUM PROD
// over every scenario of active_set_util.hpp, at sizes from 1 element to more than 128 KiB of
// data (whole world only; larger than the library's per-team scratch), out of place and in
// place, against a serial reference. Values are chosen so that every partial result is exact (small
// integers, products of small factors), which makes the reference independent of the order
// in which the library combines contributions.
//
// pWrk has max(nreduce/2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements; pWrk and pSync are
// reused by consecutive calls separated by shmem_barrier over the set (see active_set_util.hpp).
#include "active_set_util.hpp"

#include <complex>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

using namespace shoal::test;
using namespace shoal::test::aset;

namespace {

enum class Op { And, Or, Xor, Max, Min, Sum, Prod };
const char* op_name(Op op) {
  switch (op) {
    case Op::And:
      return "and";
    case Op::Or:
      return "or";
    case Op::Xor:
      return "xor";
    case Op::Max:
      return "max";
    case Op::Min:
      return "min";
    case Op::Sum:
      return "sum";
    case Op::Prod:
      return "prod";
  }
  return "?";
}

std::uint64_t mix(int pe, std::size_t i) {
  std::uint64_t x = (static_cast<std::uint64_t>(pe) + 1) * 0x9E3779B97F4A7C15ull +
                    static_cast<std::uint64_t>(i) * 0xBF58476D1CE4E5B9ull;
  x ^= x >> 31;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 29);
}

template <class T>
struct is_complex : std::false_type {};
template <class R>
struct is_complex<std::complex<R>> : std::true_type {};

// The contribution of world PE `pe` at index i for `op`. Exact under any combination order:
// sums of at most 8 values in [-100, 100], products of at most 8 factors from {-1, 1, 2, 3}
// (or 1/2 for real types), complex factors with components in [-1, 1].
template <class T>
T contribution(Op op, int pe, std::size_t i) {
  const std::uint64_t m = mix(pe, i);
  if constexpr (is_complex<T>::value) {
    using R = typename T::value_type;
    if (op == Op::Sum)
      return T(static_cast<R>(static_cast<int>(m % 201) - 100),
               static_cast<R>(static_cast<int>((m >> 16) % 201) - 100));
    // Gaussian integers with |z| <= sqrt(2): products of 8 stay small and exact.
    static const T f[] = {T(1, 0), T(0, 1), T(1, 1), T(-1, 0), T(1, -1), T(0, -1)};
    return f[m % 6];
  } else if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case Op::Sum:
        return static_cast<T>(static_cast<int>(m % 801) - 400) / 4;  // quarters
      case Op::Prod: {
        static const T f[] = {1, -1, 2, 3, static_cast<T>(0.5), -2};
        return f[m % 6];
      }
      default:
        return static_cast<T>(static_cast<int>(m % 200001) - 100000) / 8;
    }
  } else {
    switch (op) {
      case Op::Sum:
        return static_cast<T>(static_cast<int>(m % 201) - 100);
      case Op::Prod: {
        static const int f[] = {1, -1, 2, 3, 1, -1};
        return static_cast<T>(f[m % 6]);
      }
      case Op::Max:
      case Op::Min:
        // Spread over the whole range of T, sign included.
        return static_cast<T>(m >> (64 - 8 * sizeof(T)));
      default:
        // Bits: AND needs mostly ones, OR mostly zeros, for results that are not all 0/1.
        if (op == Op::And) return static_cast<T>(~(m & (m >> 7) & (m >> 13)));
        if (op == Op::Or) return static_cast<T>(m & (m >> 5) & (m >> 11));
        return static_cast<T>(m);
    }
  }
}

template <class T>
T combine(Op op, T a, T b) {
  if constexpr (is_complex<T>::value) {
    return op == Op::Sum ? a + b : a * b;
  } else {
    switch (op) {
      case Op::Sum:
        return static_cast<T>(a + b);
      case Op::Prod:
        return static_cast<T>(a * b);
      case Op::Max:
        return a < b ? b : a;
      case Op::Min:
        return b < a ? b : a;
      default:
        break;
    }
    if constexpr (std::is_integral_v<T>) {
      if (op == Op::And) return static_cast<T>(a & b);
      if (op == Op::Or) return static_cast<T>(a | b);
      return static_cast<T>(a ^ b);
    }
    return a;
  }
}

template <class T>
T sentinel(std::size_t i) {
  if constexpr (is_complex<T>::value) {
    using R = typename T::value_type;
    return T(static_cast<R>(-7777.25), static_cast<R>(i % 1000));
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(-987654.5) - static_cast<T>(i % 1000);
  } else {
    return sentinel_of<T>(i);
  }
}

template <class T>
bool same(const T& a, const T& b) {
  return a == b;
}

template <class T>
std::string show_value(const T& v) {
  if constexpr (is_complex<T>::value) {
    return "(" + show(v.real()) + ", " + show(v.imag()) + ")";
  } else {
    return show(v);
  }
}

template <class T, class Expected>
::testing::AssertionResult check_values(const char* what, const T* a, std::size_t begin,
                                        std::size_t end, Expected expected) {
  std::size_t bad = 0, first = 0;
  T got{}, want{};
  for (std::size_t i = begin; i < end; ++i) {
    const T e = expected(i);
    if (!same(a[i], e) && bad++ == 0) {
      first = i;
      got = a[i];
      want = e;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << what << ": " << bad << " of " << (end - begin) << " wrong; first at " << first
         << ": got " << show_value(got) << ", expected " << show_value(want);
}

// A to_all routine with its element type. C is the library's parameter type (double _Complex
// for the complex routines), T the test's (std::complex<double>, layout-compatible).
template <class T, class C>
using ToAll = void (*)(C*, const C*, int, int, int, int, C*, long*);

template <class T>
struct Routine {
  const char* name;
  Op op;
  std::function<void(T*, const T*, int, const ActiveSet&, T*)> call;
};

template <class T, class C>
Routine<T> routine(const char* name, Op op, ToAll<T, C> fn) {
  static_assert(sizeof(T) == sizeof(C));
  return {name, op, [fn](T* dst, const T* src, int n, const ActiveSet& s, T* wrk) {
            fn(reinterpret_cast<C*>(dst), reinterpret_cast<const C*>(src), n, s.start, s.log_stride,
               s.size, reinterpret_cast<C*>(wrk), g_psync);
          }};
}

std::size_t wrk_elems(std::size_t nreduce) {
  return std::max<std::size_t>(nreduce / 2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE);
}

// Runs every routine over every scenario and size. Collective over all PEs.
template <class T>
void run_reductions(const std::vector<Routine<T>>& routines) {
  const int n_pes = npes();
  // More than 128 KiB of data per PE (the library's default collective scratch per team).
  const std::size_t big = (136 * 1024) / sizeof(T) + 5;
  SymArray<T> src(big), dst(big);
  SymArray<T> wrk(wrk_elems(big));
  init_psyncs();

  for (const Scenario& sc : scenarios(n_pes)) {
    SCOPED_TRACE("scenario " + sc.name);
    // Every size on the whole world; fewer on the other scenarios (8-PE runs stay short).
    std::vector<std::size_t> sizes;
    if (sc.name == "world") {
      sizes = {1, 17, 64, 1000, big};
    } else if (sc.name == "evens+odds") {
      sizes = {17, 1000};
    } else {
      sizes = {1, 64};
    }
    // The last size below `big` also runs in place (dest == source).
    const std::size_t in_place_size = sizes.back() == big ? sizes[sizes.size() - 2] : sizes.back();
    const ActiveSet* s = sc.set_of(me());
    for (std::size_t i = 0; i < big; ++i) {
      src[i] = sentinel<T>(i + 1);
      dst[i] = sentinel<T>(i);
    }
    // Elements past [0, extent) of src and dst hold their sentinels; the buffers are only
    // refilled and checked up to a margin past nreduce.
    constexpr std::size_t kMargin = 64;
    std::size_t extent = 0;
    shmem_barrier_all();
    if (s != nullptr) {
      SCOPED_TRACE("active set " + s->str());
      for (const Routine<T>& r : routines) {
        for (std::size_t n : sizes) {
          for (int in_place = 0; in_place < (n == in_place_size ? 2 : 1); ++in_place) {
            SCOPED_TRACE(std::string(r.name) + " nreduce " + std::to_string(n) +
                         (in_place ? " in place" : ""));
            T* out = in_place ? src.get() : dst.get();
            const std::size_t end = std::min(big, n + kMargin);
            for (std::size_t i = 0; i < std::max(extent, end); ++i) {
              src[i] = i < n ? contribution<T>(r.op, me(), i) : sentinel<T>(i + 1);
              dst[i] = sentinel<T>(i);
            }
            extent = end;
            barrier_on(*s);  // previous call done everywhere: pSync, pWrk and dest reusable
            r.call(out, src.get(), static_cast<int>(n), *s, wrk.get());
            EXPECT_TRUE(psync_restored("pSync on return", g_psync, kSyncSize));
            EXPECT_TRUE(check_values("dest", out, 0, n, [&](std::size_t i) {
              T acc = contribution<T>(r.op, s->pe(0), i);
              for (int k = 1; k < s->size; ++k)
                acc = combine(r.op, acc, contribution<T>(r.op, s->pe(k), i));
              return acc;
            }));
            if (in_place) {
              EXPECT_TRUE(check_values("source past nreduce", src.get(), n, end,
                                       [](std::size_t i) { return sentinel<T>(i + 1); }));
            } else {
              EXPECT_TRUE(check_values("dest past nreduce", dst.get(), n, end,
                                       [](std::size_t i) { return sentinel<T>(i); }));
              EXPECT_TRUE(check_values("source", src.get(), 0, end, [&](std::size_t i) {
                return i < n ? contribution<T>(r.op, me(), i) : sentinel<T>(i + 1);
              })) << "the source must not change";
            }
          }
        }
      }
    }
    shmem_barrier_all();
    if (s == nullptr) {
      EXPECT_TRUE(check_values("dest of a PE outside every set", dst.get(), 0, big,
                               [](std::size_t i) { return sentinel<T>(i); }));
      EXPECT_TRUE(check_values("source of a PE outside every set", src.get(), 0, big,
                               [](std::size_t i) { return sentinel<T>(i + 1); }));
    }
    EXPECT_TRUE(psync_restored("pSync after the scenario", g_psync, kSyncSize));
  }
}

#define SHOAL_AS_BITWISE(TN, T)                                                 \
  routine<T, T>("shmem_" #TN "_and_to_all", Op::And, shmem_##TN##_and_to_all),  \
      routine<T, T>("shmem_" #TN "_or_to_all", Op::Or, shmem_##TN##_or_to_all), \
      routine<T, T>("shmem_" #TN "_xor_to_all", Op::Xor, shmem_##TN##_xor_to_all)
#define SHOAL_AS_ARITH(TN, T)                                                      \
  routine<T, T>("shmem_" #TN "_max_to_all", Op::Max, shmem_##TN##_max_to_all),     \
      routine<T, T>("shmem_" #TN "_min_to_all", Op::Min, shmem_##TN##_min_to_all), \
      routine<T, T>("shmem_" #TN "_sum_to_all", Op::Sum, shmem_##TN##_sum_to_all), \
      routine<T, T>("shmem_" #TN "_prod_to_all", Op::Prod, shmem_##TN##_prod_to_all)

// The library's complex parameter types, taken from its own declarations.
template <class F>
struct first_param;
template <class R, class P, class... A>
struct first_param<R (*)(P*, A...) noexcept> {
  using type = P;
};
template <class R, class P, class... A>
struct first_param<R (*)(P*, A...)> {
  using type = P;
};
using LibComplexD = first_param<decltype(&shmem_complexd_sum_to_all)>::type;
using LibComplexF = first_param<decltype(&shmem_complexf_sum_to_all)>::type;

}  // namespace

TEST(ActiveSetReduce, Short) {
  run_reductions<short>({SHOAL_AS_BITWISE(short, short), SHOAL_AS_ARITH(short, short)});
}
TEST(ActiveSetReduce, Int) {
  run_reductions<int>({SHOAL_AS_BITWISE(int, int), SHOAL_AS_ARITH(int, int)});
}
TEST(ActiveSetReduce, Long) {
  run_reductions<long>({SHOAL_AS_BITWISE(long, long), SHOAL_AS_ARITH(long, long)});
}
TEST(ActiveSetReduce, LongLong) {
  run_reductions<long long>(
      {SHOAL_AS_BITWISE(longlong, long long), SHOAL_AS_ARITH(longlong, long long)});
}
TEST(ActiveSetReduce, Float) { run_reductions<float>({SHOAL_AS_ARITH(float, float)}); }
TEST(ActiveSetReduce, Double) { run_reductions<double>({SHOAL_AS_ARITH(double, double)}); }
TEST(ActiveSetReduce, LongDouble) {
  run_reductions<long double>({SHOAL_AS_ARITH(longdouble, long double)});
}
TEST(ActiveSetReduce, ComplexDouble) {
  using T = std::complex<double>;
  run_reductions<T>(
      {routine<T, LibComplexD>("shmem_complexd_sum_to_all", Op::Sum, shmem_complexd_sum_to_all),
       routine<T, LibComplexD>("shmem_complexd_prod_to_all", Op::Prod,
                               shmem_complexd_prod_to_all)});
}
TEST(ActiveSetReduce, ComplexFloat) {
  using T = std::complex<float>;
  run_reductions<T>(
      {routine<T, LibComplexF>("shmem_complexf_sum_to_all", Op::Sum, shmem_complexf_sum_to_all),
       routine<T, LibComplexF>("shmem_complexf_prod_to_all", Op::Prod,
                               shmem_complexf_prod_to_all)});
}
