// Fortran put and get: SHMEM_<TYPE>_{PUT,GET}[_NBI], SHMEM_<TYPE>_{IPUT,IGET}, the sized
// SHMEM_{PUT,GET}<BITS>[_NBI] and SHMEM_{IPUT,IGET}<BITS>, SHMEM_{PUT,GET}MEM[_NBI] and
// SHMEM_PUT, stamped out from fortran_tables.def onto the core's RMA entry points.
#include "api/export.hpp"
#include "fortran.hpp"
#include "fortran_tables.def"
#include "observe/observe.hpp"
#include "rma/rma.hpp"

using shoal::fortran::count;
using shoal::fortran::Fint;
using shoal::rma::byte_size;

namespace {

// The four contiguous forms and the two strided ones, given the element size and the routine.
void put(void *target, const void *source, const Fint *n, const Fint *pe, std::size_t elem,
         const char *routine) noexcept {
  const std::size_t bytes = byte_size(count(n), elem, target, *pe, routine);
  SMA_OBSERVED(put, routine, bytes, *pe,
               shoal::rma::put(dflt(), target, source, bytes, *pe, routine));
}
void get(void *target, const void *source, const Fint *n, const Fint *pe, std::size_t elem,
         const char *routine) noexcept {
  const std::size_t bytes = byte_size(count(n), elem, source, *pe, routine);
  SMA_OBSERVED(get, routine, bytes, *pe,
               shoal::rma::get(dflt(), target, source, bytes, *pe, routine));
}
void put_nbi(void *target, const void *source, const Fint *n, const Fint *pe, std::size_t elem,
             const char *routine) noexcept {
  const std::size_t bytes = byte_size(count(n), elem, target, *pe, routine);
  SMA_OBSERVED(nbi, routine, bytes, *pe,
               shoal::rma::put_nbi(dflt(), target, source, bytes, *pe, routine));
}
void get_nbi(void *target, const void *source, const Fint *n, const Fint *pe, std::size_t elem,
             const char *routine) noexcept {
  const std::size_t bytes = byte_size(count(n), elem, source, *pe, routine);
  SMA_OBSERVED(nbi, routine, bytes, *pe,
               shoal::rma::get_nbi(dflt(), target, source, bytes, *pe, routine));
}
// tst and sst are strides in elements; n counts elements.
void iput(void *target, const void *source, const Fint *tst, const Fint *sst, const Fint *n,
          const Fint *pe, std::size_t elem, const char *routine) noexcept {
  SMA_OBSERVED(
      put, routine, count(n) * elem, *pe,
      shoal::rma::put_strided(dflt(), target, source, *tst, *sst, 1, count(n), elem, *pe, routine));
}
void iget(void *target, const void *source, const Fint *tst, const Fint *sst, const Fint *n,
          const Fint *pe, std::size_t elem, const char *routine) noexcept {
  SMA_OBSERVED(
      get, routine, count(n) * elem, *pe,
      shoal::rma::get_strided(dflt(), target, source, *tst, *sst, 1, count(n), elem, *pe, routine));
}

}  // namespace

// Trailing hidden length parameters of the CHARACTER routines (ignored: nelems counts).
#define SMA_F_NO_LENGTHS()
#define SMA_F_TWO_LENGTHS() , std::size_t, std::size_t

// One contiguous routine: pshmem_<name>_ and its alias, calling FN with the element size.
#define SMA_F_CONTIG(name, NAME, FN, BYTES, LENGTHS)                         \
  SMA_F_API void p##name##_(void *target, const void *source, const Fint *n, \
                            const Fint *pe LENGTHS()) noexcept {             \
    FN(target, source, n, pe, BYTES, #NAME);                                 \
  }                                                                          \
  SMA_F_ALIAS(name##_)
#define SMA_F_STRIDED(name, NAME, FN, BYTES)                                                    \
  SMA_F_API void p##name##_(void *target, const void *source, const Fint *tst, const Fint *sst, \
                            const Fint *n, const Fint *pe) noexcept {                           \
    FN(target, source, tst, sst, n, pe, BYTES, #NAME);                                          \
  }                                                                                             \
  SMA_F_ALIAS(name##_)

// ---- SHMEM_<TYPE>_{PUT,GET,PUT_NBI,GET_NBI} and SHMEM_<TYPE>_{IPUT,IGET} -----------------------
#define SMA_F_TYPED(tn, TN, BYTES, LENGTHS)                                         \
  SMA_F_CONTIG(shmem_##tn##_put, SHMEM_##TN##_PUT, put, BYTES, LENGTHS)             \
  SMA_F_CONTIG(shmem_##tn##_get, SHMEM_##TN##_GET, get, BYTES, LENGTHS)             \
  SMA_F_CONTIG(shmem_##tn##_put_nbi, SHMEM_##TN##_PUT_NBI, put_nbi, BYTES, LENGTHS) \
  SMA_F_CONTIG(shmem_##tn##_get_nbi, SHMEM_##TN##_GET_NBI, get_nbi, BYTES, LENGTHS)
#define SMA_F_TYPED_STRIDED(tn, TN, BYTES, LENGTHS)                \
  SMA_F_STRIDED(shmem_##tn##_iput, SHMEM_##TN##_IPUT, iput, BYTES) \
  SMA_F_STRIDED(shmem_##tn##_iget, SHMEM_##TN##_IGET, iget, BYTES)
SMA_F_RMA_TYPED(SMA_F_TYPED)
SMA_F_RMA_TYPED_STRIDED(SMA_F_TYPED_STRIDED)

// ---- SHMEM_{PUT,GET}<BITS>[_NBI], SHMEM_{PUT,GET}MEM[_NBI], SHMEM_{IPUT,IGET}<BITS> -----------
// Any type may be passed to these, CHARACTER too: its hidden lengths are extra arguments the
// routine never reads, which the C calling convention allows.
#define SMA_F_SIZED(sfx, SFX, BYTES)                                                         \
  SMA_F_CONTIG(shmem_put##sfx, SHMEM_PUT##SFX, put, BYTES, SMA_F_NO_LENGTHS)                 \
  SMA_F_CONTIG(shmem_get##sfx, SHMEM_GET##SFX, get, BYTES, SMA_F_NO_LENGTHS)                 \
  SMA_F_CONTIG(shmem_put##sfx##_nbi, SHMEM_PUT##SFX##_NBI, put_nbi, BYTES, SMA_F_NO_LENGTHS) \
  SMA_F_CONTIG(shmem_get##sfx##_nbi, SHMEM_GET##SFX##_NBI, get_nbi, BYTES, SMA_F_NO_LENGTHS)
#define SMA_F_SIZED_STRIDED(sfx, SFX, BYTES)                   \
  SMA_F_STRIDED(shmem_iput##sfx, SHMEM_IPUT##SFX, iput, BYTES) \
  SMA_F_STRIDED(shmem_iget##sfx, SHMEM_IGET##SFX, iget, BYTES)
SMA_F_RMA_SIZED(SMA_F_SIZED)
SMA_F_RMA_SIZED_STRIDED(SMA_F_SIZED_STRIDED)

// ---- SHMEM_PUT: the 1.0 untyped put of 64-bit elements (SGI's SHMEM_PUT counts 8-byte words) --
SMA_F_CONTIG(shmem_put, SHMEM_PUT, put, 8, SMA_F_NO_LENGTHS)
