// shmem_team_ptr on the predefined teams: a usable pointer for PEs of this node, numbered
// within the team; NULL outside the team and for SHMEM_TEAM_INVALID.
#include "mpp_test.hpp"

namespace {
long g_global = 0;
}

TEST(TeamPtr, WorldMatchesShmemPtr) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  long *heap = static_cast<long *>(shmem_malloc(sizeof(long)));
  *heap = 1000 + me;
  shmem_barrier_all();
  for (int pe = 0; pe < n; ++pe) {
    EXPECT_EQ(shmem_team_ptr(SHMEM_TEAM_WORLD, heap, pe), shmem_ptr(heap, pe)) << "pe " << pe;
    if (long *p = static_cast<long *>(shmem_team_ptr(SHMEM_TEAM_WORLD, heap, pe)))
      EXPECT_EQ(*p, 1000 + pe);
  }
  EXPECT_EQ(shmem_team_ptr(SHMEM_TEAM_WORLD, heap, n), nullptr);
  EXPECT_EQ(shmem_team_ptr(SHMEM_TEAM_WORLD, heap, -1), nullptr);
  EXPECT_EQ(shmem_team_ptr(SHMEM_TEAM_INVALID, heap, 0), nullptr);
  // Own globals are reachable directly; those of other PEs are not mapped here.
  EXPECT_EQ(shmem_team_ptr(SHMEM_TEAM_WORLD, &g_global, me), &g_global);
  shmem_barrier_all();
  shmem_free(heap);
}

TEST(TeamPtr, SharedTeamReachesEveryMember) {
  // Under oshrun the shared team is the whole job; across hosts (tests/multihost) the PEs of
  // this host, numbered within the team.
  long *heap = static_cast<long *>(shmem_malloc(sizeof(long)));
  *heap = 7 * shmem_my_pe();
  shmem_barrier_all();
  void *self = shmem_team_ptr(SHMEM_TEAM_SHARED, heap, shmem_team_my_pe(SHMEM_TEAM_SHARED));
  EXPECT_EQ(self, heap);
  const int members = shmem_team_n_pes(SHMEM_TEAM_SHARED);
  ASSERT_GE(members, 1);
  for (int pe = 0; pe < members; ++pe) {
    const int world_pe = shmem_team_translate_pe(SHMEM_TEAM_SHARED, pe, SHMEM_TEAM_WORLD);
    ASSERT_GE(world_pe, 0) << "shared team PE " << pe;
    long *p = static_cast<long *>(shmem_team_ptr(SHMEM_TEAM_SHARED, heap, pe));
    if (getenv("SMA_SHARED_MEMORY") && std::string(getenv("SMA_SHARED_MEMORY")) == "0" &&
        world_pe != shmem_my_pe()) {
      EXPECT_EQ(p, nullptr) << "without shared memory only this PE is mapped";
    } else {
      ASSERT_NE(p, nullptr) << "shared team PE " << pe << " (world PE " << world_pe << ")";
      EXPECT_EQ(*p, 7 * world_pe);
    }
  }
  EXPECT_EQ(shmem_team_ptr(SHMEM_TEAM_SHARED, heap, members), nullptr);
  shmem_barrier_all();
  shmem_free(heap);
}
