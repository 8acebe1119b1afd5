// Adapters that give every typed / sized / mem RMA routine of the API one uniform
// interface, generated from the type tables (core/types/type_tables.def), so a test
// written once runs against all of them:
//
//   Ops_<TYPENAME>     shmem_<TYPENAME>_{put,get,p,g,iput,iget,ibput,ibget,put_nbi,get_nbi}
//                      and their shmem_ctx_<TYPENAME>_* forms
//   SizedOps<BITS>     shmem_{put,get,iput,iget,ibput,ibget}<BITS>, shmem_{put,get}<BITS>_nbi
//                      and their shmem_ctx_* forms, on Blob<BITS/8> elements
//   MemOps             shmem_{put,get}mem[_nbi] and shmem_ctx_* forms, on bytes
//
//   Api<Ops, Ctx>      picks the plain form (Ctx = false) or the shmem_ctx_* form with
//                      SHMEM_CTX_DEFAULT (Ctx = true), plus the matching quiet.
#pragma once

#include "mpp_test.hpp"
#include "type_lists.hpp"
#include "type_tables.def"

#include <cstddef>
#include <cstdint>
#include <tuple>

namespace shoal::test {

// Opaque element of a sized routine: BYTES bytes, compared bytewise.
template <std::size_t BYTES>
struct Blob {
  unsigned char b[BYTES];
};

// value_of / sentinel_of for Blob: bytes derived from the 64-bit value, so (pe, index)
// is still encoded in every byte pattern.
template <class T>
T fill_value(int pe, std::size_t index) {
  if constexpr (std::is_arithmetic_v<T>) {
    return value_of<T>(pe, index);
  } else {
    T out;
    const std::uint64_t v = value_of<std::uint64_t>(pe, index);
    auto* b = reinterpret_cast<unsigned char*>(&out);
    for (std::size_t k = 0; k < sizeof(T); ++k) {
      b[k] = static_cast<unsigned char>((v >> (8 * (k % 8))) ^ (k * 29u));
    }
    return out;
  }
}
template <class T>
T fill_sentinel(std::size_t index) {
  return fill_value<T>(kSentinelPe, index);
}

#if SHOAL_TEST_HAVE_1_6
#define SHOAL_TYPED_IB_OPS(TN, T)                                                                \
  static constexpr bool has_ib = true;                                                           \
  static void ibput(T* d, const T* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t bsize, \
                    std::size_t nblocks, int pe) {                                               \
    shmem_##TN##_ibput(d, s, dst, sst, bsize, nblocks, pe);                                      \
  }                                                                                              \
  static void ibget(T* d, const T* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t bsize, \
                    std::size_t nblocks, int pe) {                                               \
    shmem_##TN##_ibget(d, s, dst, sst, bsize, nblocks, pe);                                      \
  }                                                                                              \
  static void ctx_ibput(shmem_ctx_t c, T* d, const T* s, std::ptrdiff_t dst, std::ptrdiff_t sst, \
                        std::size_t bsize, std::size_t nblocks, int pe) {                        \
    shmem_ctx_##TN##_ibput(c, d, s, dst, sst, bsize, nblocks, pe);                               \
  }                                                                                              \
  static void ctx_ibget(shmem_ctx_t c, T* d, const T* s, std::ptrdiff_t dst, std::ptrdiff_t sst, \
                        std::size_t bsize, std::size_t nblocks, int pe) {                        \
    shmem_ctx_##TN##_ibget(c, d, s, dst, sst, bsize, nblocks, pe);                               \
  }
#define SHOAL_SIZED_IB_OPS(BITS)                                                              \
  static constexpr bool has_ib = true;                                                        \
  static void ibput(type* d, const type* s, std::ptrdiff_t dst, std::ptrdiff_t sst,           \
                    std::size_t bsize, std::size_t nblocks, int pe) {                         \
    shmem_ibput##BITS(d, s, dst, sst, bsize, nblocks, pe);                                    \
  }                                                                                           \
  static void ibget(type* d, const type* s, std::ptrdiff_t dst, std::ptrdiff_t sst,           \
                    std::size_t bsize, std::size_t nblocks, int pe) {                         \
    shmem_ibget##BITS(d, s, dst, sst, bsize, nblocks, pe);                                    \
  }                                                                                           \
  static void ctx_ibput(shmem_ctx_t c, type* d, const type* s, std::ptrdiff_t dst,            \
                        std::ptrdiff_t sst, std::size_t bsize, std::size_t nblocks, int pe) { \
    shmem_ctx_ibput##BITS(c, d, s, dst, sst, bsize, nblocks, pe);                             \
  }                                                                                           \
  static void ctx_ibget(shmem_ctx_t c, type* d, const type* s, std::ptrdiff_t dst,            \
                        std::ptrdiff_t sst, std::size_t bsize, std::size_t nblocks, int pe) { \
    shmem_ctx_ibget##BITS(c, d, s, dst, sst, bsize, nblocks, pe);                             \
  }
#else
#define SHOAL_TYPED_IB_OPS(TN, T) static constexpr bool has_ib = false;
#define SHOAL_SIZED_IB_OPS(BITS) static constexpr bool has_ib = false;
#endif

#define SHOAL_TYPED_OPS(TN, T)                                                                    \
  struct Ops_##TN {                                                                               \
    using type = T;                                                                               \
    static constexpr const char* name = #TN;                                                      \
    static constexpr bool has_pg = true;                                                          \
    static void put(T* d, const T* s, std::size_t n, int pe) { shmem_##TN##_put(d, s, n, pe); }   \
    static void get(T* d, const T* s, std::size_t n, int pe) { shmem_##TN##_get(d, s, n, pe); }   \
    static void p(T* d, T v, int pe) { shmem_##TN##_p(d, v, pe); }                                \
    static T g(const T* s, int pe) { return shmem_##TN##_g(s, pe); }                              \
    static void iput(T* d, const T* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t n,     \
                     int pe) {                                                                    \
      shmem_##TN##_iput(d, s, dst, sst, n, pe);                                                   \
    }                                                                                             \
    static void iget(T* d, const T* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t n,     \
                     int pe) {                                                                    \
      shmem_##TN##_iget(d, s, dst, sst, n, pe);                                                   \
    }                                                                                             \
    static void put_nbi(T* d, const T* s, std::size_t n, int pe) {                                \
      shmem_##TN##_put_nbi(d, s, n, pe);                                                          \
    }                                                                                             \
    static void get_nbi(T* d, const T* s, std::size_t n, int pe) {                                \
      shmem_##TN##_get_nbi(d, s, n, pe);                                                          \
    }                                                                                             \
    static void ctx_put(shmem_ctx_t c, T* d, const T* s, std::size_t n, int pe) {                 \
      shmem_ctx_##TN##_put(c, d, s, n, pe);                                                       \
    }                                                                                             \
    static void ctx_get(shmem_ctx_t c, T* d, const T* s, std::size_t n, int pe) {                 \
      shmem_ctx_##TN##_get(c, d, s, n, pe);                                                       \
    }                                                                                             \
    static void ctx_p(shmem_ctx_t c, T* d, T v, int pe) { shmem_ctx_##TN##_p(c, d, v, pe); }      \
    static T ctx_g(shmem_ctx_t c, const T* s, int pe) { return shmem_ctx_##TN##_g(c, s, pe); }    \
    static void ctx_iput(shmem_ctx_t c, T* d, const T* s, std::ptrdiff_t dst, std::ptrdiff_t sst, \
                         std::size_t n, int pe) {                                                 \
      shmem_ctx_##TN##_iput(c, d, s, dst, sst, n, pe);                                            \
    }                                                                                             \
    static void ctx_iget(shmem_ctx_t c, T* d, const T* s, std::ptrdiff_t dst, std::ptrdiff_t sst, \
                         std::size_t n, int pe) {                                                 \
      shmem_ctx_##TN##_iget(c, d, s, dst, sst, n, pe);                                            \
    }                                                                                             \
    static void ctx_put_nbi(shmem_ctx_t c, T* d, const T* s, std::size_t n, int pe) {             \
      shmem_ctx_##TN##_put_nbi(c, d, s, n, pe);                                                   \
    }                                                                                             \
    static void ctx_get_nbi(shmem_ctx_t c, T* d, const T* s, std::size_t n, int pe) {             \
      shmem_ctx_##TN##_get_nbi(c, d, s, n, pe);                                                   \
    }                                                                                             \
    SHOAL_TYPED_IB_OPS(TN, T)                                                                     \
  };
SMA_RMA_TYPES(SHOAL_TYPED_OPS)
#undef SHOAL_TYPED_OPS

#define SHOAL_SIZED_OPS(BITS, BYTES)                                                        \
  struct SizedOps##BITS {                                                                   \
    using type = Blob<BYTES>;                                                               \
    static constexpr const char* name = "size" #BITS;                                       \
    static constexpr bool has_pg = false;                                                   \
    static void put(type* d, const type* s, std::size_t n, int pe) {                        \
      shmem_put##BITS(d, s, n, pe);                                                         \
    }                                                                                       \
    static void get(type* d, const type* s, std::size_t n, int pe) {                        \
      shmem_get##BITS(d, s, n, pe);                                                         \
    }                                                                                       \
    static void iput(type* d, const type* s, std::ptrdiff_t dst, std::ptrdiff_t sst,        \
                     std::size_t n, int pe) {                                               \
      shmem_iput##BITS(d, s, dst, sst, n, pe);                                              \
    }                                                                                       \
    static void iget(type* d, const type* s, std::ptrdiff_t dst, std::ptrdiff_t sst,        \
                     std::size_t n, int pe) {                                               \
      shmem_iget##BITS(d, s, dst, sst, n, pe);                                              \
    }                                                                                       \
    static void put_nbi(type* d, const type* s, std::size_t n, int pe) {                    \
      shmem_put##BITS##_nbi(d, s, n, pe);                                                   \
    }                                                                                       \
    static void get_nbi(type* d, const type* s, std::size_t n, int pe) {                    \
      shmem_get##BITS##_nbi(d, s, n, pe);                                                   \
    }                                                                                       \
    static void ctx_put(shmem_ctx_t c, type* d, const type* s, std::size_t n, int pe) {     \
      shmem_ctx_put##BITS(c, d, s, n, pe);                                                  \
    }                                                                                       \
    static void ctx_get(shmem_ctx_t c, type* d, const type* s, std::size_t n, int pe) {     \
      shmem_ctx_get##BITS(c, d, s, n, pe);                                                  \
    }                                                                                       \
    static void ctx_iput(shmem_ctx_t c, type* d, const type* s, std::ptrdiff_t dst,         \
                         std::ptrdiff_t sst, std::size_t n, int pe) {                       \
      shmem_ctx_iput##BITS(c, d, s, dst, sst, n, pe);                                       \
    }                                                                                       \
    static void ctx_iget(shmem_ctx_t c, type* d, const type* s, std::ptrdiff_t dst,         \
                         std::ptrdiff_t sst, std::size_t n, int pe) {                       \
      shmem_ctx_iget##BITS(c, d, s, dst, sst, n, pe);                                       \
    }                                                                                       \
    static void ctx_put_nbi(shmem_ctx_t c, type* d, const type* s, std::size_t n, int pe) { \
      shmem_ctx_put##BITS##_nbi(c, d, s, n, pe);                                            \
    }                                                                                       \
    static void ctx_get_nbi(shmem_ctx_t c, type* d, const type* s, std::size_t n, int pe) { \
      shmem_ctx_get##BITS##_nbi(c, d, s, n, pe);                                            \
    }                                                                                       \
    SHOAL_SIZED_IB_OPS(BITS)                                                                \
  };
SMA_RMA_SIZES(SHOAL_SIZED_OPS)
#undef SHOAL_SIZED_OPS

struct MemOps {
  using type = unsigned char;
  static constexpr const char* name = "mem";
  static constexpr bool has_pg = false;
  static constexpr bool has_ib = false;
  static void put(type* d, const type* s, std::size_t n, int pe) { shmem_putmem(d, s, n, pe); }
  static void get(type* d, const type* s, std::size_t n, int pe) { shmem_getmem(d, s, n, pe); }
  static void put_nbi(type* d, const type* s, std::size_t n, int pe) {
    shmem_putmem_nbi(d, s, n, pe);
  }
  static void get_nbi(type* d, const type* s, std::size_t n, int pe) {
    shmem_getmem_nbi(d, s, n, pe);
  }
  static void ctx_put(shmem_ctx_t c, type* d, const type* s, std::size_t n, int pe) {
    shmem_ctx_putmem(c, d, s, n, pe);
  }
  static void ctx_get(shmem_ctx_t c, type* d, const type* s, std::size_t n, int pe) {
    shmem_ctx_getmem(c, d, s, n, pe);
  }
  static void ctx_put_nbi(shmem_ctx_t c, type* d, const type* s, std::size_t n, int pe) {
    shmem_ctx_putmem_nbi(c, d, s, n, pe);
  }
  static void ctx_get_nbi(shmem_ctx_t c, type* d, const type* s, std::size_t n, int pe) {
    shmem_ctx_getmem_nbi(c, d, s, n, pe);
  }
};

// Routes to the plain form or to the shmem_ctx_* form on SHMEM_CTX_DEFAULT. (Read each
// time: an implementation may set SHMEM_CTX_DEFAULT up in shmem_init.)
template <class Ops, bool Ctx>
struct Api {
  using T = typename Ops::type;
  static constexpr bool uses_ctx = Ctx;
  static shmem_ctx_t ctx() { return SHMEM_CTX_DEFAULT; }

  static void put(T* d, const T* s, std::size_t n, int pe) {
    if constexpr (Ctx)
      Ops::ctx_put(ctx(), d, s, n, pe);
    else
      Ops::put(d, s, n, pe);
  }
  static void get(T* d, const T* s, std::size_t n, int pe) {
    if constexpr (Ctx)
      Ops::ctx_get(ctx(), d, s, n, pe);
    else
      Ops::get(d, s, n, pe);
  }
  static void put_nbi(T* d, const T* s, std::size_t n, int pe) {
    if constexpr (Ctx)
      Ops::ctx_put_nbi(ctx(), d, s, n, pe);
    else
      Ops::put_nbi(d, s, n, pe);
  }
  static void get_nbi(T* d, const T* s, std::size_t n, int pe) {
    if constexpr (Ctx)
      Ops::ctx_get_nbi(ctx(), d, s, n, pe);
    else
      Ops::get_nbi(d, s, n, pe);
  }
  static void p(T* d, T v, int pe) {
    if constexpr (Ctx)
      Ops::ctx_p(ctx(), d, v, pe);
    else
      Ops::p(d, v, pe);
  }
  static T g(const T* s, int pe) {
    if constexpr (Ctx)
      return Ops::ctx_g(ctx(), s, pe);
    else
      return Ops::g(s, pe);
  }
  static void iput(T* d, const T* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t n,
                   int pe) {
    if constexpr (Ctx)
      Ops::ctx_iput(ctx(), d, s, dst, sst, n, pe);
    else
      Ops::iput(d, s, dst, sst, n, pe);
  }
  static void iget(T* d, const T* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t n,
                   int pe) {
    if constexpr (Ctx)
      Ops::ctx_iget(ctx(), d, s, dst, sst, n, pe);
    else
      Ops::iget(d, s, dst, sst, n, pe);
  }
  static void ibput(T* d, const T* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t bsize,
                    std::size_t nblocks, int pe) {
    if constexpr (Ctx)
      Ops::ctx_ibput(ctx(), d, s, dst, sst, bsize, nblocks, pe);
    else
      Ops::ibput(d, s, dst, sst, bsize, nblocks, pe);
  }
  static void ibget(T* d, const T* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t bsize,
                    std::size_t nblocks, int pe) {
    if constexpr (Ctx)
      Ops::ctx_ibget(ctx(), d, s, dst, sst, bsize, nblocks, pe);
    else
      Ops::ibget(d, s, dst, sst, bsize, nblocks, pe);
  }
  static void quiet() {
    if constexpr (Ctx)
      shmem_ctx_quiet(ctx());
    else
      shmem_quiet();
  }
};

// The tables' rows as adapters (std::tuple), and the ::testing::Types of the rows this build
// tests (type_lists.hpp).
#define SHOAL_TYPED_OPS_TUPLE_ELEM(TN, T) std::tuple<Ops_##TN>{},
using TypedRows =
    decltype(std::tuple_cat(SMA_RMA_TYPES(SHOAL_TYPED_OPS_TUPLE_ELEM) std::tuple<>{}));
#undef SHOAL_TYPED_OPS_TUPLE_ELEM
#define SHOAL_SIZED_OPS_TUPLE_ELEM(BITS, BYTES) std::tuple<SizedOps##BITS>{},
using SizedRows =
    decltype(std::tuple_cat(SMA_RMA_SIZES(SHOAL_SIZED_OPS_TUPLE_ELEM) std::tuple<>{}));
#undef SHOAL_SIZED_OPS_TUPLE_ELEM
using AllTypedOps = TestedTypes<TypedRows>;
using AllSizedOps = TestedTypes<SizedRows>;

// Test names: RmaTyped/int.Put instead of RmaTyped/6.Put.
struct OpsName {
  template <class Ops>
  static std::string GetName(int) {
    return Ops::name;
  }
};

}  // namespace shoal::test
