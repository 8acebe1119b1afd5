// Adapters that give every typed point-to-point synchronization routine and every
// put-with-signal routine one uniform interface, generated from the type tables
// (core/types/type_tables.def), so a test written once runs against all of them:
//
//   for_each_sync_type(f)     calls f(SyncOps<T>{...}) for each row of SMA_SYNC_TYPES: the
//                             shmem_<TYPENAME>_{wait_until,test}[_{all,any,some}[_vector]]
//                             routines plus shmem_<TYPENAME>_atomic_set (to update a variable)
//   put_signal_forms()        every shmem_[ctx_]{<TYPENAME>_put,put<BITS>,putmem}_signal[_nbi]
//                             as a routine on bytes (dest and source reinterpreted)
#pragma once

#include "mpp_test.hpp"
#include "type_tables.def"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace shoal::test {

template <class T>
struct SyncOps {
  using type = T;
  const char* name;
  void (*wait_until)(T*, int, T);
  int (*test)(T*, int, T);
  void (*wait_until_all)(T*, std::size_t, const int*, int, T);
  std::size_t (*wait_until_any)(T*, std::size_t, const int*, int, T);
  std::size_t (*wait_until_some)(T*, std::size_t, std::size_t*, const int*, int, T);
  void (*wait_until_all_vector)(T*, std::size_t, const int*, int, T*);
  std::size_t (*wait_until_any_vector)(T*, std::size_t, const int*, int, T*);
  std::size_t (*wait_until_some_vector)(T*, std::size_t, std::size_t*, const int*, int, T*);
  int (*test_all)(T*, std::size_t, const int*, int, T);
  std::size_t (*test_any)(T*, std::size_t, const int*, int, T);
  std::size_t (*test_some)(T*, std::size_t, std::size_t*, const int*, int, T);
  int (*test_all_vector)(T*, std::size_t, const int*, int, T*);
  std::size_t (*test_any_vector)(T*, std::size_t, const int*, int, T*);
  std::size_t (*test_some_vector)(T*, std::size_t, std::size_t*, const int*, int, T*);
  void (*atomic_set)(T*, T, int);
};

#define SHOAL_SYNC_OPS(TN, T)                                                                      \
  f(SyncOps<T>{#TN, shmem_##TN##_wait_until, shmem_##TN##_test, shmem_##TN##_wait_until_all,       \
               shmem_##TN##_wait_until_any, shmem_##TN##_wait_until_some,                          \
               shmem_##TN##_wait_until_all_vector, shmem_##TN##_wait_until_any_vector,             \
               shmem_##TN##_wait_until_some_vector, shmem_##TN##_test_all, shmem_##TN##_test_any,  \
               shmem_##TN##_test_some, shmem_##TN##_test_all_vector, shmem_##TN##_test_any_vector, \
               shmem_##TN##_test_some_vector, shmem_##TN##_atomic_set});

template <class F>
void for_each_sync_type(F&& f) {
  SMA_SYNC_TYPES(SHOAL_SYNC_OPS)
}
#undef SHOAL_SYNC_OPS

// ---- put-with-signal ----------------------------------------------------------------------

using PutSignalFn = void (*)(void* dest, const void* source, std::size_t nelems,
                             std::uint64_t* sig_addr, std::uint64_t signal, int sig_op, int pe);

struct PutSignalForm {
  std::string name;
  std::size_t elem;  // bytes per element
  PutSignalFn fn;
};

#define SHOAL_PS_FORM(NAME, ELEM, CALL, DT, ST)                                               \
  forms.push_back(                                                                            \
      {NAME, ELEM,                                                                            \
       [](void* d, const void* s, std::size_t n, std::uint64_t* sa, std::uint64_t sv, int op, \
          int pe) { CALL(static_cast<DT*>(d), static_cast<const ST*>(s), n, sa, sv, op, pe); }});
#define SHOAL_CTX_ARG(fn) [](auto... a) { fn(SHMEM_CTX_DEFAULT, a...); }
#define SHOAL_PS_TYPED(TN, T)                                                                 \
  SHOAL_PS_FORM("shmem_" #TN "_put_signal", sizeof(T), shmem_##TN##_put_signal, T, T)         \
  SHOAL_PS_FORM("shmem_" #TN "_put_signal_nbi", sizeof(T), shmem_##TN##_put_signal_nbi, T, T) \
  SHOAL_PS_FORM("shmem_ctx_" #TN "_put_signal", sizeof(T),                                    \
                SHOAL_CTX_ARG(shmem_ctx_##TN##_put_signal), T, T)                             \
  SHOAL_PS_FORM("shmem_ctx_" #TN "_put_signal_nbi", sizeof(T),                                \
                SHOAL_CTX_ARG(shmem_ctx_##TN##_put_signal_nbi), T, T)
#define SHOAL_PS_UNTYPED(NAME, BYTES)                                                          \
  SHOAL_PS_FORM("shmem_" #NAME "_signal", BYTES, shmem_##NAME##_signal, void, void)            \
  SHOAL_PS_FORM("shmem_" #NAME "_signal_nbi", BYTES, shmem_##NAME##_signal_nbi, void, void)    \
  SHOAL_PS_FORM("shmem_ctx_" #NAME "_signal", BYTES, SHOAL_CTX_ARG(shmem_ctx_##NAME##_signal), \
                void, void)                                                                    \
  SHOAL_PS_FORM("shmem_ctx_" #NAME "_signal_nbi", BYTES,                                       \
                SHOAL_CTX_ARG(shmem_ctx_##NAME##_signal_nbi), void, void)
#define SHOAL_PS_SIZED(BITS, BYTES) SHOAL_PS_UNTYPED(put##BITS, BYTES)

// Every put-with-signal routine of the API (typed, sized, mem; plain, nbi, ctx, ctx nbi).
inline std::vector<PutSignalForm> put_signal_forms() {
  std::vector<PutSignalForm> forms;
  SMA_RMA_TYPES(SHOAL_PS_TYPED)
  SMA_RMA_SIZES(SHOAL_PS_SIZED)
  SHOAL_PS_UNTYPED(putmem, 1)
  return forms;
}
#undef SHOAL_PS_FORM
#undef SHOAL_CTX_ARG
#undef SHOAL_PS_TYPED
#undef SHOAL_PS_UNTYPED
#undef SHOAL_PS_SIZED

}  // namespace shoal::test
