/* SHMEM_DEBUG's collective-mismatch check (docs/errors.md): PEs of a team that enter different
 * collectives, or the same one with different sizes or roots, must end the job with an error
 * naming both calls instead of hanging or computing garbage. Every PE runs the case; the last
 * PE is the odd one out. Cases (argv[1]):
 *   different_collectives  the last PE broadcasts 8 bytes, the others reduce one long
 *   different_roots        a broadcast with root 1 on the last PE, root 0 elsewhere
 *   different_sizes        a sum of two longs on the last PE, of one elsewhere
 *   split_team_sizes       an fcollect of 2 vs 1 longs on a team made by a split
 *   different_strides      an alltoalls with dst stride 2 on the last PE, 1 elsewhere
 *   root_out_of_range      a broadcast whose root is out of range on the last PE only (its
 *                          error return would leave the others waiting: the check comes first)
 *   finalize_vs_barrier    the last PE calls shmem_finalize while the others barrier
 *   legal_collect          (return) collect with a different count on every PE is legal */
#include "error_case.h"

static long *src, *dst;

static int last(void) { return shmem_my_pe() == shmem_n_pes() - 1; }

static void different_collectives(void) {
  if (last())
    shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, 8, 0);
  else
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 1);
}

static void different_roots(void) {
  shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, 8, last() ? 1 : 0);
}

static void different_sizes(void) {
  shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, last() ? 2 : 1);
}

static void split_team_sizes(void) {
  shmem_team_t team;
  if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &team) != 0) {
    printf("SETUP FAILED: the split\n");
    shmem_global_exit(3);
  }
  shmem_long_fcollect(team, dst, src, last() ? 2 : 1);
}

static void different_strides(void) {
  shmem_long_alltoalls(SHMEM_TEAM_WORLD, dst, src, last() ? 2 : 1, 1, 1);
}

static void root_out_of_range(void) {
  shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, 8, last() ? shmem_n_pes() : 0);
}

static void finalize_vs_barrier(void) {
  if (last())
    shmem_finalize();
  else
    shmem_barrier_all();
}

static int legal_collect(void) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  for (int i = 0; i <= me; ++i) src[i] = me;
  shmem_long_collect(SHMEM_TEAM_WORLD, dst, src, (size_t)me + 1);
  int ok = 1, at = 0;
  for (int pe = 0; pe < n; ++pe)
    for (int i = 0; i <= pe; ++i) ok = ok && dst[at++] == pe;
  return returned("collect of me+1 longs under SHMEM_DEBUG", dst[at - 1], ok);
}

static const struct error_case cases[] = {
    {"different_collectives", NULL, NULL, different_collectives},
    {"different_roots", NULL, NULL, different_roots},
    {"different_sizes", NULL, NULL, different_sizes},
    {"split_team_sizes", NULL, NULL, split_team_sizes},
    {"different_strides", NULL, NULL, different_strides},
    {"root_out_of_range", NULL, NULL, root_out_of_range},
    {"finalize_vs_barrier", NULL, NULL, finalize_vs_barrier},
    {"legal_collect", NULL, legal_collect, NULL},
};

int main(int argc, char **argv) {
  const struct error_case *c = INIT_FOR_CASE(cases);
  src = shmem_calloc(64, sizeof(long));
  dst = shmem_calloc(64 * 8, sizeof(long));
  return run_case(c);
}
