/* Collectives with bad arguments. An invalid team or an out-of-range root makes every PE's call
 * return nonzero after a message (return cases; destroyed teams: tests/team/team_errors.cpp);
 * a bad element count or a non-symmetric destination ends the whole job at once with a
 * message naming the routine and the count or address (fatal cases: the last PE calls alone,
 * so a missing check shows as a hang). See error_case.h; N is the number of PEs.
 *
 * Cases:
 *   broadcast_invalid_team   (return) shmem_long_broadcast on SHMEM_TEAM_INVALID
 *   collect_invalid_team     (return) shmem_int_collect on SHMEM_TEAM_INVALID
 *   alltoall_invalid_team    (return) shmem_alltoallmem on SHMEM_TEAM_INVALID
 *   reduce_invalid_team      (return) shmem_double_max_reduce on SHMEM_TEAM_INVALID
 *   broadcast_root_high      (return) shmem_long_broadcast with root N
 *   alltoalls_stride_zero    (return) shmem_long_alltoalls with dst 0
 *   broadcast_count_negative shmem_long_broadcast of (size_t)-1 elements
 *   reduce_count_overflow    shmem_long_sum_reduce of SIZE_MAX / 8 + 2 elements (wraps)
 *   fcollect_count_overflow  shmem_fcollectmem of SIZE_MAX / 2 bytes per PE
 *   alltoall_past_heap_end   shmem_long_alltoall of the whole heap per PE
 *   broadcast_dest_nonsymmetric shmem_long_broadcast into a local array
 *   collect_dest_nonsymmetric   shmem_long_collect into a local array
 */
#include "error_case.h"

#include <stdint.h>

static char *whole; /* the entire user heap */
static long *dest, *source;

static int broadcast_invalid_team(void) {
  const int rc = shmem_long_broadcast(SHMEM_TEAM_INVALID, dest, source, 4, 0);
  return returned("shmem_long_broadcast(SHMEM_TEAM_INVALID)", rc, rc != 0);
}
static int collect_invalid_team(void) {
  const int rc = shmem_int_collect(SHMEM_TEAM_INVALID, (int *)dest, (const int *)source, 2);
  return returned("shmem_int_collect(SHMEM_TEAM_INVALID)", rc, rc != 0);
}
static int alltoall_invalid_team(void) {
  const int rc = shmem_alltoallmem(SHMEM_TEAM_INVALID, dest, source, 8);
  return returned("shmem_alltoallmem(SHMEM_TEAM_INVALID)", rc, rc != 0);
}
static int reduce_invalid_team(void) {
  const int rc =
      shmem_double_max_reduce(SHMEM_TEAM_INVALID, (double *)dest, (const double *)source, 2);
  return returned("shmem_double_max_reduce(SHMEM_TEAM_INVALID)", rc, rc != 0);
}
static int broadcast_root_high(void) {
  const int rc = shmem_long_broadcast(SHMEM_TEAM_WORLD, dest, source, 4, shmem_n_pes());
  return returned("shmem_long_broadcast(root N)", rc, rc != 0);
}
static int alltoalls_stride_zero(void) {
  const int rc = shmem_long_alltoalls(SHMEM_TEAM_WORLD, dest, source, 0, 1, 1);
  return returned("shmem_long_alltoalls(dst 0)", rc, rc != 0);
}

static void broadcast_count_negative(void) {
  (void)shmem_long_broadcast(SHMEM_TEAM_WORLD, dest, source, (size_t)-1, 0);
}
static void reduce_count_overflow(void) {
  (void)shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dest, source, SIZE_MAX / 8 + 2);
}
static void fcollect_count_overflow(void) {
  (void)shmem_fcollectmem(SHMEM_TEAM_WORLD, dest, source, SIZE_MAX / 2);
}
static void alltoall_past_heap_end(void) {
  (void)shmem_long_alltoall(SHMEM_TEAM_WORLD, (long *)whole, (long *)whole,
                            HEAP_BYTES / sizeof(long));
}
static void broadcast_dest_nonsymmetric(void) {
  long local[4];
  (void)shmem_long_broadcast(SHMEM_TEAM_WORLD, local, source, 4, 0);
}
static void collect_dest_nonsymmetric(void) {
  long local[64];
  (void)shmem_long_collect(SHMEM_TEAM_WORLD, local, source, 1);
}

static const struct error_case cases[] = {
    {"broadcast_invalid_team", NULL, broadcast_invalid_team},
    {"collect_invalid_team", NULL, collect_invalid_team},
    {"alltoall_invalid_team", NULL, alltoall_invalid_team},
    {"reduce_invalid_team", NULL, reduce_invalid_team},
    {"broadcast_root_high", NULL, broadcast_root_high},
    {"alltoalls_stride_zero", NULL, alltoalls_stride_zero},
    {"broadcast_count_negative", broadcast_count_negative, NULL},
    {"reduce_count_overflow", reduce_count_overflow, NULL},
    {"fcollect_count_overflow", fcollect_count_overflow, NULL},
    {"alltoall_past_heap_end", alltoall_past_heap_end, NULL},
    {"broadcast_dest_nonsymmetric", broadcast_dest_nonsymmetric, NULL},
    {"collect_dest_nonsymmetric", collect_dest_nonsymmetric, NULL},
};

int main(int argc, char **argv) {
  const struct error_case *c = INIT_FOR_CASE(cases);
  whole = whole_heap();
  dest = (long *)whole;
  source = dest + 64;
  shmem_barrier_all();
  return run_case(c);
}
