// Point-to-point synchronization entry points (specification section "Point-To-Point
// Synchronization Routines"): wait_until and test on one variable, their _all/_any/_some and
// _vector forms on arrays, stamped out from the type tables; shmem_signal_wait_until; and the
// deprecated waits.
#include "api/export.hpp"
#include "observe/observe.hpp"
#include "atomics/p2p_sync.hpp"
#include "types/type_tables.def"

namespace p2p = shoal::p2p;
using shoal::observe::wait_detail;

static_assert(SHMEM_CMP_EQ == static_cast<int>(p2p::Cmp::eq) &&
                  SHMEM_CMP_NE == static_cast<int>(p2p::Cmp::ne) &&
                  SHMEM_CMP_GT == static_cast<int>(p2p::Cmp::gt) &&
                  SHMEM_CMP_LE == static_cast<int>(p2p::Cmp::le) &&
                  SHMEM_CMP_LT == static_cast<int>(p2p::Cmp::lt) &&
                  SHMEM_CMP_GE == static_cast<int>(p2p::Cmp::ge),
              "the p2p layer and shmem.h disagree on the comparison operators");

// ---- one variable: shmem_TYPENAME_{wait_until,test} (short/ushort deprecated since 1.5) -----
#define SMA_P2P_SCALAR(TN, T)                                                        \
  extern "C" void pshmem_##TN##_wait_until(T *ivar, int cmp, T cmp_value) noexcept { \
    SMA_OBSERVE_CALL(wait, "shmem_" #TN "_wait_until",                               \
                     [&] { return wait_detail<T>(ivar, 1, cmp, &cmp_value); });      \
    (void)p2p::wait_until<T>(ivar, cmp, cmp_value, "shmem_" #TN "_wait_until");      \
  }                                                                                  \
  SMA_WEAK_ALIAS(shmem_##TN##_wait_until)                                            \
  extern "C" int pshmem_##TN##_test(T *ivar, int cmp, T cmp_value) noexcept {        \
    SMA_OBSERVE_CALL(test, "shmem_" #TN "_test", 0, -1);                             \
    return p2p::test<T>(ivar, cmp, cmp_value, "shmem_" #TN "_test");                 \
  }                                                                                  \
  SMA_WEAK_ALIAS(shmem_##TN##_test)

SMA_SYNC_TYPES(SMA_P2P_SCALAR)
SMA_SYNC_DEPRECATED_TYPES(SMA_P2P_SCALAR)

// ---- arrays: shmem_TYPENAME_{wait_until,test}_{all,any,some}[_vector] -----------------------
// One macro per routine shape, stamped for the scalar comparison value (VSUFFIX empty, VPARAM
// `T cmp_value`, stride 0) and for the _vector forms (one comparison value per element).
#define SMA_P2P_ARRAY(TN, T, VSUFFIX, VPARAM, VPTR, STRIDE)                                        \
  extern "C" void pshmem_##TN##_wait_until_all##VSUFFIX(                                           \
      T *ivars, size_t nelems, const int *status, int cmp, VPARAM) noexcept {                      \
    SMA_OBSERVE_CALL(wait, "shmem_" #TN "_wait_until_all" #VSUFFIX,                                \
                     [&] { return wait_detail<T>(ivars, nelems, cmp, nelems ? VPTR : nullptr); }); \
    p2p::wait_until_all<T>(ivars, nelems, status, cmp, VPTR, STRIDE,                               \
                           "shmem_" #TN "_wait_until_all" #VSUFFIX);                               \
  }                                                                                                \
  SMA_WEAK_ALIAS(shmem_##TN##_wait_until_all##VSUFFIX)                                             \
  extern "C" size_t pshmem_##TN##_wait_until_any##VSUFFIX(                                         \
      T *ivars, size_t nelems, const int *status, int cmp, VPARAM) noexcept {                      \
    SMA_OBSERVE_CALL(wait, "shmem_" #TN "_wait_until_any" #VSUFFIX,                                \
                     [&] { return wait_detail<T>(ivars, nelems, cmp, nelems ? VPTR : nullptr); }); \
    return p2p::wait_until_any<T>(ivars, nelems, status, cmp, VPTR, STRIDE,                        \
                                  "shmem_" #TN "_wait_until_any" #VSUFFIX);                        \
  }                                                                                                \
  SMA_WEAK_ALIAS(shmem_##TN##_wait_until_any##VSUFFIX)                                             \
  extern "C" size_t pshmem_##TN##_wait_until_some##VSUFFIX(                                        \
      T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, VPARAM) noexcept {     \
    SMA_OBSERVE_CALL(wait, "shmem_" #TN "_wait_until_some" #VSUFFIX,                               \
                     [&] { return wait_detail<T>(ivars, nelems, cmp, nelems ? VPTR : nullptr); }); \
    return p2p::wait_until_some<T>(ivars, nelems, indices, status, cmp, VPTR, STRIDE,              \
                                   "shmem_" #TN "_wait_until_some" #VSUFFIX);                      \
  }                                                                                                \
  SMA_WEAK_ALIAS(shmem_##TN##_wait_until_some##VSUFFIX)                                            \
  extern "C" int pshmem_##TN##_test_all##VSUFFIX(T *ivars, size_t nelems, const int *status,       \
                                                 int cmp, VPARAM) noexcept {                       \
    SMA_OBSERVE_CALL(test, "shmem_" #TN "_test_all" #VSUFFIX, 0, -1);                              \
    return p2p::test_all<T>(ivars, nelems, status, cmp, VPTR, STRIDE,                              \
                            "shmem_" #TN "_test_all" #VSUFFIX);                                    \
  }                                                                                                \
  SMA_WEAK_ALIAS(shmem_##TN##_test_all##VSUFFIX)                                                   \
  extern "C" size_t pshmem_##TN##_test_any##VSUFFIX(T *ivars, size_t nelems, const int *status,    \
                                                    int cmp, VPARAM) noexcept {                    \
    SMA_OBSERVE_CALL(test, "shmem_" #TN "_test_any" #VSUFFIX, 0, -1);                              \
    return p2p::test_any<T>(ivars, nelems, status, cmp, VPTR, STRIDE,                              \
                            "shmem_" #TN "_test_any" #VSUFFIX);                                    \
  }                                                                                                \
  SMA_WEAK_ALIAS(shmem_##TN##_test_any##VSUFFIX)                                                   \
  extern "C" size_t pshmem_##TN##_test_some##VSUFFIX(                                              \
      T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, VPARAM) noexcept {     \
    SMA_OBSERVE_CALL(test, "shmem_" #TN "_test_some" #VSUFFIX, 0, -1);                             \
    return p2p::test_some<T>(ivars, nelems, indices, status, cmp, VPTR, STRIDE,                    \
                             "shmem_" #TN "_test_some" #VSUFFIX);                                  \
  }                                                                                                \
  SMA_WEAK_ALIAS(shmem_##TN##_test_some##VSUFFIX)

#define SMA_P2P_ARRAYS(TN, T)                        \
  SMA_P2P_ARRAY(TN, T, , T cmp_value, &cmp_value, 0) \
  SMA_P2P_ARRAY(TN, T, _vector, T *cmp_values, cmp_values, 1)
SMA_SYNC_TYPES(SMA_P2P_ARRAYS)
// short and unsigned short too: not in the specification's table (its typed short forms exist
// for wait_until and test only), but Sandia OpenSHMEM has them and the C11 generics take them.
SMA_SYNC_DEPRECATED_TYPES(SMA_P2P_ARRAYS)

// ---- signals --------------------------------------------------------------------------------
extern "C" uint64_t pshmem_signal_wait_until(uint64_t *sig_addr, int cmp,
                                             uint64_t cmp_value) noexcept {
  SMA_OBSERVE_CALL(wait, "shmem_signal_wait_until",
                   [&] { return wait_detail<uint64_t>(sig_addr, 1, cmp, &cmp_value); });
  return p2p::wait_until<uint64_t>(sig_addr, cmp, cmp_value, "shmem_signal_wait_until");
}
SMA_WEAK_ALIAS(shmem_signal_wait_until)

// ---- deprecated (1.4): shmem_TYPENAME_wait, shmem_wait, shmem_wait_until on longs ----------
// shmem_TYPENAME_wait(ivar, v) waits until *ivar != v. These names exist for these types only;
// the specification has no table for them.
#define SMA_WAIT_DEPRECATED_TYPES(X) \
  X(short, short)                    \
  X(int, int)                        \
  X(long, long)                      \
  X(longlong, long long)

#define SMA_P2P_WAIT(TN, T)                                                              \
  extern "C" void pshmem_##TN##_wait(T *ivar, T cmp_value) noexcept {                    \
    SMA_OBSERVE_CALL(wait, "shmem_" #TN "_wait",                                         \
                     [&] { return wait_detail<T>(ivar, 1, SHMEM_CMP_NE, &cmp_value); }); \
    (void)p2p::wait_until<T>(ivar, SHMEM_CMP_NE, cmp_value, "shmem_" #TN "_wait");       \
  }                                                                                      \
  SMA_WEAK_ALIAS(shmem_##TN##_wait)
SMA_WAIT_DEPRECATED_TYPES(SMA_P2P_WAIT)

extern "C" void pshmem_wait(long *ivar, long cmp_value) noexcept {
  SMA_OBSERVE_CALL(wait, "shmem_wait",
                   [&] { return wait_detail<long>(ivar, 1, SHMEM_CMP_NE, &cmp_value); });
  (void)p2p::wait_until<long>(ivar, SHMEM_CMP_NE, cmp_value, "shmem_wait");
}
SMA_WEAK_ALIAS(shmem_wait)
extern "C" void pshmem_wait_until(long *ivar, int cmp, long cmp_value) noexcept {
  SMA_OBSERVE_CALL(wait, "shmem_wait_until",
                   [&] { return wait_detail<long>(ivar, 1, cmp, &cmp_value); });
  (void)p2p::wait_until<long>(ivar, cmp, cmp_value, "shmem_wait_until");
}
SMA_WEAK_ALIAS(shmem_wait_until)
