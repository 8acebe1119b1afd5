// Put and get entry points (specification section "Remote Memory Access Routines"): typed,
// sized and mem forms, each with its ctx twin, stamped out from the type tables.
#include "api/export.hpp"
#include "observe/observe.hpp"
#include "rma/rma.hpp"
#include "types/type_tables.def"

using shoal::rma::byte_size;
using shoal::rma::get;
using shoal::rma::get_nbi;
using shoal::rma::get_strided;
using shoal::rma::put;
using shoal::rma::put_nbi;
using shoal::rma::put_strided;

// Each family is stamped twice: the plain form on the default context, and the ctx_ form
// whose first parameter is the context (CTXP is that parameter with its comma).
#define SMA_COMMA ,

// ---- typed: shmem_[ctx_]TYPENAME_{put,get,p,g,iput,iget,ibput,ibget,put_nbi,get_nbi} -------
#define SMA_TYPED_RMA_FORM(TN, T, CTXN, CTXP, CTXA)                                         \
  extern "C" void pshmem_##CTXN##TN##_put(CTXP T *dest, const T *source, size_t nelems,     \
                                          int pe) noexcept {                                \
    constexpr const char *routine = "shmem_" #CTXN #TN "_put";                              \
    const std::size_t bytes = byte_size(nelems, sizeof(T), dest, pe, routine);              \
    SMA_OBSERVED(put, routine, bytes, pe, put(CTXA, dest, source, bytes, pe, routine));     \
  }                                                                                         \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_put)                                                    \
  extern "C" void pshmem_##CTXN##TN##_get(CTXP T *dest, const T *source, size_t nelems,     \
                                          int pe) noexcept {                                \
    constexpr const char *routine = "shmem_" #CTXN #TN "_get";                              \
    const std::size_t bytes = byte_size(nelems, sizeof(T), source, pe, routine);            \
    SMA_OBSERVED(get, routine, bytes, pe, get(CTXA, dest, source, bytes, pe, routine));     \
  }                                                                                         \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_get)                                                    \
  extern "C" void pshmem_##CTXN##TN##_put_nbi(CTXP T *dest, const T *source, size_t nelems, \
                                              int pe) noexcept {                            \
    constexpr const char *routine = "shmem_" #CTXN #TN "_put_nbi";                          \
    const std::size_t bytes = byte_size(nelems, sizeof(T), dest, pe, routine);              \
    SMA_OBSERVED(nbi, routine, bytes, pe, put_nbi(CTXA, dest, source, bytes, pe, routine)); \
  }                                                                                         \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_put_nbi)                                                \
  extern "C" void pshmem_##CTXN##TN##_get_nbi(CTXP T *dest, const T *source, size_t nelems, \
                                              int pe) noexcept {                            \
    constexpr const char *routine = "shmem_" #CTXN #TN "_get_nbi";                          \
    const std::size_t bytes = byte_size(nelems, sizeof(T), source, pe, routine);            \
    SMA_OBSERVED(nbi, routine, bytes, pe, get_nbi(CTXA, dest, source, bytes, pe, routine)); \
  }                                                                                         \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_get_nbi)                                                \
  extern "C" void pshmem_##CTXN##TN##_p(CTXP T *dest, T value, int pe) noexcept {           \
    SMA_OBSERVED(put, "shmem_" #CTXN #TN "_p", sizeof(T), pe,                               \
                 put(CTXA, dest, &value, sizeof(T), pe, "shmem_" #CTXN #TN "_p"));          \
  }                                                                                         \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_p)                                                      \
  extern "C" T pshmem_##CTXN##TN##_g(CTXP const T *source, int pe) noexcept {               \
    T value;                                                                                \
    SMA_OBSERVED(get, "shmem_" #CTXN #TN "_g", sizeof(T), pe,                               \
                 get(CTXA, &value, source, sizeof(T), pe, "shmem_" #CTXN #TN "_g"));        \
    return value;                                                                           \
  }                                                                                         \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_g)                                                      \
  extern "C" void pshmem_##CTXN##TN##_iput(CTXP T *dest, const T *source, ptrdiff_t dst,    \
                                           ptrdiff_t sst, size_t nelems, int pe) noexcept { \
    SMA_OBSERVED(put, "shmem_" #CTXN #TN "_iput", nelems * sizeof(T), pe,                   \
                 put_strided(CTXA, dest, source, dst, sst, 1, nelems, sizeof(T), pe,        \
                             "shmem_" #CTXN #TN "_iput"));                                  \
  }                                                                                         \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_iput)                                                   \
  extern "C" void pshmem_##CTXN##TN##_iget(CTXP T *dest, const T *source, ptrdiff_t dst,    \
                                           ptrdiff_t sst, size_t nelems, int pe) noexcept { \
    SMA_OBSERVED(get, "shmem_" #CTXN #TN "_iget", nelems * sizeof(T), pe,                   \
                 get_strided(CTXA, dest, source, dst, sst, 1, nelems, sizeof(T), pe,        \
                             "shmem_" #CTXN #TN "_iget"));                                  \
  }                                                                                         \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_iget)                                                   \
  extern "C" void pshmem_##CTXN##TN##_ibput(CTXP T *dest, const T *source, ptrdiff_t dst,   \
                                            ptrdiff_t sst, size_t bsize, size_t nblocks,    \
                                            int pe) noexcept {                              \
    SMA_OBSERVED(put, "shmem_" #CTXN #TN "_ibput", bsize *nblocks * sizeof(T), pe,          \
                 put_strided(CTXA, dest, source, dst, sst, bsize, nblocks, sizeof(T), pe,   \
                             "shmem_" #CTXN #TN "_ibput"));                                 \
  }                                                                                         \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_ibput)                                                  \
  extern "C" void pshmem_##CTXN##TN##_ibget(CTXP T *dest, const T *source, ptrdiff_t dst,   \
                                            ptrdiff_t sst, size_t bsize, size_t nblocks,    \
                                            int pe) noexcept {                              \
    SMA_OBSERVED(get, "shmem_" #CTXN #TN "_ibget", bsize *nblocks * sizeof(T), pe,          \
                 get_strided(CTXA, dest, source, dst, sst, bsize, nblocks, sizeof(T), pe,   \
                             "shmem_" #CTXN #TN "_ibget"));                                 \
  }                                                                                         \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_ibget)

#define SMA_TYPED_RMA_PLAIN(TN, T) SMA_TYPED_RMA_FORM(TN, T, , , dflt())
#define SMA_TYPED_RMA_CTX(TN, T) SMA_TYPED_RMA_FORM(TN, T, ctx_, shmem_ctx_t ctx SMA_COMMA, ctx)
SMA_RMA_TYPES(SMA_TYPED_RMA_PLAIN)
SMA_RMA_TYPES(SMA_TYPED_RMA_CTX)

// ---- sized: shmem_[ctx_]{put,get,iput,iget,ibput,ibget}BITS[_nbi] ---------------------------
#define SMA_SIZED_RMA_FORM(BITS, BYTES, CTXN, CTXP, CTXA)                                        \
  extern "C" void pshmem_##CTXN##put##BITS(CTXP void *dest, const void *source, size_t nelems,   \
                                           int pe) noexcept {                                    \
    constexpr const char *routine = "shmem_" #CTXN "put" #BITS;                                  \
    const std::size_t bytes = byte_size(nelems, BYTES, dest, pe, routine);                       \
    SMA_OBSERVED(put, routine, bytes, pe, put(CTXA, dest, source, bytes, pe, routine));          \
  }                                                                                              \
  SMA_WEAK_ALIAS(shmem_##CTXN##put##BITS)                                                        \
  extern "C" void pshmem_##CTXN##get##BITS(CTXP void *dest, const void *source, size_t nelems,   \
                                           int pe) noexcept {                                    \
    constexpr const char *routine = "shmem_" #CTXN "get" #BITS;                                  \
    const std::size_t bytes = byte_size(nelems, BYTES, source, pe, routine);                     \
    SMA_OBSERVED(get, routine, bytes, pe, get(CTXA, dest, source, bytes, pe, routine));          \
  }                                                                                              \
  SMA_WEAK_ALIAS(shmem_##CTXN##get##BITS)                                                        \
  extern "C" void pshmem_##CTXN##put##BITS##_nbi(CTXP void *dest, const void *source,            \
                                                 size_t nelems, int pe) noexcept {               \
    constexpr const char *routine = "shmem_" #CTXN "put" #BITS "_nbi";                           \
    const std::size_t bytes = byte_size(nelems, BYTES, dest, pe, routine);                       \
    SMA_OBSERVED(nbi, routine, bytes, pe, put_nbi(CTXA, dest, source, bytes, pe, routine));      \
  }                                                                                              \
  SMA_WEAK_ALIAS(shmem_##CTXN##put##BITS##_nbi)                                                  \
  extern "C" void pshmem_##CTXN##get##BITS##_nbi(CTXP void *dest, const void *source,            \
                                                 size_t nelems, int pe) noexcept {               \
    constexpr const char *routine = "shmem_" #CTXN "get" #BITS "_nbi";                           \
    const std::size_t bytes = byte_size(nelems, BYTES, source, pe, routine);                     \
    SMA_OBSERVED(nbi, routine, bytes, pe, get_nbi(CTXA, dest, source, bytes, pe, routine));      \
  }                                                                                              \
  SMA_WEAK_ALIAS(shmem_##CTXN##get##BITS##_nbi)                                                  \
  extern "C" void pshmem_##CTXN##iput##BITS(CTXP void *dest, const void *source, ptrdiff_t dst,  \
                                            ptrdiff_t sst, size_t nelems, int pe) noexcept {     \
    SMA_OBSERVED(put, "shmem_" #CTXN "iput" #BITS, nelems *BYTES, pe,                            \
                 put_strided(CTXA, dest, source, dst, sst, 1, nelems, BYTES, pe,                 \
                             "shmem_" #CTXN "iput" #BITS));                                      \
  }                                                                                              \
  SMA_WEAK_ALIAS(shmem_##CTXN##iput##BITS)                                                       \
  extern "C" void pshmem_##CTXN##iget##BITS(CTXP void *dest, const void *source, ptrdiff_t dst,  \
                                            ptrdiff_t sst, size_t nelems, int pe) noexcept {     \
    SMA_OBSERVED(get, "shmem_" #CTXN "iget" #BITS, nelems *BYTES, pe,                            \
                 get_strided(CTXA, dest, source, dst, sst, 1, nelems, BYTES, pe,                 \
                             "shmem_" #CTXN "iget" #BITS));                                      \
  }                                                                                              \
  SMA_WEAK_ALIAS(shmem_##CTXN##iget##BITS)                                                       \
  extern "C" void pshmem_##CTXN##ibput##BITS(CTXP void *dest, const void *source, ptrdiff_t dst, \
                                             ptrdiff_t sst, size_t bsize, size_t nblocks,        \
                                             int pe) noexcept {                                  \
    SMA_OBSERVED(put, "shmem_" #CTXN "ibput" #BITS, bsize *nblocks *BYTES, pe,                   \
                 put_strided(CTXA, dest, source, dst, sst, bsize, nblocks, BYTES, pe,            \
                             "shmem_" #CTXN "ibput" #BITS));                                     \
  }                                                                                              \
  SMA_WEAK_ALIAS(shmem_##CTXN##ibput##BITS)                                                      \
  extern "C" void pshmem_##CTXN##ibget##BITS(CTXP void *dest, const void *source, ptrdiff_t dst, \
                                             ptrdiff_t sst, size_t bsize, size_t nblocks,        \
                                             int pe) noexcept {                                  \
    SMA_OBSERVED(get, "shmem_" #CTXN "ibget" #BITS, bsize *nblocks *BYTES, pe,                   \
                 get_strided(CTXA, dest, source, dst, sst, bsize, nblocks, BYTES, pe,            \
                             "shmem_" #CTXN "ibget" #BITS));                                     \
  }                                                                                              \
  SMA_WEAK_ALIAS(shmem_##CTXN##ibget##BITS)

#define SMA_SIZED_RMA_PLAIN(BITS, BYTES) SMA_SIZED_RMA_FORM(BITS, BYTES, , , dflt())
#define SMA_SIZED_RMA_CTX(BITS, BYTES) \
  SMA_SIZED_RMA_FORM(BITS, BYTES, ctx_, shmem_ctx_t ctx SMA_COMMA, ctx)
SMA_RMA_SIZES(SMA_SIZED_RMA_PLAIN)
SMA_RMA_SIZES(SMA_SIZED_RMA_CTX)

// ---- bytes: shmem_[ctx_]{put,get}mem[_nbi] ---------------------------------------------------
#define SMA_MEM_RMA_FORM(CTXN, CTXP, CTXA)                                                      \
  extern "C" void pshmem_##CTXN##putmem(CTXP void *dest, const void *source, size_t nelems,     \
                                        int pe) noexcept {                                      \
    constexpr const char *routine = "shmem_" #CTXN "putmem";                                    \
    const std::size_t bytes = byte_size(nelems, 1, dest, pe, routine);                          \
    SMA_OBSERVED(put, routine, bytes, pe, put(CTXA, dest, source, bytes, pe, routine));         \
  }                                                                                             \
  SMA_WEAK_ALIAS(shmem_##CTXN##putmem)                                                          \
  extern "C" void pshmem_##CTXN##getmem(CTXP void *dest, const void *source, size_t nelems,     \
                                        int pe) noexcept {                                      \
    constexpr const char *routine = "shmem_" #CTXN "getmem";                                    \
    const std::size_t bytes = byte_size(nelems, 1, source, pe, routine);                        \
    SMA_OBSERVED(get, routine, bytes, pe, get(CTXA, dest, source, bytes, pe, routine));         \
  }                                                                                             \
  SMA_WEAK_ALIAS(shmem_##CTXN##getmem)                                                          \
  extern "C" void pshmem_##CTXN##putmem_nbi(CTXP void *dest, const void *source, size_t nelems, \
                                            int pe) noexcept {                                  \
    constexpr const char *routine = "shmem_" #CTXN "putmem_nbi";                                \
    const std::size_t bytes = byte_size(nelems, 1, dest, pe, routine);                          \
    SMA_OBSERVED(nbi, routine, bytes, pe, put_nbi(CTXA, dest, source, bytes, pe, routine));     \
  }                                                                                             \
  SMA_WEAK_ALIAS(shmem_##CTXN##putmem_nbi)                                                      \
  extern "C" void pshmem_##CTXN##getmem_nbi(CTXP void *dest, const void *source, size_t nelems, \
                                            int pe) noexcept {                                  \
    constexpr const char *routine = "shmem_" #CTXN "getmem_nbi";                                \
    const std::size_t bytes = byte_size(nelems, 1, source, pe, routine);                        \
    SMA_OBSERVED(nbi, routine, bytes, pe, get_nbi(CTXA, dest, source, bytes, pe, routine));     \
  }                                                                                             \
  SMA_WEAK_ALIAS(shmem_##CTXN##getmem_nbi)

SMA_MEM_RMA_FORM(, , dflt())
SMA_MEM_RMA_FORM(ctx_, shmem_ctx_t ctx SMA_COMMA, ctx)
