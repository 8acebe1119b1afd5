// The AMO routines the soak uses, as overloads on the element type (uint32_t, uint64_t) with a
// context argument: SHMEM_CTX_DEFAULT calls the plain routine (shmem_uint64_atomic_add), any
// other context the shmem_ctx_ form, so both entry points are exercised.
#pragma once

#include <shmem.h>

#include <cstdint>

namespace soak::amo_api {

#define SOAK_AMO_FETCHING(TN, T, OP, PARAMS, ARGS)                                     \
  inline T OP(shmem_ctx_t ctx, SOAK_ID PARAMS) {                                       \
    return ctx == SHMEM_CTX_DEFAULT ? shmem_##TN##_atomic_##OP(SOAK_ID ARGS)           \
                                    : shmem_ctx_##TN##_atomic_##OP(ctx, SOAK_ID ARGS); \
  }                                                                                    \
  inline void OP##_nbi(shmem_ctx_t ctx, T* fetch, SOAK_ID PARAMS) {                    \
    if (ctx == SHMEM_CTX_DEFAULT)                                                      \
      shmem_##TN##_atomic_##OP##_nbi(fetch, SOAK_ID ARGS);                             \
    else                                                                               \
      shmem_ctx_##TN##_atomic_##OP##_nbi(ctx, fetch, SOAK_ID ARGS);                    \
  }
#define SOAK_AMO_POSTED(TN, T, NAME, OP, PARAMS, ARGS) \
  inline void NAME(shmem_ctx_t ctx, SOAK_ID PARAMS) {  \
    if (ctx == SHMEM_CTX_DEFAULT)                      \
      shmem_##TN##_atomic_##OP(SOAK_ID ARGS);          \
    else                                               \
      shmem_ctx_##TN##_atomic_##OP(ctx, SOAK_ID ARGS); \
  }
#define SOAK_ID(...) __VA_ARGS__

#define SOAK_AMO_TYPE(TN, T)                                                                   \
  SOAK_AMO_FETCHING(TN, T, fetch, (const T* src, int pe), (src, pe))                           \
  SOAK_AMO_FETCHING(TN, T, fetch_add, (T * dest, T v, int pe), (dest, v, pe))                  \
  SOAK_AMO_FETCHING(TN, T, fetch_inc, (T * dest, int pe), (dest, pe))                          \
  SOAK_AMO_FETCHING(TN, T, swap, (T * dest, T v, int pe), (dest, v, pe))                       \
  SOAK_AMO_FETCHING(TN, T, compare_swap, (T * dest, T cond, T v, int pe), (dest, cond, v, pe)) \
  SOAK_AMO_FETCHING(TN, T, fetch_and, (T * dest, T v, int pe), (dest, v, pe))                  \
  SOAK_AMO_FETCHING(TN, T, fetch_or, (T * dest, T v, int pe), (dest, v, pe))                   \
  SOAK_AMO_FETCHING(TN, T, fetch_xor, (T * dest, T v, int pe), (dest, v, pe))                  \
  SOAK_AMO_POSTED(TN, T, add, add, (T * dest, T v, int pe), (dest, v, pe))                     \
  SOAK_AMO_POSTED(TN, T, inc, inc, (T * dest, int pe), (dest, pe))                             \
  SOAK_AMO_POSTED(TN, T, set, set, (T * dest, T v, int pe), (dest, v, pe))                     \
  SOAK_AMO_POSTED(TN, T, bit_and, and, (T * dest, T v, int pe), (dest, v, pe))                 \
  SOAK_AMO_POSTED(TN, T, bit_or, or, (T * dest, T v, int pe), (dest, v, pe))                   \
  SOAK_AMO_POSTED(TN, T, bit_xor, xor, (T * dest, T v, int pe), (dest, v, pe))

SOAK_AMO_TYPE(uint32, std::uint32_t)
SOAK_AMO_TYPE(uint64, std::uint64_t)

#undef SOAK_AMO_TYPE
#undef SOAK_AMO_POSTED
#undef SOAK_AMO_FETCHING
#undef SOAK_ID

}  // namespace soak::amo_api
