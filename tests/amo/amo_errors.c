/* AMOs on bad targets must end the whole job at once with a non-zero status and a message
 * naming the routine and the problem. Run as `oshrun -np N amo_errors CASE` (see
 * tests/cmake/expect_job.cmake): the last PE makes the bad call while the other PEs wait in a
 * barrier that can never complete, so the job only ends if the error ends every PE.
 *
 * Cases:
 *   misaligned_heap_remote   shmem_long_atomic_fetch_add on heap address + 4, target PE 0
 *   misaligned_heap_self     shmem_int_atomic_inc on heap address + 2, target the caller
 *   misaligned_data          shmem_uint64_atomic_fetch_or on a global + 4, target PE 0
 *   misaligned_nbi           shmem_ctx_long_atomic_fetch_add_nbi on heap address + 1, target PE 0
 *   nonsymmetric_stack       shmem_long_atomic_fetch_inc on a local variable, target PE 0
 *   nonsymmetric_malloc      shmem_int_atomic_set on malloc'ed memory, target the caller
 *   nonsymmetric_double      shmem_double_atomic_swap on a local double, target PE 0 */
#include <shmem.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t g_data[4] = {1, 2, 3, 4};

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  shmem_init();
  const int me = shmem_my_pe();
  const int bad_pe = shmem_n_pes() - 1;
  long *heap = (long *)shmem_malloc(4 * sizeof(long));
  shmem_barrier_all();
  if (me == bad_pe) {
    printf("PE %d: %s\n", me, which);
    fflush(stdout);
    volatile long sink = 0;
    if (strcmp(which, "misaligned_heap_remote") == 0) {
      sink = shmem_long_atomic_fetch_add((long *)((char *)heap + 4), 1, 0);
    } else if (strcmp(which, "misaligned_heap_self") == 0) {
      shmem_int_atomic_inc((int *)((char *)heap + 2), me);
    } else if (strcmp(which, "misaligned_data") == 0) {
      sink = (long)shmem_uint64_atomic_fetch_or((uint64_t *)((char *)g_data + 4), 1, 0);
    } else if (strcmp(which, "misaligned_nbi") == 0) {
      long fetched = 0;
      shmem_ctx_long_atomic_fetch_add_nbi(SHMEM_CTX_DEFAULT, &fetched, (long *)((char *)heap + 1),
                                          1, 0);
      shmem_quiet();
      sink = fetched;
    } else if (strcmp(which, "nonsymmetric_stack") == 0) {
      long local = 0;
      sink = shmem_long_atomic_fetch_inc(&local, 0);
    } else if (strcmp(which, "nonsymmetric_malloc") == 0) {
      int *p = (int *)malloc(64);
      shmem_int_atomic_set(p, 1, me);
      free(p);
    } else if (strcmp(which, "nonsymmetric_double") == 0) {
      double local = 0.0;
      sink = (long)shmem_double_atomic_swap(&local, 1.0, 0);
    } else {
      fprintf(stderr, "amo_errors: unknown case '%s'\n", which);
      return 2;
    }
    (void)sink;
    printf("UNREACHABLE: PE %d: the bad AMO (%s) returned\n", me, which);
    fflush(stdout);
  }
  shmem_barrier_all();
  printf("UNREACHABLE: PE %d passed the barrier after the bad AMO\n", me);
  shmem_finalize();
  return 0;
}
