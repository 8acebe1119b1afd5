// Fortran atomics, waits and locks: SHMEM_<T>_{SWAP,CSWAP,FADD,FINC,ADD,INC,FETCH,SET},
// SHMEM_SWAP, SHMEM_[<T>_]WAIT[_UNTIL] and SHMEM_{SET,TEST,CLEAR}_LOCK, onto the core's AMO,
// point-to-point and lock entry points. Operands come by reference; results are returned as a
// Fortran function of the element's type returns them.
#include "api/export.hpp"
#include "atomics/amo.hpp"
#include "atomics/lock.hpp"
#include "atomics/p2p_sync.hpp"
#include "fortran.hpp"
#include "fortran_tables.def"
#include "observe/observe.hpp"

using shoal::amo::fetching;
using shoal::amo::non_fetching;
using shoal::amo::Op;
using shoal::fortran::Fint;

namespace {
shoal::observe::Detail lock_detail(const long *lock) noexcept {
  shoal::observe::Detail d;
  d.addr = lock;
  return d;
}
}  // namespace
using shoal::observe::wait_detail;

// ---- every AMO type: SWAP, FETCH, SET
// ------------------------------------------------------------
#define SMA_F_AMO_COMMON(tn, TN, T)                                                            \
  SMA_F_API T pshmem_##tn##_swap_(T *target, const T *value, const Fint *pe) noexcept {        \
    SMA_OBSERVED(                                                                              \
        amo, "SHMEM_" #TN "_SWAP", sizeof(T), *pe,                                             \
        return fetching<T>(dflt(), Op::swap, target, *value, T{}, *pe, "SHMEM_" #TN "_SWAP")); \
  }                                                                                            \
  SMA_F_ALIAS(shmem_##tn##_swap_)                                                              \
  SMA_F_API T pshmem_##tn##_fetch_(const T *source, const Fint *pe) noexcept {                 \
    SMA_OBSERVED(                                                                              \
        amo, "SHMEM_" #TN "_FETCH", sizeof(T), *pe,                                            \
        return fetching<T>(dflt(), Op::fetch, source, T{}, T{}, *pe, "SHMEM_" #TN "_FETCH"));  \
  }                                                                                            \
  SMA_F_ALIAS(shmem_##tn##_fetch_)                                                             \
  SMA_F_API void pshmem_##tn##_set_(T *target, const T *value, const Fint *pe) noexcept {      \
    SMA_OBSERVED(amo, "SHMEM_" #TN "_SET", sizeof(T), *pe,                                     \
                 non_fetching<T>(dflt(), Op::set, target, *value, *pe, "SHMEM_" #TN "_SET"));  \
  }                                                                                            \
  SMA_F_ALIAS(shmem_##tn##_set_)

// ---- INTEGER AMO types: CSWAP, FADD, FINC, ADD, INC
// -----------------------------------------------
#define SMA_F_AMO_INT(tn, TN, T)                                                                  \
  SMA_F_AMO_COMMON(tn, TN, T)                                                                     \
  SMA_F_API T pshmem_##tn##_cswap_(T *target, const T *cond, const T *value,                      \
                                   const Fint *pe) noexcept {                                     \
    SMA_OBSERVED(amo, "SHMEM_" #TN "_CSWAP", sizeof(T), *pe,                                      \
                 return fetching<T>(dflt(), Op::compare_swap, target, *value, *cond, *pe,         \
                                    "SHMEM_" #TN "_CSWAP"));                                      \
  }                                                                                               \
  SMA_F_ALIAS(shmem_##tn##_cswap_)                                                                \
  SMA_F_API T pshmem_##tn##_fadd_(T *target, const T *value, const Fint *pe) noexcept {           \
    SMA_OBSERVED(amo, "SHMEM_" #TN "_FADD", sizeof(T), *pe,                                       \
                 return fetching<T>(dflt(), Op::fetch_add, target, *value, T{}, *pe,              \
                                    "SHMEM_" #TN "_FADD"));                                       \
  }                                                                                               \
  SMA_F_ALIAS(shmem_##tn##_fadd_)                                                                 \
  SMA_F_API T pshmem_##tn##_finc_(T *target, const Fint *pe) noexcept {                           \
    SMA_OBSERVED(                                                                                 \
        amo, "SHMEM_" #TN "_FINC", sizeof(T), *pe,                                                \
        return fetching<T>(dflt(), Op::fetch_add, target, T{1}, T{}, *pe, "SHMEM_" #TN "_FINC")); \
  }                                                                                               \
  SMA_F_ALIAS(shmem_##tn##_finc_)                                                                 \
  SMA_F_API void pshmem_##tn##_add_(T *target, const T *value, const Fint *pe) noexcept {         \
    SMA_OBSERVED(amo, "SHMEM_" #TN "_ADD", sizeof(T), *pe,                                        \
                 non_fetching<T>(dflt(), Op::add, target, *value, *pe, "SHMEM_" #TN "_ADD"));     \
  }                                                                                               \
  SMA_F_ALIAS(shmem_##tn##_add_)                                                                  \
  SMA_F_API void pshmem_##tn##_inc_(T *target, const Fint *pe) noexcept {                         \
    SMA_OBSERVED(amo, "SHMEM_" #TN "_INC", sizeof(T), *pe,                                        \
                 non_fetching<T>(dflt(), Op::add, target, T{1}, *pe, "SHMEM_" #TN "_INC"));       \
  }                                                                                               \
  SMA_F_ALIAS(shmem_##tn##_inc_)

SMA_F_AMO_INTEGER(SMA_F_AMO_INT)
SMA_F_AMO_REAL(SMA_F_AMO_COMMON)

// ---- SHMEM_SWAP: default INTEGER
// -----------------------------------------------------------------
SMA_F_API Fint pshmem_swap_(Fint *target, const Fint *value, const Fint *pe) noexcept {
  SMA_OBSERVED(amo, "SHMEM_SWAP", sizeof(Fint), *pe,
               return fetching<Fint>(dflt(), Op::swap, target, *value, Fint{}, *pe, "SHMEM_SWAP"));
}
SMA_F_ALIAS(shmem_swap_)

// ---- SHMEM_[<T>_]WAIT(ivar, cmp_value): until ivar /= cmp_value; WAIT_UNTIL(ivar, cmp, value) --
#define SMA_F_WAITS(pfx, PFX, T)                                                          \
  SMA_F_API void p##pfx##wait_(T *ivar, const T *cmp_value) noexcept {                    \
    SMA_OBSERVE_CALL(wait, #PFX "WAIT",                                                   \
                     [&] { return wait_detail<T>(ivar, 1, SHMEM_CMP_NE, cmp_value); });   \
    (void)shoal::p2p::wait_until<T>(ivar, SHMEM_CMP_NE, *cmp_value, #PFX "WAIT");         \
  }                                                                                       \
  SMA_F_ALIAS(pfx##wait_)                                                                 \
  SMA_F_API void p##pfx##wait_until_(T *ivar, const Fint *cmp, const T *value) noexcept { \
    SMA_OBSERVE_CALL(wait, #PFX "WAIT_UNTIL",                                             \
                     [&] { return wait_detail<T>(ivar, 1, *cmp, value); });               \
    (void)shoal::p2p::wait_until<T>(ivar, *cmp, *value, #PFX "WAIT_UNTIL");               \
  }                                                                                       \
  SMA_F_ALIAS(pfx##wait_until_)
SMA_F_WAIT(SMA_F_WAITS)

// ---- locks: an INTEGER*8 variable, as C's long
// ---------------------------------------------------
static_assert(sizeof(long) == 8, "a Fortran lock is INTEGER*8, C's long");
SMA_F_API void pshmem_set_lock_(long *lock) noexcept {
  SMA_OBSERVE_CALL(lock, "SHMEM_SET_LOCK", [&] { return lock_detail(lock); });
  shoal::lock::set(lock, "SHMEM_SET_LOCK");
}
SMA_F_ALIAS(shmem_set_lock_)
SMA_F_API Fint pshmem_test_lock_(long *lock) noexcept {
  SMA_OBSERVE_CALL(lock, "SHMEM_TEST_LOCK", [&] { return lock_detail(lock); });
  return shoal::lock::test(lock, "SHMEM_TEST_LOCK");
}
SMA_F_ALIAS(shmem_test_lock_)
SMA_F_API void pshmem_clear_lock_(long *lock) noexcept {
  SMA_OBSERVE_CALL(lock, "SHMEM_CLEAR_LOCK", [&] { return lock_detail(lock); });
  shoal::lock::clear(lock, "SHMEM_CLEAR_LOCK");
}
SMA_F_ALIAS(shmem_clear_lock_)
