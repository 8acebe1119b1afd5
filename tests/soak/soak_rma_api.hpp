// The RMA routines the soak uses, selected at run time by element size: the typed context forms
// (shmem_ctx_uint32_put, ...) for 1, 2, 4 and 8 bytes and the sized forms (shmem_put8 ... 128).
#pragma once

#include <shmem.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace soak::rma_api {

template <class T>
struct Typed;
#define SOAK_RMA_TYPED(TN, T)                                                                  \
  template <>                                                                                  \
  struct Typed<T> {                                                                            \
    static void put(shmem_ctx_t c, void* d, const void* s, std::size_t n, int pe) {            \
      shmem_ctx_##TN##_put(c, static_cast<T*>(d), static_cast<const T*>(s), n, pe);            \
    }                                                                                          \
    static void put_nbi(shmem_ctx_t c, void* d, const void* s, std::size_t n, int pe) {        \
      shmem_ctx_##TN##_put_nbi(c, static_cast<T*>(d), static_cast<const T*>(s), n, pe);        \
    }                                                                                          \
    static void get(shmem_ctx_t c, void* d, const void* s, std::size_t n, int pe) {            \
      shmem_ctx_##TN##_get(c, static_cast<T*>(d), static_cast<const T*>(s), n, pe);            \
    }                                                                                          \
    static void get_nbi(shmem_ctx_t c, void* d, const void* s, std::size_t n, int pe) {        \
      shmem_ctx_##TN##_get_nbi(c, static_cast<T*>(d), static_cast<const T*>(s), n, pe);        \
    }                                                                                          \
    static void iput(shmem_ctx_t c, void* d, const void* s, std::ptrdiff_t dst,                \
                     std::ptrdiff_t sst, std::size_t n, int pe) {                              \
      shmem_ctx_##TN##_iput(c, static_cast<T*>(d), static_cast<const T*>(s), dst, sst, n, pe); \
    }                                                                                          \
    static void iget(shmem_ctx_t c, void* d, const void* s, std::ptrdiff_t dst,                \
                     std::ptrdiff_t sst, std::size_t n, int pe) {                              \
      shmem_ctx_##TN##_iget(c, static_cast<T*>(d), static_cast<const T*>(s), dst, sst, n, pe); \
    }                                                                                          \
    static void ibput(shmem_ctx_t c, void* d, const void* s, std::ptrdiff_t dst,               \
                      std::ptrdiff_t sst, std::size_t bsize, std::size_t nblocks, int pe) {    \
      shmem_ctx_##TN##_ibput(c, static_cast<T*>(d), static_cast<const T*>(s), dst, sst, bsize, \
                             nblocks, pe);                                                     \
    }                                                                                          \
    static void ibget(shmem_ctx_t c, void* d, const void* s, std::ptrdiff_t dst,               \
                      std::ptrdiff_t sst, std::size_t bsize, std::size_t nblocks, int pe) {    \
      shmem_ctx_##TN##_ibget(c, static_cast<T*>(d), static_cast<const T*>(s), dst, sst, bsize, \
                             nblocks, pe);                                                     \
    }                                                                                          \
    static void p(shmem_ctx_t c, void* d, const void* s, int pe) {                             \
      T v;                                                                                     \
      std::memcpy(&v, s, sizeof v);                                                            \
      shmem_ctx_##TN##_p(c, static_cast<T*>(d), v, pe);                                        \
    }                                                                                          \
    static void g(shmem_ctx_t c, void* d, const void* s, int pe) {                             \
      const T v = shmem_ctx_##TN##_g(c, static_cast<const T*>(s), pe);                         \
      std::memcpy(d, &v, sizeof v);                                                            \
    }                                                                                          \
  };
SOAK_RMA_TYPED(uint8, std::uint8_t)
SOAK_RMA_TYPED(uint16, std::uint16_t)
SOAK_RMA_TYPED(uint32, std::uint32_t)
SOAK_RMA_TYPED(uint64, std::uint64_t)
#undef SOAK_RMA_TYPED

// Calls f(Typed<T>{}) for the unsigned type T of `elem` bytes (1, 2, 4 or 8).
template <class F>
void with_type(std::size_t elem, F&& f) {
  switch (elem) {
    case 1:
      f(Typed<std::uint8_t>{});
      break;
    case 2:
      f(Typed<std::uint16_t>{});
      break;
    case 4:
      f(Typed<std::uint32_t>{});
      break;
    default:
      f(Typed<std::uint64_t>{});
      break;
  }
}

// Sized forms: shmem_putSIZE / getSIZE / iputSIZE / igetSIZE for 1..16-byte elements.
#define SOAK_SIZED(OP, ...)        \
  switch (elem) {                  \
    case 1:                        \
      shmem_##OP##8 __VA_ARGS__;   \
      break;                       \
    case 2:                        \
      shmem_##OP##16 __VA_ARGS__;  \
      break;                       \
    case 4:                        \
      shmem_##OP##32 __VA_ARGS__;  \
      break;                       \
    case 8:                        \
      shmem_##OP##64 __VA_ARGS__;  \
      break;                       \
    default:                       \
      shmem_##OP##128 __VA_ARGS__; \
      break;                       \
  }
inline void sized_put(std::size_t elem, void* d, const void* s, std::size_t n, int pe) {
  SOAK_SIZED(put, (d, s, n, pe))
}
inline void sized_get(std::size_t elem, void* d, const void* s, std::size_t n, int pe) {
  SOAK_SIZED(get, (d, s, n, pe))
}
inline void sized_iput(std::size_t elem, void* d, const void* s, std::ptrdiff_t dst,
                       std::ptrdiff_t sst, std::size_t n, int pe) {
  SOAK_SIZED(iput, (d, s, dst, sst, n, pe))
}
inline void sized_iget(std::size_t elem, void* d, const void* s, std::ptrdiff_t dst,
                       std::ptrdiff_t sst, std::size_t n, int pe) {
  SOAK_SIZED(iget, (d, s, dst, sst, n, pe))
}
#undef SOAK_SIZED

}  // namespace soak::rma_api
