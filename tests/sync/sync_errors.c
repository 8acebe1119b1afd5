/* Misuse of the synchronization and signaling routines must end the whole job at once with a
 * message naming the routine and the problem. Run as `oshrun -np 2 sync_errors CASE`: the last
 * PE makes the bad call while the other PEs wait in a barrier that can never complete, so the
 * job only ends if the error ends every PE.
 *
 * Cases:
 *   bad_cmp            shmem_int_wait_until with cmp 42
 *   bad_cmp_test_any   shmem_long_test_any with cmp 0
 *   bad_cmp_signal     shmem_signal_wait_until with cmp -1
 *   bad_sig_op         shmem_putmem_signal with sig_op 7
 *   bad_sig_op_nbi     shmem_ctx_int_put_signal_nbi with sig_op -3
 *   before_init        shmem_long_wait_until before shmem_init
 *   after_finalize     shmem_int_test after shmem_finalize
 *   fetch_nonsymmetric shmem_signal_fetch on a local variable */
#include <shmem.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static long g_word;

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  if (strcmp(which, "before_init") == 0) {
    shmem_long_wait_until(&g_word, SHMEM_CMP_EQ, 0);
    puts("UNREACHABLE");
    return 0;
  }
  shmem_init();
  const int me = shmem_my_pe();
  const int bad_pe = shmem_n_pes() - 1;
  uint64_t *sig = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
  int *ints = (int *)shmem_calloc(4, sizeof(int));
  long *longs = (long *)shmem_calloc(4, sizeof(long));
  shmem_barrier_all();
  if (strcmp(which, "after_finalize") == 0) {
    shmem_finalize();
    if (me == bad_pe)
      (void)shmem_int_test(&ints[0], SHMEM_CMP_EQ, 0);
    else
      return 0;
    puts("UNREACHABLE");
    return 0;
  }
  if (me == bad_pe) {
    printf("PE %d: %s\n", me, which);
    fflush(stdout);
    if (strcmp(which, "bad_cmp") == 0) {
      shmem_int_wait_until(&ints[0], 42, 0);
    } else if (strcmp(which, "bad_cmp_test_any") == 0) {
      (void)shmem_long_test_any(longs, 4, NULL, 0, 0);
    } else if (strcmp(which, "bad_cmp_signal") == 0) {
      (void)shmem_signal_wait_until(sig, -1, 0);
    } else if (strcmp(which, "bad_sig_op") == 0) {
      shmem_putmem_signal(ints, longs, 4, sig, 1, 7, 0);
    } else if (strcmp(which, "bad_sig_op_nbi") == 0) {
      shmem_ctx_int_put_signal_nbi(SHMEM_CTX_DEFAULT, ints, ints, 2, sig, 1, -3, 0);
    } else if (strcmp(which, "fetch_nonsymmetric") == 0) {
      uint64_t local = 0;
      (void)shmem_signal_fetch(&local);
    } else {
      fprintf(stderr, "sync_errors: unknown case '%s'\n", which);
      return 2;
    }
    puts("UNREACHABLE");
    fflush(stdout);
  }
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
