// Fortran collectives on active sets (PE_start, logPE_stride, PE_size, pSync):
// SHMEM_BARRIER[_ALL], SHMEM_BROADCAST<BITS>, SHMEM_[F]COLLECT<BITS>, SHMEM_ALLTOALL[S]<BITS> and
// every SHMEM_<T>_<OP>_TO_ALL, onto the same team collectives as the C active-set routines.
// pWrk is not needed (the collectives work in the team's own scratch) and pSync is never
// touched (fortran.hpp).
#include <fmt/format.h>

#include <limits>

#include "api/active_set.hpp"
#include "api/export.hpp"
#include "collectives/collectives.hpp"
#include "collectives/reduce_ops.hpp"
#include "fortran.hpp"
#include "fortran_tables.def"
#include "observe/observe.hpp"
#include "log/log.hpp"
#include "status.hpp"
#include "team/team.hpp"

namespace shoal::fortran {
// gfortran's REAL*16: IEEE quadruple precision.
#if defined(__SIZEOF_FLOAT128__)
using Real16 = __float128;
#else
using Real16 = long double;
#endif
static_assert(sizeof(Real16) == 16, "REAL*16 needs a 16-byte floating type");
}  // namespace shoal::fortran

using shoal::coll::combine;
using shoal::coll::ReduceOp;
using shoal::fortran::count;
using shoal::fortran::Fint;
using shoal::fortran::psync;

namespace {

// The C elements of nreduce Fortran items of mult elements each; -1 (reported as an error
// naming the routine) when that does not fit the int the reductions count in.
int elements(const Fint *nreduce, int mult, const char *routine) noexcept {
  if (*nreduce > std::numeric_limits<int>::max() / mult) {
    SMA_LOG_ERROR("coll", "{}: nreduce {} is too large", routine, *nreduce);
    shoal::set_last_error(fmt::format("{}: nreduce {} is too large", routine, *nreduce));
    return -1;
  }
  return *nreduce * mult;  // a negative nreduce stays negative: to_all reports it
}

// The team of the active set, or null after the core logged why the set is invalid.
shoal_team *set_of(const Fint *PE_start, const Fint *logPE_stride, const Fint *PE_size, void *pSync,
                   const char *routine) noexcept {
  return shoal::team::active_set(*PE_start, *logPE_stride, *PE_size, psync(pSync), routine);
}

}  // namespace

// ---- SHMEM_BARRIER_ALL, SHMEM_BARRIER ----------------------------------------------------------
SMA_F_API void pshmem_barrier_all_() noexcept {
  SMA_OBSERVE_CALL(barrier, "SHMEM_BARRIER_ALL", 0, &shoal_team_world);
  shoal::coll::barrier_all("SHMEM_BARRIER_ALL");
}
SMA_F_ALIAS(shmem_barrier_all_)

SMA_F_API void pshmem_barrier_(const Fint *PE_start, const Fint *logPE_stride, const Fint *PE_size,
                               void *pSync) noexcept {
  SMA_OBSERVE_CALL(barrier, "SHMEM_BARRIER", 0, static_cast<shoal_team *>(nullptr));
  if (shoal_team *team = set_of(PE_start, logPE_stride, PE_size, pSync, "SHMEM_BARRIER"))
    shoal::coll::barrier(team, "SHMEM_BARRIER");
}
SMA_F_ALIAS(shmem_barrier_)

// ---- SHMEM_BROADCAST<BITS>, SHMEM_COLLECT<BITS>, SHMEM_FCOLLECT<BITS> ---------------------------
#define SMA_F_COLL(sfx, BYTES)                                                                    \
  SMA_F_API void pshmem_broadcast##sfx##_(                                                        \
      void *target, const void *source, const Fint *n, const Fint *PE_root, const Fint *PE_start, \
      const Fint *logPE_stride, const Fint *PE_size, void *pSync) noexcept {                      \
    SMA_OBSERVE_CALL(broadcast, "SHMEM_BROADCAST" #sfx, count(n) * BYTES,                         \
                     static_cast<shoal_team *>(nullptr));                                         \
    shoal::active_set::broadcast(target, source, count(n), BYTES, *PE_root, *PE_start,            \
                                 *logPE_stride, *PE_size, psync(pSync), "SHMEM_BROADCAST" #sfx);  \
  }                                                                                               \
  SMA_F_ALIAS(shmem_broadcast##sfx##_)                                                            \
  SMA_F_API void pshmem_collect##sfx##_(void *target, const void *source, const Fint *n,          \
                                        const Fint *PE_start, const Fint *logPE_stride,           \
                                        const Fint *PE_size, void *pSync) noexcept {              \
    SMA_OBSERVE_CALL(collect, "SHMEM_COLLECT" #sfx, count(n) * BYTES,                             \
                     static_cast<shoal_team *>(nullptr));                                         \
    if (shoal_team *team = set_of(PE_start, logPE_stride, PE_size, pSync, "SHMEM_COLLECT" #sfx))  \
      shoal::coll::collect(team, target, source, count(n), BYTES, "SHMEM_COLLECT" #sfx);          \
  }                                                                                               \
  SMA_F_ALIAS(shmem_collect##sfx##_)                                                              \
  SMA_F_API void pshmem_fcollect##sfx##_(void *target, const void *source, const Fint *n,         \
                                         const Fint *PE_start, const Fint *logPE_stride,          \
                                         const Fint *PE_size, void *pSync) noexcept {             \
    SMA_OBSERVE_CALL(fcollect, "SHMEM_FCOLLECT" #sfx, count(n) * BYTES,                           \
                     static_cast<shoal_team *>(nullptr));                                         \
    if (shoal_team *team = set_of(PE_start, logPE_stride, PE_size, pSync, "SHMEM_FCOLLECT" #sfx)) \
      shoal::coll::fcollect(team, target, source, count(n), BYTES, "SHMEM_FCOLLECT" #sfx);        \
  }                                                                                               \
  SMA_F_ALIAS(shmem_fcollect##sfx##_)
SMA_F_COLL_SIZED(SMA_F_COLL)

// ---- SHMEM_ALLTOALL<BITS>, SHMEM_ALLTOALLS<BITS> (strides dst, sst in elements) -----------------
#define SMA_F_ALLTOALL(sfx, BYTES)                                                                 \
  SMA_F_API void pshmem_alltoall##sfx##_(void *dest, const void *source, const Fint *n,            \
                                         const Fint *PE_start, const Fint *logPE_stride,           \
                                         const Fint *PE_size, void *pSync) noexcept {              \
    SMA_OBSERVE_CALL(alltoall, "SHMEM_ALLTOALL" #sfx, count(n) * BYTES,                            \
                     static_cast<shoal_team *>(nullptr));                                          \
    if (shoal_team *team = set_of(PE_start, logPE_stride, PE_size, pSync, "SHMEM_ALLTOALL" #sfx))  \
      shoal::coll::alltoall(team, dest, source, count(n), BYTES, "SHMEM_ALLTOALL" #sfx);           \
  }                                                                                                \
  SMA_F_ALIAS(shmem_alltoall##sfx##_)                                                              \
  SMA_F_API void pshmem_alltoalls##sfx##_(                                                         \
      void *dest, const void *source, const Fint *dst, const Fint *sst, const Fint *n,             \
      const Fint *PE_start, const Fint *logPE_stride, const Fint *PE_size, void *pSync) noexcept { \
    SMA_OBSERVE_CALL(alltoall, "SHMEM_ALLTOALLS" #sfx, count(n) * BYTES,                           \
                     static_cast<shoal_team *>(nullptr));                                          \
    if (shoal_team *team = set_of(PE_start, logPE_stride, PE_size, pSync, "SHMEM_ALLTOALLS" #sfx)) \
      shoal::coll::alltoalls(team, dest, source, *dst, *sst, count(n), BYTES,                      \
                             "SHMEM_ALLTOALLS" #sfx);                                              \
  }                                                                                                \
  SMA_F_ALIAS(shmem_alltoalls##sfx##_)
SMA_F_ALLTOALL_SIZED(SMA_F_ALLTOALL)

// ---- SHMEM_<T>_<OP>_TO_ALL(target, source, nreduce, PE_start, logPE_stride, PE_size, pWrk,
// pSync). MULT: C elements per Fortran item (the bitwise XOR of the complex types).
#define SMA_F_TO_ALL_FORM(tn, TN, op, OPU, T, OP, MULT)                                           \
  SMA_F_API void pshmem_##tn##_##op##_to_all_(                                                    \
      void *target, const void *source, const Fint *nreduce, const Fint *PE_start,                \
      const Fint *logPE_stride, const Fint *PE_size, void *pWrk, void *pSync) noexcept {          \
    (void)pWrk;                                                                                   \
    constexpr const char *routine = "SHMEM_" #TN "_" #OPU "_TO_ALL";                              \
    const int n = elements(nreduce, MULT, routine);                                               \
    if (n < 0 && *nreduce >= 0) return;                                                           \
    SMA_OBSERVE_CALL(reduce, routine, static_cast<std::size_t>(n < 0 ? 0 : n) * sizeof(T),        \
                     static_cast<shoal_team *>(nullptr));                                         \
    shoal::active_set::to_all(target, source, n, sizeof(T), &combine<ReduceOp::OP, T>, *PE_start, \
                              *logPE_stride, *PE_size, psync(pSync), routine);                    \
  }                                                                                               \
  SMA_F_ALIAS(shmem_##tn##_##op##_to_all_)
SMA_F_TO_ALL(SMA_F_TO_ALL_FORM)
