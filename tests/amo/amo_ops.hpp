// Adapters that give every AMO routine of the API one uniform, mode-templated interface,
// generated from the AMO type tables (core/types/type_tables.def), so that each scenario in
// amo_scenarios.hpp is written once and runs against every routine and type:
//
//   Ops_<TYPENAME>      every type of SMA_AMO_STANDARD_TYPES and SMA_AMO_EXTENDED_ONLY_TYPES:
//                       fetch, set, swap (extended AMOs); for the standard types also
//                       compare_swap, fetch_inc, inc, fetch_add, add
//   BitOps_<TYPENAME>   SMA_AMO_BITWISE_TYPES: Ops_<TYPENAME> plus fetch_and, and, fetch_or,
//                       or, fetch_xor, xor (members bit_and / bit_or / bit_xor: `and`, `or`
//                       and `xor` are C++ keywords)
//   DepOps_<TYPENAME>   SMA_AMO_DEPRECATED_TYPES and SMA_AMO_DEPRECATED_EXTENDED_ONLY_TYPES:
//                       the pre-1.4 names shmem_<TYPENAME>_{fetch,set,swap,cswap,finc,inc,
//                       fadd,add} behind the same member names (Mode::plain only)
//
// Each operation is a member template on Mode:
//   plain    shmem_<TN>_atomic_<op>
//   ctx      shmem_ctx_<TN>_atomic_<op>(SHMEM_CTX_DEFAULT, ...)
//   nbi      fetching ops: shmem_<TN>_atomic_<op>_nbi into a poisoned local, then shmem_quiet;
//            non-fetching ops (which have no nbi form): the plain routine
//   ctx_nbi  the same with shmem_ctx_* routines and shmem_ctx_quiet(SHMEM_CTX_DEFAULT)
// Fetching ops with an nbi form also expose <op>_nbi<Ctx>(fetch, ...) for tests that keep
// several operations outstanding before one quiet.
#pragma once

#include "mpp_test.hpp"
#include "type_lists.hpp"
#include "type_tables.def"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>

namespace shoal::test::amo {

enum class Mode { plain, ctx, nbi, ctx_nbi };
constexpr bool is_ctx(Mode m) { return m == Mode::ctx || m == Mode::ctx_nbi; }
constexpr bool is_nbi(Mode m) { return m == Mode::nbi || m == Mode::ctx_nbi; }
inline const char* mode_name(Mode m) {
  switch (m) {
    case Mode::plain:
      return "plain";
    case Mode::ctx:
      return "ctx";
    case Mode::nbi:
      return "nbi";
    case Mode::ctx_nbi:
      return "ctx_nbi";
  }
  return "?";
}

// Completes the outstanding operations of the context a mode issues on.
template <Mode M>
void quiet() {
  if constexpr (is_ctx(M)) {
    shmem_ctx_quiet(SHMEM_CTX_DEFAULT);
  } else {
    shmem_quiet();
  }
}

// What an nbi fetch buffer holds before the library writes it: a byte pattern no scenario
// expects, so an nbi fetch that never delivers its value is caught.
template <class T>
T poison() {
  T v;
  std::memset(&v, 0xA5, sizeof v);
  return v;
}

#define SHOAL_AMO_ID(...) __VA_ARGS__

// A fetching AMO with an nbi twin. PARAMS / ARGS are parenthesised lists.
#define SHOAL_AMO_FETCHING(TN, T, NAME, PARAMS, ARGS)                                        \
  template <Mode M>                                                                          \
  static T NAME(SHOAL_AMO_ID PARAMS) {                                                       \
    if constexpr (M == Mode::plain) {                                                        \
      return shmem_##TN##_atomic_##NAME(SHOAL_AMO_ID ARGS);                                  \
    } else if constexpr (M == Mode::ctx) {                                                   \
      return shmem_ctx_##TN##_atomic_##NAME(SHMEM_CTX_DEFAULT, SHOAL_AMO_ID ARGS);           \
    } else if constexpr (M == Mode::nbi) {                                                   \
      T fetched_ = poison<T>();                                                              \
      shmem_##TN##_atomic_##NAME##_nbi(&fetched_, SHOAL_AMO_ID ARGS);                        \
      shmem_quiet();                                                                         \
      return fetched_;                                                                       \
    } else {                                                                                 \
      T fetched_ = poison<T>();                                                              \
      shmem_ctx_##TN##_atomic_##NAME##_nbi(SHMEM_CTX_DEFAULT, &fetched_, SHOAL_AMO_ID ARGS); \
      shmem_ctx_quiet(SHMEM_CTX_DEFAULT);                                                    \
      return fetched_;                                                                       \
    }                                                                                        \
  }                                                                                          \
  template <bool Ctx>                                                                        \
  static void NAME##_nbi(T* fetch, SHOAL_AMO_ID PARAMS) {                                    \
    if constexpr (Ctx) {                                                                     \
      shmem_ctx_##TN##_atomic_##NAME##_nbi(SHMEM_CTX_DEFAULT, fetch, SHOAL_AMO_ID ARGS);     \
    } else {                                                                                 \
      shmem_##TN##_atomic_##NAME##_nbi(fetch, SHOAL_AMO_ID ARGS);                            \
    }                                                                                        \
  }

// A non-fetching AMO (no nbi form). MEMBER is the C++ name, API the routine's.
#define SHOAL_AMO_POSTED(TN, MEMBER, API, PARAMS, ARGS)                    \
  template <Mode M>                                                        \
  static void MEMBER(SHOAL_AMO_ID PARAMS) {                                \
    if constexpr (is_ctx(M)) {                                             \
      shmem_ctx_##TN##_atomic_##API(SHMEM_CTX_DEFAULT, SHOAL_AMO_ID ARGS); \
    } else {                                                               \
      shmem_##TN##_atomic_##API(SHOAL_AMO_ID ARGS);                        \
    }                                                                      \
  }

#define SHOAL_AMO_EXTENDED_MEMBERS(TN, T)                                        \
  SHOAL_AMO_FETCHING(TN, T, fetch, (const T* source, int pe), (source, pe))      \
  SHOAL_AMO_POSTED(TN, set, set, (T * dest, T value, int pe), (dest, value, pe)) \
  SHOAL_AMO_FETCHING(TN, T, swap, (T * dest, T value, int pe), (dest, value, pe))

#define SHOAL_AMO_STANDARD_MEMBERS(TN, T)                                              \
  SHOAL_AMO_FETCHING(TN, T, compare_swap, (T * dest, T cond, T value, int pe),         \
                     (dest, cond, value, pe))                                          \
  SHOAL_AMO_FETCHING(TN, T, fetch_inc, (T * dest, int pe), (dest, pe))                 \
  SHOAL_AMO_POSTED(TN, inc, inc, (T * dest, int pe), (dest, pe))                       \
  SHOAL_AMO_FETCHING(TN, T, fetch_add, (T * dest, T value, int pe), (dest, value, pe)) \
  SHOAL_AMO_POSTED(TN, add, add, (T * dest, T value, int pe), (dest, value, pe))

#define SHOAL_AMO_BITWISE_MEMBERS(TN, T)                                               \
  SHOAL_AMO_FETCHING(TN, T, fetch_and, (T * dest, T value, int pe), (dest, value, pe)) \
  SHOAL_AMO_POSTED(TN, bit_and, and, (T * dest, T value, int pe), (dest, value, pe))   \
  SHOAL_AMO_FETCHING(TN, T, fetch_or, (T * dest, T value, int pe), (dest, value, pe))  \
  SHOAL_AMO_POSTED(TN, bit_or, or, (T * dest, T value, int pe), (dest, value, pe))     \
  SHOAL_AMO_FETCHING(TN, T, fetch_xor, (T * dest, T value, int pe), (dest, value, pe)) \
  SHOAL_AMO_POSTED(TN, bit_xor, xor, (T * dest, T value, int pe), (dest, value, pe))

#define SHOAL_AMO_STANDARD_OPS(TN, T)        \
  struct Ops_##TN {                          \
    using type = T;                          \
    static constexpr const char* name = #TN; \
    static constexpr bool standard = true;   \
    SHOAL_AMO_EXTENDED_MEMBERS(TN, T)        \
    SHOAL_AMO_STANDARD_MEMBERS(TN, T)        \
  };
#define SHOAL_AMO_EXTENDED_ONLY_OPS(TN, T)   \
  struct Ops_##TN {                          \
    using type = T;                          \
    static constexpr const char* name = #TN; \
    static constexpr bool standard = false;  \
    SHOAL_AMO_EXTENDED_MEMBERS(TN, T)        \
  };
#define SHOAL_AMO_BITWISE_OPS(TN, T) \
  struct BitOps_##TN : Ops_##TN {    \
    SHOAL_AMO_BITWISE_MEMBERS(TN, T) \
  };
SMA_AMO_STANDARD_TYPES(SHOAL_AMO_STANDARD_OPS)
SMA_AMO_EXTENDED_ONLY_TYPES(SHOAL_AMO_EXTENDED_ONLY_OPS)
SMA_AMO_BITWISE_TYPES(SHOAL_AMO_BITWISE_OPS)
#undef SHOAL_AMO_STANDARD_OPS
#undef SHOAL_AMO_EXTENDED_ONLY_OPS
#undef SHOAL_AMO_BITWISE_OPS

// ---- deprecated names (blocking, default context only) --------------------------------------
#define SHOAL_AMO_DEP_FN(RET, MEMBER, API, PARAMS, ARGS)                                 \
  template <Mode M>                                                                      \
  static RET MEMBER(SHOAL_AMO_ID PARAMS) {                                               \
    static_assert(M == Mode::plain, "the deprecated AMO names have no ctx or nbi form"); \
    return API(SHOAL_AMO_ID ARGS);                                                       \
  }
#define SHOAL_AMO_DEP_EXTENDED_MEMBERS(TN, T)                                                   \
  SHOAL_AMO_DEP_FN(T, fetch, shmem_##TN##_fetch, (const T* source, int pe), (source, pe))       \
  SHOAL_AMO_DEP_FN(void, set, shmem_##TN##_set, (T * dest, T value, int pe), (dest, value, pe)) \
  SHOAL_AMO_DEP_FN(T, swap, shmem_##TN##_swap, (T * dest, T value, int pe), (dest, value, pe))
#define SHOAL_AMO_DEP_STANDARD_MEMBERS(TN, T)                                                \
  SHOAL_AMO_DEP_FN(T, compare_swap, shmem_##TN##_cswap, (T * dest, T cond, T value, int pe), \
                   (dest, cond, value, pe))                                                  \
  SHOAL_AMO_DEP_FN(T, fetch_inc, shmem_##TN##_finc, (T * dest, int pe), (dest, pe))          \
  SHOAL_AMO_DEP_FN(void, inc, shmem_##TN##_inc, (T * dest, int pe), (dest, pe))              \
  SHOAL_AMO_DEP_FN(T, fetch_add, shmem_##TN##_fadd, (T * dest, T value, int pe),             \
                   (dest, value, pe))                                                        \
  SHOAL_AMO_DEP_FN(void, add, shmem_##TN##_add, (T * dest, T value, int pe), (dest, value, pe))
#define SHOAL_AMO_DEP_STANDARD_OPS(TN, T)                  \
  struct DepOps_##TN {                                     \
    using type = T;                                        \
    static constexpr const char* name = "deprecated_" #TN; \
    static constexpr bool standard = true;                 \
    SHOAL_AMO_DEP_EXTENDED_MEMBERS(TN, T)                  \
    SHOAL_AMO_DEP_STANDARD_MEMBERS(TN, T)                  \
  };
#define SHOAL_AMO_DEP_EXTENDED_ONLY_OPS(TN, T)             \
  struct DepOps_##TN {                                     \
    using type = T;                                        \
    static constexpr const char* name = "deprecated_" #TN; \
    static constexpr bool standard = false;                \
    SHOAL_AMO_DEP_EXTENDED_MEMBERS(TN, T)                  \
  };
SMA_AMO_DEPRECATED_TYPES(SHOAL_AMO_DEP_STANDARD_OPS)
SMA_AMO_DEPRECATED_EXTENDED_ONLY_TYPES(SHOAL_AMO_DEP_EXTENDED_ONLY_OPS)
#undef SHOAL_AMO_DEP_STANDARD_OPS
#undef SHOAL_AMO_DEP_EXTENDED_ONLY_OPS

// ---- gtest type lists (the rows this build tests, type_lists.hpp) -------------------------
#define SHOAL_AMO_OPS_ELEM(TN, T) std::tuple<Ops_##TN>{},
#define SHOAL_AMO_BITOPS_ELEM(TN, T) std::tuple<BitOps_##TN>{},
#define SHOAL_AMO_DEPOPS_ELEM(TN, T) std::tuple<DepOps_##TN>{},
using StandardOps = TestedTypes<decltype(std::tuple_cat(SMA_AMO_STANDARD_TYPES(SHOAL_AMO_OPS_ELEM)
                                                            std::tuple<>{}))>;
using ExtendedOps = TestedTypes<decltype(std::tuple_cat(SMA_AMO_STANDARD_TYPES(
    SHOAL_AMO_OPS_ELEM) SMA_AMO_EXTENDED_ONLY_TYPES(SHOAL_AMO_OPS_ELEM) std::tuple<>{}))>;
using BitwiseOps = TestedTypes<decltype(std::tuple_cat(SMA_AMO_BITWISE_TYPES(SHOAL_AMO_BITOPS_ELEM)
                                                           std::tuple<>{}))>;
using DeprecatedStandardOps = TestedTypes<decltype(std::tuple_cat(
    SMA_AMO_DEPRECATED_TYPES(SHOAL_AMO_DEPOPS_ELEM) std::tuple<>{}))>;
using DeprecatedExtendedOps = TestedTypes<decltype(std::tuple_cat(
    SMA_AMO_DEPRECATED_TYPES(SHOAL_AMO_DEPOPS_ELEM)
        SMA_AMO_DEPRECATED_EXTENDED_ONLY_TYPES(SHOAL_AMO_DEPOPS_ELEM) std::tuple<>{}))>;
#undef SHOAL_AMO_OPS_ELEM
#undef SHOAL_AMO_BITOPS_ELEM
#undef SHOAL_AMO_DEPOPS_ELEM

struct OpsName {
  template <class Ops>
  static std::string GetName(int) {
    return Ops::name;
  }
};

}  // namespace shoal::test::amo
