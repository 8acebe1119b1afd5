// Adapters that put every typed team collective of the API behind one interface per type,
// generated from the type tables (core/types/type_tables.def), so a test is written once as a
// template and run for every TYPENAME:
//
//   Rma_<TYPENAME>   SMA_RMA_TYPES, plus Rma_mem (the *mem forms, bytes): broadcast, collect,
//                    fcollect, alltoall, alltoalls
//   Bit_<TYPENAME>   SMA_REDUCE_BITWISE_TYPES: reduce(Op::and_/or_/xor_, ...)
//   Cmp_<TYPENAME>   SMA_REDUCE_COMPARE_TYPES: reduce(min/max/sum/prod, ...), inscan, exscan
//                    (the arithmetic table is the comparison table plus the complex types)
//   Cx_<TYPENAME>    SMA_REDUCE_ARITH_COMPLEX_TYPES: reduce(sum/prod, ...), inscan, exscan
//
// RmaRows, BitRows, CmpRows and CxRows list each table's adapters. A test runs a template for
// every row this build tests (type_lists.hpp) with the table macro itself, e.g.
//   #define RUN(TN, T) if constexpr (kTested<Rma_##TN, RmaRows>) run<Rma_##TN>();
//   SMA_RMA_TYPES(RUN) run<Rma_mem>();
#pragma once

#include "coll_test_util.hpp"
#include "type_lists.hpp"
#include "type_tables.def"

#include <tuple>

namespace shoal::test::coll {

enum class Op { and_, or_, xor_, min, max, sum, prod };

inline const char* op_name(Op op) {
  switch (op) {
    case Op::and_:
      return "and";
    case Op::or_:
      return "or";
    case Op::xor_:
      return "xor";
    case Op::min:
      return "min";
    case Op::max:
      return "max";
    case Op::sum:
      return "sum";
    case Op::prod:
      return "prod";
  }
  return "?";
}

inline constexpr Op kBitOps[] = {Op::and_, Op::or_, Op::xor_};
inline constexpr Op kCmpOps[] = {Op::min, Op::max};
inline constexpr Op kArithOps[] = {Op::sum, Op::prod};

// Returned for an (op, type) pair the table does not have; never reached by the tests.
inline constexpr int kNoSuchRoutine = -12345;

#define SHOAL_COLL_RMA_ADAPTER(TN, T)                                                       \
  struct Rma_##TN {                                                                         \
    using type = T;                                                                         \
    static constexpr const char* name = #TN;                                                \
    static int broadcast(shmem_team_t t, type* d, const type* s, std::size_t n, int root) { \
      return shmem_##TN##_broadcast(t, d, s, n, root);                                      \
    }                                                                                       \
    static int collect(shmem_team_t t, type* d, const type* s, std::size_t n) {             \
      return shmem_##TN##_collect(t, d, s, n);                                              \
    }                                                                                       \
    static int fcollect(shmem_team_t t, type* d, const type* s, std::size_t n) {            \
      return shmem_##TN##_fcollect(t, d, s, n);                                             \
    }                                                                                       \
    static int alltoall(shmem_team_t t, type* d, const type* s, std::size_t n) {            \
      return shmem_##TN##_alltoall(t, d, s, n);                                             \
    }                                                                                       \
    static int alltoalls(shmem_team_t t, type* d, const type* s, std::ptrdiff_t dst,        \
                         std::ptrdiff_t sst, std::size_t n) {                               \
      return shmem_##TN##_alltoalls(t, d, s, dst, sst, n);                                  \
    }                                                                                       \
  };
SMA_RMA_TYPES(SHOAL_COLL_RMA_ADAPTER)
#undef SHOAL_COLL_RMA_ADAPTER
#define SHOAL_COLL_ROW(TN, T) std::tuple<Rma_##TN>{},
using RmaRows = decltype(std::tuple_cat(SMA_RMA_TYPES(SHOAL_COLL_ROW) std::tuple<>{}));
#undef SHOAL_COLL_ROW

struct Rma_mem {
  using type = unsigned char;
  static constexpr const char* name = "mem";
  static int broadcast(shmem_team_t t, type* d, const type* s, std::size_t n, int root) {
    return shmem_broadcastmem(t, d, s, n, root);
  }
  static int collect(shmem_team_t t, type* d, const type* s, std::size_t n) {
    return shmem_collectmem(t, d, s, n);
  }
  static int fcollect(shmem_team_t t, type* d, const type* s, std::size_t n) {
    return shmem_fcollectmem(t, d, s, n);
  }
  static int alltoall(shmem_team_t t, type* d, const type* s, std::size_t n) {
    return shmem_alltoallmem(t, d, s, n);
  }
  static int alltoalls(shmem_team_t t, type* d, const type* s, std::ptrdiff_t dst,
                       std::ptrdiff_t sst, std::size_t n) {
    return shmem_alltoallsmem(t, d, s, dst, sst, n);
  }
};

#define SHOAL_COLL_BIT_ADAPTER(TN, T)                                                 \
  struct Bit_##TN {                                                                   \
    using type = T;                                                                   \
    static constexpr const char* name = #TN;                                          \
    static int reduce(Op op, shmem_team_t t, type* d, const type* s, std::size_t n) { \
      switch (op) {                                                                   \
        case Op::and_:                                                                \
          return shmem_##TN##_and_reduce(t, d, s, n);                                 \
        case Op::or_:                                                                 \
          return shmem_##TN##_or_reduce(t, d, s, n);                                  \
        case Op::xor_:                                                                \
          return shmem_##TN##_xor_reduce(t, d, s, n);                                 \
        default:                                                                      \
          return kNoSuchRoutine;                                                      \
      }                                                                               \
    }                                                                                 \
  };
SMA_REDUCE_BITWISE_TYPES(SHOAL_COLL_BIT_ADAPTER)
#undef SHOAL_COLL_BIT_ADAPTER
#define SHOAL_COLL_ROW(TN, T) std::tuple<Bit_##TN>{},
using BitRows = decltype(std::tuple_cat(SMA_REDUCE_BITWISE_TYPES(SHOAL_COLL_ROW) std::tuple<>{}));
#undef SHOAL_COLL_ROW

#define SHOAL_COLL_SCAN_MEMBERS(TN)                                          \
  static int inscan(shmem_team_t t, type* d, const type* s, std::size_t n) { \
    return shmem_##TN##_sum_inscan(t, d, s, n);                              \
  }                                                                          \
  static int exscan(shmem_team_t t, type* d, const type* s, std::size_t n) { \
    return shmem_##TN##_sum_exscan(t, d, s, n);                              \
  }

#define SHOAL_COLL_CMP_ADAPTER(TN, T)                                                 \
  struct Cmp_##TN {                                                                   \
    using type = T;                                                                   \
    static constexpr const char* name = #TN;                                          \
    static int reduce(Op op, shmem_team_t t, type* d, const type* s, std::size_t n) { \
      switch (op) {                                                                   \
        case Op::min:                                                                 \
          return shmem_##TN##_min_reduce(t, d, s, n);                                 \
        case Op::max:                                                                 \
          return shmem_##TN##_max_reduce(t, d, s, n);                                 \
        case Op::sum:                                                                 \
          return shmem_##TN##_sum_reduce(t, d, s, n);                                 \
        case Op::prod:                                                                \
          return shmem_##TN##_prod_reduce(t, d, s, n);                                \
        default:                                                                      \
          return kNoSuchRoutine;                                                      \
      }                                                                               \
    }                                                                                 \
    SHOAL_COLL_SCAN_MEMBERS(TN)                                                       \
  };
SMA_REDUCE_COMPARE_TYPES(SHOAL_COLL_CMP_ADAPTER)
#undef SHOAL_COLL_CMP_ADAPTER
#define SHOAL_COLL_ROW(TN, T) std::tuple<Cmp_##TN>{},
using CmpRows = decltype(std::tuple_cat(SMA_REDUCE_COMPARE_TYPES(SHOAL_COLL_ROW) std::tuple<>{}));
#undef SHOAL_COLL_ROW

#define SHOAL_COLL_CX_ADAPTER(TN, T)                                                  \
  struct Cx_##TN {                                                                    \
    using type = T;                                                                   \
    static constexpr const char* name = #TN;                                          \
    static int reduce(Op op, shmem_team_t t, type* d, const type* s, std::size_t n) { \
      switch (op) {                                                                   \
        case Op::sum:                                                                 \
          return shmem_##TN##_sum_reduce(t, d, s, n);                                 \
        case Op::prod:                                                                \
          return shmem_##TN##_prod_reduce(t, d, s, n);                                \
        default:                                                                      \
          return kNoSuchRoutine;                                                      \
      }                                                                               \
    }                                                                                 \
    SHOAL_COLL_SCAN_MEMBERS(TN)                                                       \
  };
SMA_REDUCE_ARITH_COMPLEX_TYPES(SHOAL_COLL_CX_ADAPTER)
#undef SHOAL_COLL_CX_ADAPTER
#define SHOAL_COLL_ROW(TN, T) std::tuple<Cx_##TN>{},
using CxRows =
    decltype(std::tuple_cat(SMA_REDUCE_ARITH_COMPLEX_TYPES(SHOAL_COLL_ROW) std::tuple<>{}));
#undef SHOAL_COLL_ROW
#undef SHOAL_COLL_SCAN_MEMBERS

// ---- reduction inputs and the serial reference -----------------------------------------------
//
// Inputs are chosen so that every result is exact whatever order the library combines in:
//   sum   unsigned: any value (wraps modulo 2^N); signed: |v| <= max/16 (8 PEs cannot overflow);
//         floating and complex parts: multiples of 0.5 below 1000 in magnitude;
//   prod  unsigned: odd values (wraps modulo 2^N, never 0); signed: +-1, +-2 or +-3 where at
//         most two of any 8 distinct world PEs give 2 and two give 3 (|product| <= 36 fits in
//         signed char); floating: +-1, +-2, +-0.5 (powers of two); complex: 1, -1, i, -i, 1+i,
//         1-i (Gaussian integers of magnitude <= 2^4 over 8 PEs);
//   min, max, and, or, xor: any value (and: dense bit patterns, or: sparse ones, so the
//         results are neither all zeros nor all ones).
// Programs run on at most 8 PEs (the signed prod bound relies on it).

template <class T>
T reduce_input(Op op, int pe, std::size_t i, unsigned salt) {
  const std::uint64_t h = hash3(pe, i, salt * 8u + static_cast<unsigned>(op));
  if constexpr (is_complex_v<T>) {
    if (op == Op::sum) {
      return make_complex<T>((static_cast<double>(h % 4001u) - 2000.0) * 0.5,
                             (static_cast<double>((h >> 20) % 4001u) - 2000.0) * 0.5);
    }
    static const double units[6][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}};
    const auto& u = units[h % 6u];
    return make_complex<T>(u[0], u[1]);
  } else if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case Op::sum:
        return static_cast<T>((static_cast<double>(h % 4001u) - 2000.0) * 0.5);
      case Op::prod: {
        static const double f[6] = {1.0, -1.0, 2.0, -2.0, 0.5, -0.5};
        return static_cast<T>(f[h % 6u]);
      }
      default:
        return static_cast<T>((static_cast<double>(h % 2000001u) - 1000000.0) * 0.25);
    }
  } else {
    static_assert(std::is_integral_v<T>);
    switch (op) {
      case Op::and_:
        return static_cast<T>(h | mix64(h) | mix64(h + 1));
      case Op::or_:
        return static_cast<T>(h & mix64(h) & mix64(h + 1));
      case Op::sum:
        if constexpr (std::is_unsigned_v<T>) {
          return static_cast<T>(h);
        } else {
          const auto range = static_cast<std::uint64_t>(std::numeric_limits<T>::max() / 16);
          return static_cast<T>(static_cast<std::int64_t>(h % (2 * range + 1)) -
                                static_cast<std::int64_t>(range));
        }
      case Op::prod:
        if constexpr (std::is_unsigned_v<T>) {
          return static_cast<T>(h | 1u);
        } else {
          const std::size_t k = (static_cast<std::size_t>(pe) + i) % 4;
          const int mag = k == 0 ? 2 : (k == 2 ? 3 : 1);
          return static_cast<T>((h >> 7) & 1u ? -mag : mag);
        }
      default:
        return static_cast<T>(h);
    }
  }
}

// a OP b, computed so that wrapping is well defined (unsigned arithmetic, wide intermediates).
template <class T>
T combine(Op op, T a, T b) {
  if constexpr (is_complex_v<T>) {
    return op == Op::prod ? a * b : a + b;
  } else if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case Op::min:
        return b < a ? b : a;
      case Op::max:
        return a < b ? b : a;
      case Op::prod:
        return a * b;
      default:
        return a + b;
    }
  } else {
    using W = std::conditional_t<std::is_unsigned_v<T>, std::uint64_t, std::int64_t>;
    switch (op) {
      case Op::and_:
        return static_cast<T>(a & b);
      case Op::or_:
        return static_cast<T>(a | b);
      case Op::xor_:
        return static_cast<T>(a ^ b);
      case Op::min:
        return b < a ? b : a;
      case Op::max:
        return a < b ? b : a;
      case Op::sum:
        return static_cast<T>(static_cast<std::uint64_t>(static_cast<W>(a)) +
                              static_cast<std::uint64_t>(static_cast<W>(b)));
      case Op::prod:
        return static_cast<T>(static_cast<std::uint64_t>(static_cast<W>(a)) *
                              static_cast<std::uint64_t>(static_cast<W>(b)));
    }
    return a;
  }
}

template <class T>
T zero_value() {
  if constexpr (is_complex_v<T>) {
    return make_complex<T>(0.0, 0.0);
  } else {
    return T{};
  }
}

}  // namespace shoal::test::coll
