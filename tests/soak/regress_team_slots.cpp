// Regression test for a failure the soak found (seed 204 at 8 PEs, SMA_TEAMS_MAX=6): a split
// failed with "no free team slot" although no PE had SMA_TEAMS_MAX teams alive. A split took a
// slot free on every PE of the parent, but only the new team's members mark it as used, so
// disjoint teams made one after the other took different slots on different PEs and the parent's
// union filled up long before any PE reached the limit. Now only the members' slots count.
// CTest runs it on 2 PEs with SMA_TEAMS_MAX=2: {0}, then {1}, then {0, 1} must all succeed, and
// a fourth split while each PE holds two teams must fail cleanly (return non-zero on every PE).
#include <shmem.h>

#include <cstdio>

int main() {
  shmem_init();
  const int me = shmem_my_pe();
  if (shmem_n_pes() != 2) {
    if (me == 0) std::printf("regress_team_slots: run with 2 PEs and SMA_TEAMS_MAX=2\n");
    shmem_finalize();
    return 2;
  }
  // {PE 0} and {PE 1}: each PE is a member of exactly one of them.
  shmem_team_t only0 = SHMEM_TEAM_INVALID, only1 = SHMEM_TEAM_INVALID, both = SHMEM_TEAM_INVALID;
  const int rc0 = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, nullptr, 0, &only0);
  const int rc1 = shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, 1, nullptr, 0, &only1);
  // Each PE now holds one split team; SMA_TEAMS_MAX=2 allows one more.
  const int rc2 = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 2, nullptr, 0, &both);
  std::printf("regress_team_slots: PE %d: splits returned %d %d %d (%s)\n", me, rc0, rc1, rc2,
              rc2 == 0 ? "ok" : "the third split failed with one split team alive on this PE");
  // Each PE now holds two split teams: a fourth split has no slot and must say so on every PE.
  shmem_team_t extra = SHMEM_TEAM_INVALID;
  const int rc3 = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 2, nullptr, 0, &extra);
  const bool rc3_ok = rc3 != 0 && extra == SHMEM_TEAM_INVALID;
  if (!rc3_ok)
    std::printf("regress_team_slots: PE %d: a split beyond SMA_TEAMS_MAX returned %d\n", me, rc3);
  std::fflush(stdout);
  if (both != SHMEM_TEAM_INVALID) shmem_team_destroy(both);
  if (only0 != SHMEM_TEAM_INVALID) shmem_team_destroy(only0);
  if (only1 != SHMEM_TEAM_INVALID) shmem_team_destroy(only1);
  shmem_finalize();
  return rc0 == 0 && rc1 == 0 && rc2 == 0 && rc3_ok ? 0 : 1;
}
