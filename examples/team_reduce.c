/* Teams and collectives: the PEs split into an even and an odd team, each team sums its PEs'
 * numbers with a reduction, and a world-wide fcollect gathers every PE's team sum. Every PE
 * checks the values; the program exits 1 on a mismatch. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  long *mine = shmem_malloc(sizeof(long));
  long *team_sum = shmem_malloc(sizeof(long));
  long *all_sums = shmem_malloc((size_t)npes * sizeof(long));

  /* Even PEs: start 0, stride 2; odd PEs: start 1, stride 2. Every PE calls both splits. */
  shmem_team_t even, odd = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &even);
  if (npes > 1) shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd);
  shmem_team_t my_team = me % 2 == 0 ? even : odd;

  *mine = me;
  shmem_long_sum_reduce(my_team, team_sum, mine, 1);
  shmem_long_fcollect(SHMEM_TEAM_WORLD, all_sums, team_sum, 1);

  int errors = 0;
  for (int pe = 0; pe < npes; ++pe) {
    long expected = 0;
    for (int q = pe % 2; q < npes; q += 2) expected += q;
    if (all_sums[pe] != expected) {
      printf("PE %d: team sum of PE %d is %ld, expected %ld\n", me, pe, all_sums[pe], expected);
      errors = 1;
    }
  }
  if (me == 0 && !errors)
    printf("team_reduce: %d PEs, even-team sum %ld, odd-team sum %ld: correct\n", npes, all_sums[0],
           npes > 1 ? all_sums[1] : 0L);
  if (even != SHMEM_TEAM_INVALID) shmem_team_destroy(even);
  if (odd != SHMEM_TEAM_INVALID) shmem_team_destroy(odd);
  shmem_free(all_sums);
  shmem_free(team_sum);
  shmem_free(mine);
  shmem_finalize();
  return errors;
}
