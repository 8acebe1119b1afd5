/* Signaling and point-to-point synchronization with bad arguments must end the whole job at
 * once, with a message naming the routine and the PE or address, never hang (bad comparison
 * and signal operators, calls outside init..finalize: tests/sync/sync_errors.c). See
 * error_case.h for how a case runs; N is the number of PEs.
 *
 * Cases:
 *   pe_high_put_signal       shmem_long_put_signal to PE N
 *   pe_negative_signal_add   shmem_signal_add on PE -1
 *   pe_high_ctx_signal_set   shmem_ctx_signal_set on PE N
 *   sig_nonsymmetric         shmem_putmem_signal with a local signal word
 *   sig_misaligned           shmem_int_put_signal_nbi with the signal word at heap + 4
 *   dest_nonsymmetric_nbi    shmem_put64_signal_nbi into a local array
 *   count_negative_signal    shmem_putmem_signal of (size_t)-1 bytes
 *   count_overflow_signal    shmem_long_put_signal of SIZE_MAX / 8 + 2 elements (wraps)
 *   wait_nonsymmetric        shmem_long_wait_until on a local variable (would wait forever)
 *   signal_wait_nonsymmetric shmem_signal_wait_until on a local signal word
 *   test_nonsymmetric        shmem_int_test on malloc'ed memory
 *   wait_misaligned          shmem_long_wait_until on heap + 4
 *   wait_all_count_negative  shmem_long_wait_until_all over (size_t)-1 elements
 *   test_some_past_heap_end  shmem_int_test_some over 4 ints at the last int of the heap
 */
#include "error_case.h"

#include <stdint.h>

static char *whole; /* the entire user heap */
static long *heap;
static uint64_t *sig;
static long src[8];

static void pe_high_put_signal(void) {
  shmem_long_put_signal(heap, src, 2, sig, 1, SHMEM_SIGNAL_SET, shmem_n_pes());
}
static void pe_negative_signal_add(void) { shmem_signal_add(sig, 1, -1); }
static void pe_high_ctx_signal_set(void) {
  shmem_ctx_signal_set(SHMEM_CTX_DEFAULT, sig, 1, shmem_n_pes());
}
static void sig_nonsymmetric(void) {
  uint64_t local = 0;
  shmem_putmem_signal(heap, src, 8, &local, 1, SHMEM_SIGNAL_ADD, 0);
}
static void sig_misaligned(void) {
  shmem_int_put_signal_nbi((int *)heap, (const int *)src, 2, (uint64_t *)((char *)sig + 4), 1,
                           SHMEM_SIGNAL_SET, 0);
  shmem_quiet();
}
static void dest_nonsymmetric_nbi(void) {
  uint64_t local[4];
  shmem_put64_signal_nbi(local, src, 4, sig, 1, SHMEM_SIGNAL_SET, 0);
  shmem_quiet();
}
static void count_negative_signal(void) {
  shmem_putmem_signal(heap, src, (size_t)-1, sig, 1, SHMEM_SIGNAL_SET, 0);
}
static void count_overflow_signal(void) {
  shmem_long_put_signal(heap, src, SIZE_MAX / 8 + 2, sig, 1, SHMEM_SIGNAL_SET, 0);
}
static void wait_nonsymmetric(void) {
  long local = 0;
  shmem_long_wait_until(&local, SHMEM_CMP_NE, 0);
}
static void signal_wait_nonsymmetric(void) {
  uint64_t local = 0;
  (void)shmem_signal_wait_until(&local, SHMEM_CMP_EQ, 1);
}
static void test_nonsymmetric(void) {
  int *p = (int *)calloc(4, sizeof(int));
  (void)shmem_int_test(p, SHMEM_CMP_EQ, 1);
  free(p);
}
static void wait_misaligned(void) {
  shmem_long_wait_until((long *)((char *)heap + 4), SHMEM_CMP_EQ, 0);
}
static void wait_all_count_negative(void) {
  shmem_long_wait_until_all(heap, (size_t)-1, NULL, SHMEM_CMP_EQ, 0);
}
static void test_some_past_heap_end(void) {
  size_t indices[4];
  (void)shmem_int_test_some((int *)(whole + HEAP_BYTES) - 1, 4, indices, NULL, SHMEM_CMP_EQ, 0);
}

static const struct error_case cases[] = {
    {"pe_high_put_signal", pe_high_put_signal, NULL},
    {"pe_negative_signal_add", pe_negative_signal_add, NULL},
    {"pe_high_ctx_signal_set", pe_high_ctx_signal_set, NULL},
    {"sig_nonsymmetric", sig_nonsymmetric, NULL},
    {"sig_misaligned", sig_misaligned, NULL},
    {"dest_nonsymmetric_nbi", dest_nonsymmetric_nbi, NULL},
    {"count_negative_signal", count_negative_signal, NULL},
    {"count_overflow_signal", count_overflow_signal, NULL},
    {"wait_nonsymmetric", wait_nonsymmetric, NULL},
    {"signal_wait_nonsymmetric", signal_wait_nonsymmetric, NULL},
    {"test_nonsymmetric", test_nonsymmetric, NULL},
    {"wait_misaligned", wait_misaligned, NULL},
    {"wait_all_count_negative", wait_all_count_negative, NULL},
    {"test_some_past_heap_end", test_some_past_heap_end, NULL},
};

int main(int argc, char **argv) {
  const struct error_case *c = INIT_FOR_CASE(cases);
  whole = whole_heap();
  heap = (long *)whole;
  sig = (uint64_t *)(whole + 256);
  shmem_barrier_all();
  return run_case(c);
}
