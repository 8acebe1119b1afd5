// Atomic memory operation entry points (specification section "Atomic Memory Operations"),
// stamped out from the AMO type tables, each with its ctx twin, plus the deprecated names.
#include "api/export.hpp"
#include "observe/observe.hpp"
#include "atomics/amo.hpp"
#include "types/type_tables.def"

using shoal::amo::fetching;
using shoal::amo::fetching_nbi;
using shoal::amo::non_fetching;
using shoal::amo::Op;

// CTXP names a function-like macro giving the context parameter (with its comma) or nothing;
// it is expanded only where the parameter list is written, so it can pass through the nested
// family macros as a single argument.
#define SMA_CTX_PARAM() shmem_ctx_t ctx,
#define SMA_NO_PARAM()

// A fetching AMO with an operand: TYPE shmem_[ctx_]TN_atomic_NAME(TYPE *dest, TYPE value, int pe)
#define SMA_AMO_FETCH_VALUE(TN, T, NAME, OP, CTXN, CTXP, CTXA)                               \
  extern "C" T pshmem_##CTXN##TN##_atomic_##NAME(CTXP() T *dest, T value, int pe) noexcept { \
    SMA_OBSERVED(amo, "shmem_" #CTXN #TN "_atomic_" #NAME, sizeof(T), pe,                    \
                 return fetching<T>(CTXA, OP, dest, value, static_cast<T>(0), pe,            \
                                    "shmem_" #CTXN #TN "_atomic_" #NAME));                   \
  }                                                                                          \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_atomic_##NAME)
// A non-fetching AMO with an operand: void shmem_[ctx_]TN_atomic_NAME(TYPE *dest, TYPE value, int
// pe)
#define SMA_AMO_POST_VALUE(TN, T, NAME, OP, CTXN, CTXP, CTXA)                                      \
  extern "C" void pshmem_##CTXN##TN##_atomic_##NAME(CTXP() T *dest, T value, int pe) noexcept {    \
    SMA_OBSERVED(amo, "shmem_" #CTXN #TN "_atomic_" #NAME, sizeof(T), pe,                          \
                 non_fetching<T>(CTXA, OP, dest, value, pe, "shmem_" #CTXN #TN "_atomic_" #NAME)); \
  }                                                                                                \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_atomic_##NAME)
// The nonblocking twin of a fetching AMO with an operand.
#define SMA_AMO_FETCH_VALUE_NBI(TN, T, NAME, OP, CTXN, CTXP, CTXA)                           \
  extern "C" void pshmem_##CTXN##TN##_atomic_##NAME##_nbi(CTXP() T *fetch, T *dest, T value, \
                                                          int pe) noexcept {                 \
    SMA_OBSERVED(amo, "shmem_" #CTXN #TN "_atomic_" #NAME "_nbi", sizeof(T), pe,             \
                 fetching_nbi<T>(CTXA, OP, fetch, dest, value, static_cast<T>(0), pe,        \
                                 "shmem_" #CTXN #TN "_atomic_" #NAME "_nbi"));               \
  }                                                                                          \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_atomic_##NAME##_nbi)

// ---- standard AMO types: compare_swap, fetch_inc, inc, fetch_add, add ------------------------
#define SMA_AMO_STANDARD(TN, T, CTXN, CTXP, CTXA)                                               \
  extern "C" T pshmem_##CTXN##TN##_atomic_compare_swap(CTXP() T *dest, T cond, T value,         \
                                                       int pe) noexcept {                       \
    SMA_OBSERVED(amo, "shmem_" #CTXN #TN "_atomic_compare_swap", sizeof(T), pe,                 \
                 return fetching<T>(CTXA, Op::compare_swap, dest, value, cond, pe,              \
                                    "shmem_" #CTXN #TN "_atomic_compare_swap"));                \
  }                                                                                             \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_atomic_compare_swap)                                        \
  extern "C" void pshmem_##CTXN##TN##_atomic_compare_swap_nbi(CTXP() T *fetch, T *dest, T cond, \
                                                              T value, int pe) noexcept {       \
    SMA_OBSERVED(amo, "shmem_" #CTXN #TN "_atomic_compare_swap_nbi", sizeof(T), pe,             \
                 fetching_nbi<T>(CTXA, Op::compare_swap, fetch, dest, value, cond, pe,          \
                                 "shmem_" #CTXN #TN "_atomic_compare_swap_nbi"));               \
  }                                                                                             \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_atomic_compare_swap_nbi)                                    \
  extern "C" T pshmem_##CTXN##TN##_atomic_fetch_inc(CTXP() T *dest, int pe) noexcept {          \
    SMA_OBSERVED(                                                                               \
        amo, "shmem_" #CTXN #TN "_atomic_fetch_inc", sizeof(T), pe,                             \
        return fetching<T>(CTXA, Op::fetch_add, dest, static_cast<T>(1), static_cast<T>(0), pe, \
                           "shmem_" #CTXN #TN "_atomic_fetch_inc"));                            \
  }                                                                                             \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_atomic_fetch_inc)                                           \
  extern "C" void pshmem_##CTXN##TN##_atomic_fetch_inc_nbi(CTXP() T *fetch, T *dest,            \
                                                           int pe) noexcept {                   \
    SMA_OBSERVED(                                                                               \
        amo, "shmem_" #CTXN #TN "_atomic_fetch_inc_nbi", sizeof(T), pe,                         \
        fetching_nbi<T>(CTXA, Op::fetch_add, fetch, dest, static_cast<T>(1), static_cast<T>(0), \
                        pe, "shmem_" #CTXN #TN "_atomic_fetch_inc_nbi"));                       \
  }                                                                                             \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_atomic_fetch_inc_nbi)                                       \
  extern "C" void pshmem_##CTXN##TN##_atomic_inc(CTXP() T *dest, int pe) noexcept {             \
    SMA_OBSERVED(amo, "shmem_" #CTXN #TN "_atomic_inc", sizeof(T), pe,                          \
                 non_fetching<T>(CTXA, Op::add, dest, static_cast<T>(1), pe,                    \
                                 "shmem_" #CTXN #TN "_atomic_inc"));                            \
  }                                                                                             \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_atomic_inc)                                                 \
  SMA_AMO_FETCH_VALUE(TN, T, fetch_add, Op::fetch_add, CTXN, CTXP, CTXA)                        \
  SMA_AMO_FETCH_VALUE_NBI(TN, T, fetch_add, Op::fetch_add, CTXN, CTXP, CTXA)                    \
  SMA_AMO_POST_VALUE(TN, T, add, Op::add, CTXN, CTXP, CTXA)

// ---- extended AMO types (standard + float, double): fetch, set, swap --------------------------
#define SMA_AMO_EXTENDED(TN, T, CTXN, CTXP, CTXA)                                                  \
  extern "C" T pshmem_##CTXN##TN##_atomic_fetch(CTXP() const T *source, int pe) noexcept {         \
    SMA_OBSERVED(amo, "shmem_" #CTXN #TN "_atomic_fetch", sizeof(T), pe,                           \
                 return fetching<T>(CTXA, Op::fetch, source, static_cast<T>(0), static_cast<T>(0), \
                                    pe, "shmem_" #CTXN #TN "_atomic_fetch"));                      \
  }                                                                                                \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_atomic_fetch)                                                  \
  extern "C" void pshmem_##CTXN##TN##_atomic_fetch_nbi(CTXP() T *fetch, const T *source,           \
                                                       int pe) noexcept {                          \
    SMA_OBSERVED(                                                                                  \
        amo, "shmem_" #CTXN #TN "_atomic_fetch_nbi", sizeof(T), pe,                                \
        fetching_nbi<T>(CTXA, Op::fetch, fetch, const_cast<T *>(source), static_cast<T>(0),        \
                        static_cast<T>(0), pe, "shmem_" #CTXN #TN "_atomic_fetch_nbi"));           \
  }                                                                                                \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_atomic_fetch_nbi)                                              \
  SMA_AMO_POST_VALUE(TN, T, set, Op::set, CTXN, CTXP, CTXA)                                        \
  SMA_AMO_FETCH_VALUE(TN, T, swap, Op::swap, CTXN, CTXP, CTXA)                                     \
  SMA_AMO_FETCH_VALUE_NBI(TN, T, swap, Op::swap, CTXN, CTXP, CTXA)

// ---- bitwise AMO types: fetch_and, and, fetch_or, or, fetch_xor, xor --------------------------
#define SMA_AMO_BITWISE(TN, T, CTXN, CTXP, CTXA)                             \
  SMA_AMO_FETCH_VALUE(TN, T, fetch_and, Op::fetch_and, CTXN, CTXP, CTXA)     \
  SMA_AMO_FETCH_VALUE_NBI(TN, T, fetch_and, Op::fetch_and, CTXN, CTXP, CTXA) \
  SMA_AMO_POST_VALUE(TN, T, and, Op::bit_and, CTXN, CTXP, CTXA)              \
  SMA_AMO_FETCH_VALUE(TN, T, fetch_or, Op::fetch_or, CTXN, CTXP, CTXA)       \
  SMA_AMO_FETCH_VALUE_NBI(TN, T, fetch_or, Op::fetch_or, CTXN, CTXP, CTXA)   \
  SMA_AMO_POST_VALUE(TN, T, or, Op::bit_or, CTXN, CTXP, CTXA)                \
  SMA_AMO_FETCH_VALUE(TN, T, fetch_xor, Op::fetch_xor, CTXN, CTXP, CTXA)     \
  SMA_AMO_FETCH_VALUE_NBI(TN, T, fetch_xor, Op::fetch_xor, CTXN, CTXP, CTXA) \
  SMA_AMO_POST_VALUE(TN, T, xor, Op::bit_xor, CTXN, CTXP, CTXA)

#define SMA_STANDARD_PLAIN(TN, T) SMA_AMO_STANDARD(TN, T, , SMA_NO_PARAM, dflt())
#define SMA_STANDARD_CTX(TN, T) SMA_AMO_STANDARD(TN, T, ctx_, SMA_CTX_PARAM, ctx)
#define SMA_EXTENDED_PLAIN(TN, T) SMA_AMO_EXTENDED(TN, T, , SMA_NO_PARAM, dflt())
#define SMA_EXTENDED_CTX(TN, T) SMA_AMO_EXTENDED(TN, T, ctx_, SMA_CTX_PARAM, ctx)
#define SMA_BITWISE_PLAIN(TN, T) SMA_AMO_BITWISE(TN, T, , SMA_NO_PARAM, dflt())
#define SMA_BITWISE_CTX(TN, T) SMA_AMO_BITWISE(TN, T, ctx_, SMA_CTX_PARAM, ctx)

SMA_AMO_STANDARD_TYPES(SMA_STANDARD_PLAIN)
SMA_AMO_STANDARD_TYPES(SMA_STANDARD_CTX)
SMA_AMO_STANDARD_TYPES(SMA_EXTENDED_PLAIN)
SMA_AMO_STANDARD_TYPES(SMA_EXTENDED_CTX)
SMA_AMO_EXTENDED_ONLY_TYPES(SMA_EXTENDED_PLAIN)
SMA_AMO_EXTENDED_ONLY_TYPES(SMA_EXTENDED_CTX)
SMA_AMO_BITWISE_TYPES(SMA_BITWISE_PLAIN)
SMA_AMO_BITWISE_TYPES(SMA_BITWISE_CTX)

// ---- deprecated names (OpenSHMEM 1.0-1.3): shmem_TN_{fetch,set,swap,cswap,finc,inc,fadd,add} -
#define SMA_AMO_DEPRECATED_EXTENDED(TN, T)                               \
  extern "C" T pshmem_##TN##_fetch(const T *source, int pe) noexcept {   \
    return pshmem_##TN##_atomic_fetch(source, pe);                       \
  }                                                                      \
  SMA_WEAK_ALIAS(shmem_##TN##_fetch)                                     \
  extern "C" void pshmem_##TN##_set(T *dest, T value, int pe) noexcept { \
    pshmem_##TN##_atomic_set(dest, value, pe);                           \
  }                                                                      \
  SMA_WEAK_ALIAS(shmem_##TN##_set)                                       \
  extern "C" T pshmem_##TN##_swap(T *dest, T value, int pe) noexcept {   \
    return pshmem_##TN##_atomic_swap(dest, value, pe);                   \
  }                                                                      \
  SMA_WEAK_ALIAS(shmem_##TN##_swap)
#define SMA_AMO_DEPRECATED(TN, T)                                               \
  SMA_AMO_DEPRECATED_EXTENDED(TN, T)                                            \
  extern "C" T pshmem_##TN##_cswap(T *dest, T cond, T value, int pe) noexcept { \
    return pshmem_##TN##_atomic_compare_swap(dest, cond, value, pe);            \
  }                                                                             \
  SMA_WEAK_ALIAS(shmem_##TN##_cswap)                                            \
  extern "C" T pshmem_##TN##_finc(T *dest, int pe) noexcept {                   \
    return pshmem_##TN##_atomic_fetch_inc(dest, pe);                            \
  }                                                                             \
  SMA_WEAK_ALIAS(shmem_##TN##_finc)                                             \
  extern "C" void pshmem_##TN##_inc(T *dest, int pe) noexcept {                 \
    pshmem_##TN##_atomic_inc(dest, pe);                                         \
  }                                                                             \
  SMA_WEAK_ALIAS(shmem_##TN##_inc)                                              \
  extern "C" T pshmem_##TN##_fadd(T *dest, T value, int pe) noexcept {          \
    return pshmem_##TN##_atomic_fetch_add(dest, value, pe);                     \
  }                                                                             \
  SMA_WEAK_ALIAS(shmem_##TN##_fadd)                                             \
  extern "C" void pshmem_##TN##_add(T *dest, T value, int pe) noexcept {        \
    pshmem_##TN##_atomic_add(dest, value, pe);                                  \
  }                                                                             \
  SMA_WEAK_ALIAS(shmem_##TN##_add)

SMA_AMO_DEPRECATED_TYPES(SMA_AMO_DEPRECATED)
SMA_AMO_DEPRECATED_EXTENDED_ONLY_TYPES(SMA_AMO_DEPRECATED_EXTENDED)

// The 1.0-1.2 untyped swap on longs.
extern "C" long pshmem_swap(long *dest, long value, int pe) noexcept {
  return pshmem_long_atomic_swap(dest, value, pe);
}
SMA_WEAK_ALIAS(shmem_swap)
