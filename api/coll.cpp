// Collective entry points over teams (specification section "Collective Routines"): the world
// barrier and sync, and the typed and mem forms of broadcast, collect, fcollect, alltoall and
// alltoalls, stamped out from the RMA type table. Each returns what the collective returns:
// 0, or nonzero after the collective logged why (an invalid or destroyed team, bad arguments).
// Reductions and scans are in reduce.cpp, the active-set forms in active_set.cpp.
#include "api/export.hpp"
#include "observe/observe.hpp"
#include "collectives/collectives.hpp"
#include "types/type_tables.def"

extern "C" void pshmem_barrier_all(void) noexcept {
  SMA_OBSERVE_CALL(barrier, "shmem_barrier_all", 0, &shoal_team_world);
  shoal::coll::barrier_all("shmem_barrier_all");
}
SMA_WEAK_ALIAS(shmem_barrier_all)
extern "C" void pshmem_sync_all(void) noexcept {
  SMA_OBSERVE_CALL(barrier, "shmem_sync_all", 0, &shoal_team_world);
  shoal::coll::sync_all("shmem_sync_all");
}
SMA_WEAK_ALIAS(shmem_sync_all)

// NAME is the routine's name after "shmem_" and "shmem_TYPENAME_" alike; T the element type
// (void for the mem forms, whose elements are bytes); SIZE its size in bytes.
#define SMA_TEAM_COLL_FORMS(PNAME, NAME, T, SIZE)                                             \
  extern "C" int pshmem_##PNAME##broadcast##NAME(shmem_team_t team, T *dest, const T *source, \
                                                 size_t nelems, int PE_root) noexcept {       \
    SMA_OBSERVE_CALL(broadcast, "shmem_" #PNAME "broadcast" #NAME, nelems *SIZE, team);       \
    return shoal::coll::broadcast(team, dest, source, nelems, SIZE, PE_root,                  \
                                  "shmem_" #PNAME "broadcast" #NAME);                         \
  }                                                                                           \
  SMA_WEAK_ALIAS(shmem_##PNAME##broadcast##NAME)                                              \
  extern "C" int pshmem_##PNAME##collect##NAME(shmem_team_t team, T *dest, const T *source,   \
                                               size_t nelems) noexcept {                      \
    SMA_OBSERVE_CALL(collect, "shmem_" #PNAME "collect" #NAME, nelems *SIZE, team);           \
    return shoal::coll::collect(team, dest, source, nelems, SIZE,                             \
                                "shmem_" #PNAME "collect" #NAME);                             \
  }                                                                                           \
  SMA_WEAK_ALIAS(shmem_##PNAME##collect##NAME)                                                \
  extern "C" int pshmem_##PNAME##fcollect##NAME(shmem_team_t team, T *dest, const T *source,  \
                                                size_t nelems) noexcept {                     \
    SMA_OBSERVE_CALL(fcollect, "shmem_" #PNAME "fcollect" #NAME, nelems *SIZE, team);         \
    return shoal::coll::fcollect(team, dest, source, nelems, SIZE,                            \
                                 "shmem_" #PNAME "fcollect" #NAME);                           \
  }                                                                                           \
  SMA_WEAK_ALIAS(shmem_##PNAME##fcollect##NAME)                                               \
  extern "C" int pshmem_##PNAME##alltoall##NAME(shmem_team_t team, T *dest, const T *source,  \
                                                size_t nelems) noexcept {                     \
    SMA_OBSERVE_CALL(alltoall, "shmem_" #PNAME "alltoall" #NAME, nelems *SIZE, team);         \
    return shoal::coll::alltoall(team, dest, source, nelems, SIZE,                            \
                                 "shmem_" #PNAME "alltoall" #NAME);                           \
  }                                                                                           \
  SMA_WEAK_ALIAS(shmem_##PNAME##alltoall##NAME)                                               \
  extern "C" int pshmem_##PNAME##alltoalls##NAME(shmem_team_t team, T *dest, const T *source, \
                                                 ptrdiff_t dst, ptrdiff_t sst,                \
                                                 size_t nelems) noexcept {                    \
    SMA_OBSERVE_CALL(alltoall, "shmem_" #PNAME "alltoalls" #NAME, nelems *SIZE, team);        \
    return shoal::coll::alltoalls(team, dest, source, dst, sst, nelems, SIZE,                 \
                                  "shmem_" #PNAME "alltoalls" #NAME);                         \
  }                                                                                           \
  SMA_WEAK_ALIAS(shmem_##PNAME##alltoalls##NAME)

// ---- typed: shmem_TYPENAME_{broadcast,collect,fcollect,alltoall,alltoalls} -------------------
#define SMA_TYPED_TEAM_COLL(TN, T) SMA_TEAM_COLL_FORMS(TN##_, , T, sizeof(T))
SMA_RMA_TYPES(SMA_TYPED_TEAM_COLL)

// ---- bytes: shmem_{broadcast,collect,fcollect,alltoall,alltoalls}mem ---------------------------
SMA_TEAM_COLL_FORMS(, mem, void, 1)
