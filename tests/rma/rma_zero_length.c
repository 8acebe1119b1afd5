/* Zero-length operations (issue 17): with nelems == 0 every RMA, nbi, strided, put-with-signal
 * and collective routine is a no-op whatever its addresses, NULL included (as in Sandia
 * OpenSHMEM); put-with-signal still delivers its signal. Each PE aims the point-to-point calls
 * at the next PE. Exits 0 only when every PE got through every call and the checks held; a
 * call that treats NULL as an address ends the job with an error instead. */
#include <shmem.h>

#include <stdint.h>
#include <stdio.h>

static long psync[SHMEM_REDUCE_SYNC_SIZE + SHMEM_BCAST_SYNC_SIZE + SHMEM_COLLECT_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];

static int failures;

static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAILED pe %d: %s\n", shmem_my_pe(), what);
    ++failures;
  }
}

int main(void) {
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n;
  for (size_t i = 0; i < sizeof psync / sizeof psync[0]; ++i) psync[i] = SHMEM_SYNC_VALUE;
  long *heap = shmem_calloc(4, sizeof(long));
  uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
  heap[0] = 7;
  shmem_barrier_all();

  /* Contiguous, typed, sized, nbi, ctx. */
  shmem_putmem(NULL, NULL, 0, next);
  shmem_getmem(NULL, NULL, 0, next);
  shmem_long_put(NULL, NULL, 0, next);
  shmem_long_get(NULL, NULL, 0, next);
  shmem_put64(NULL, NULL, 0, next);
  shmem_get32(NULL, NULL, 0, next);
  shmem_putmem_nbi(NULL, NULL, 0, next);
  shmem_long_get_nbi(NULL, NULL, 0, next);
  shmem_ctx_double_put(SHMEM_CTX_DEFAULT, NULL, NULL, 0, next);
  /* Strided: no blocks, or empty blocks. */
  shmem_long_iput(NULL, NULL, 1, 1, 0, next);
  shmem_long_iget(NULL, NULL, 1, 1, 0, next);
  shmem_ibput64(NULL, NULL, 1, 1, 4, 0, next);
  shmem_ibget32(NULL, NULL, 1, 1, 0, 3, next);
  /* Put-with-signal without data: the signal still arrives. */
  shmem_putmem_signal(NULL, NULL, 0, sig, 1, SHMEM_SIGNAL_ADD, next);
  shmem_putmem_signal_nbi(NULL, NULL, 0, sig, 1, SHMEM_SIGNAL_ADD, next);
  shmem_quiet();
  shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 2);
  expect(*sig == 2, "put-with-signal of 0 bytes delivered its signal");

  /* Collectives, team and active-set forms. */
  shmem_long_broadcast(SHMEM_TEAM_WORLD, NULL, NULL, 0, 0);
  shmem_long_collect(SHMEM_TEAM_WORLD, NULL, NULL, 0);
  shmem_long_fcollect(SHMEM_TEAM_WORLD, NULL, NULL, 0);
  shmem_long_alltoall(SHMEM_TEAM_WORLD, NULL, NULL, 0);
  shmem_long_alltoalls(SHMEM_TEAM_WORLD, NULL, NULL, 1, 1, 0);
  shmem_long_sum_reduce(SHMEM_TEAM_WORLD, NULL, NULL, 0);
  shmem_broadcast64(NULL, NULL, 0, 0, 0, 0, n, psync);
  shmem_barrier_all();
  shmem_fcollect64(NULL, NULL, 0, 0, 0, n, psync);
  shmem_barrier_all();
  shmem_long_sum_to_all(NULL, NULL, 0, 0, 0, n, pwrk, psync);
  shmem_barrier_all();

  /* Nothing moved. */
  expect(heap[0] == 7, "heap untouched");
  shmem_barrier_all();
  const long total = shmem_long_atomic_fetch_add(&heap[1], 1, 0);
  (void)total;
  shmem_barrier_all();
  if (me == 0) expect(heap[1] == n, "every PE got through every call");
  shmem_free(sig);
  shmem_free(heap);
  shmem_finalize();
  if (failures == 0 && me == 0) printf("zero-length: all calls were no-ops on %d PEs\n", n);
  return failures == 0 ? 0 : 1;
}
