// The deprecated active-set collectives (specification 1.4 and earlier; deprecated since 1.5):
// the PEs PE_start, PE_start + 2^logPE_stride, ... (PE_size of them), with a pSync array and,
// for the reductions, a pWrk array. Each finds the team of its active set
// (shoal::team::active_set, which logs and gives null when the set is invalid) and runs the
// same collective as the team routines. pWrk is not needed: the collectives work in the team's
// own symmetric scratch. The dispatcher restores pSync before returning.
#include <fmt/format.h>

#include <cstddef>

#include "api/active_set.hpp"
#include "api/export.hpp"
#include "observe/observe.hpp"
#include "collectives/collectives.hpp"
#include "collectives/reduce_ops.hpp"
#include "log/log.hpp"
#include "status.hpp"
#include "team/team.hpp"
#include "types/type_tables.def"

using shoal::coll::combine;
using shoal::coll::ReduceOp;

namespace {

shoal_team *set_of(int PE_start, int logPE_stride, int PE_size, long *pSync,
                   const char *routine) noexcept {
  return shoal::team::active_set(PE_start, logPE_stride, PE_size, pSync, routine);
}

}  // namespace

namespace shoal::active_set {

// The active-set broadcast leaves dest on the root untouched, where the team broadcast (which
// these share) writes source to dest on the root too: no algorithm writes the root's dest but
// that last copy, which root_dest = false skips.
void broadcast(void *dest, const void *source, std::size_t nelems, std::size_t elem_size,
               int PE_root, int PE_start, int logPE_stride, int PE_size, long *pSync,
               const char *routine) noexcept {
  shoal_team *team = set_of(PE_start, logPE_stride, PE_size, pSync, routine);
  if (team == nullptr) return;
  // PE_root numbers the root within the active set (0 .. PE_size-1): its team PE number.
  shoal::coll::broadcast(team, dest, source, nelems, elem_size, PE_root, routine,
                         /*root_dest=*/false);
}

// nreduce is an int in these routines; a negative count is an error of the caller.
void to_all(void *dest, const void *source, int nreduce, std::size_t elem_size,
            shoal::coll::Combine combine, int PE_start, int logPE_stride, int PE_size, long *pSync,
            const char *routine) noexcept {
  if (nreduce < 0) {
    SMA_LOG_ERROR("coll", "{}: nreduce is negative ({})", routine, nreduce);
    shoal::set_last_error(fmt::format("{}: nreduce is negative ({})", routine, nreduce));
    return;
  }
  shoal_team *team = set_of(PE_start, logPE_stride, PE_size, pSync, routine);
  if (team == nullptr) return;
  shoal::coll::reduce(team, dest, source, static_cast<std::size_t>(nreduce), elem_size, combine,
                      routine);
}

}  // namespace shoal::active_set

using shoal::active_set::broadcast;
using shoal::active_set::to_all;

// ---- shmem_barrier, shmem_sync -----------------------------------------------------------------
// shmem_barrier completes this PE's outstanding puts first (quiet, then sync), as
// shmem_barrier_all does; shmem_sync only synchronizes.
extern "C" void pshmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync) noexcept {
  SMA_OBSERVE_CALL(barrier, "shmem_barrier", 0, static_cast<shoal_team *>(nullptr));
  if (shoal_team *team = set_of(PE_start, logPE_stride, PE_size, pSync, "shmem_barrier"))
    shoal::coll::barrier(team, "shmem_barrier");
}
SMA_WEAK_ALIAS(shmem_barrier)

// The C11/C++ generic shmem_sync(team) is shmem_team_sync (team.cpp); this is the C function.
extern "C" void pshmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync) noexcept {
  SMA_OBSERVE_CALL(barrier, "shmem_sync", 0, static_cast<shoal_team *>(nullptr));
  if (shoal_team *team = set_of(PE_start, logPE_stride, PE_size, pSync, "shmem_sync"))
    shoal::coll::sync(team, "shmem_sync");
}
SMA_WEAK_ALIAS(shmem_sync)

// ---- shmem_{broadcast,collect,fcollect,alltoall,alltoalls}{32,64} ------------------------------
// nelems counts elements of BITS bits.
#define SMA_ACTIVE_SET_SIZED(BITS, BYTES)                                                          \
  extern "C" void pshmem_broadcast##BITS(void *dest, const void *source, size_t nelems,            \
                                         int PE_root, int PE_start, int logPE_stride, int PE_size, \
                                         long *pSync) noexcept {                                   \
    SMA_OBSERVE_CALL(broadcast, "shmem_broadcast" #BITS, nelems *BYTES,                            \
                     static_cast<shoal_team *>(nullptr));                                          \
    broadcast(dest, source, nelems, BYTES, PE_root, PE_start, logPE_stride, PE_size, pSync,        \
              "shmem_broadcast" #BITS);                                                            \
  }                                                                                                \
  SMA_WEAK_ALIAS(shmem_broadcast##BITS)                                                            \
  extern "C" void pshmem_collect##BITS(void *dest, const void *source, size_t nelems,              \
                                       int PE_start, int logPE_stride, int PE_size,                \
                                       long *pSync) noexcept {                                     \
    SMA_OBSERVE_CALL(collect, "shmem_collect" #BITS, nelems *BYTES,                                \
                     static_cast<shoal_team *>(nullptr));                                          \
    if (shoal_team *team = set_of(PE_start, logPE_stride, PE_size, pSync, "shmem_collect" #BITS))  \
      shoal::coll::collect(team, dest, source, nelems, BYTES, "shmem_collect" #BITS);              \
  }                                                                                                \
  SMA_WEAK_ALIAS(shmem_collect##BITS)                                                              \
  extern "C" void pshmem_fcollect##BITS(void *dest, const void *source, size_t nelems,             \
                                        int PE_start, int logPE_stride, int PE_size,               \
                                        long *pSync) noexcept {                                    \
    SMA_OBSERVE_CALL(fcollect, "shmem_fcollect" #BITS, nelems *BYTES,                              \
                     static_cast<shoal_team *>(nullptr));                                          \
    if (shoal_team *team = set_of(PE_start, logPE_stride, PE_size, pSync, "shmem_fcollect" #BITS)) \
      shoal::coll::fcollect(team, dest, source, nelems, BYTES, "shmem_fcollect" #BITS);            \
  }                                                                                                \
  SMA_WEAK_ALIAS(shmem_fcollect##BITS)                                                             \
  extern "C" void pshmem_alltoall##BITS(void *dest, const void *source, size_t nelems,             \
                                        int PE_start, int logPE_stride, int PE_size,               \
                                        long *pSync) noexcept {                                    \
    SMA_OBSERVE_CALL(alltoall, "shmem_alltoall" #BITS, nelems *BYTES,                              \
                     static_cast<shoal_team *>(nullptr));                                          \
    if (shoal_team *team = set_of(PE_start, logPE_stride, PE_size, pSync, "shmem_alltoall" #BITS)) \
      shoal::coll::alltoall(team, dest, source, nelems, BYTES, "shmem_alltoall" #BITS);            \
  }                                                                                                \
  SMA_WEAK_ALIAS(shmem_alltoall##BITS)                                                             \
  extern "C" void pshmem_alltoalls##BITS(void *dest, const void *source, ptrdiff_t dst,            \
                                         ptrdiff_t sst, size_t nelems, int PE_start,               \
                                         int logPE_stride, int PE_size, long *pSync) noexcept {    \
    SMA_OBSERVE_CALL(alltoall, "shmem_alltoalls" #BITS, nelems *BYTES,                             \
                     static_cast<shoal_team *>(nullptr));                                          \
    if (shoal_team *team =                                                                         \
            set_of(PE_start, logPE_stride, PE_size, pSync, "shmem_alltoalls" #BITS))               \
      shoal::coll::alltoalls(team, dest, source, dst, sst, nelems, BYTES,                          \
                             "shmem_alltoalls" #BITS);                                             \
  }                                                                                                \
  SMA_WEAK_ALIAS(shmem_alltoalls##BITS)

SMA_ACTIVE_SET_SIZED(32, 4)
SMA_ACTIVE_SET_SIZED(64, 8)

// ---- shmem_TYPENAME_OP_to_all ------------------------------------------------------------------
// Types: SMA_TO_ALL_*_TYPES of type_tables.def.
#define SMA_TO_ALL_FORM(TN, T, OPNAME, OP)                                                      \
  extern "C" void pshmem_##TN##_##OPNAME##_to_all(T *dest, const T *source, int nreduce,        \
                                                  int PE_start, int logPE_stride, int PE_size,  \
                                                  T *pWrk, long *pSync) noexcept {              \
    (void)pWrk;                                                                                 \
    SMA_OBSERVE_CALL(reduce, "shmem_" #TN "_" #OPNAME "_to_all",                                \
                     static_cast<std::size_t>(nreduce) * sizeof(T),                             \
                     static_cast<shoal_team *>(nullptr));                                       \
    to_all(dest, source, nreduce, sizeof(T), &combine<ReduceOp::OP, T>, PE_start, logPE_stride, \
           PE_size, pSync, "shmem_" #TN "_" #OPNAME "_to_all");                                 \
  }                                                                                             \
  SMA_WEAK_ALIAS(shmem_##TN##_##OPNAME##_to_all)

#define SMA_TO_ALL_BITWISE(TN, T)      \
  SMA_TO_ALL_FORM(TN, T, and, bit_and) \
  SMA_TO_ALL_FORM(TN, T, or, bit_or)   \
  SMA_TO_ALL_FORM(TN, T, xor, bit_xor)
#define SMA_TO_ALL_COMPARE(TN, T)  \
  SMA_TO_ALL_FORM(TN, T, max, max) \
  SMA_TO_ALL_FORM(TN, T, min, min)
#define SMA_TO_ALL_ARITH(TN, T)    \
  SMA_TO_ALL_FORM(TN, T, sum, sum) \
  SMA_TO_ALL_FORM(TN, T, prod, prod)

SMA_TO_ALL_INTEGER_TYPES(SMA_TO_ALL_BITWISE)
SMA_TO_ALL_INTEGER_TYPES(SMA_TO_ALL_COMPARE)
SMA_TO_ALL_FLOATING_TYPES(SMA_TO_ALL_COMPARE)
SMA_TO_ALL_INTEGER_TYPES(SMA_TO_ALL_ARITH)
SMA_TO_ALL_FLOATING_TYPES(SMA_TO_ALL_ARITH)
SMA_REDUCE_ARITH_COMPLEX_TYPES(SMA_TO_ALL_ARITH)
