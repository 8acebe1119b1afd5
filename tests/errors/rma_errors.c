/* Puts, gets and shmem_ptr with bad arguments must end the whole job at once, with a message
 * naming the routine, the PE and the address or value (see error_case.h for how a case runs).
 * Run with SMA_SYMMETRIC_SIZE=1M: `whole` is then the entire user heap, so whole + 1M is its end.
 *
 * Cases (the last PE makes the call; N is the number of PEs):
 *   pe_high_put          shmem_long_put to PE N
 *   pe_negative_putmem   shmem_putmem to PE -1
 *   pe_high_g            shmem_int_g from PE N + 5
 *   pe_high_put_nbi      shmem_double_put_nbi to PE N
 *   pe_high_iput         shmem_long_iput to PE N
 *   pe_negative_ibget    shmem_ibget64 from PE -7
 *   pe_team_ctx          shmem_ctx_long_p on a context of a one-PE team, to team PE 1
 *   nonsymmetric_put     shmem_long_put into a local variable
 *   nonsymmetric_get     shmem_getmem from malloc'ed memory
 *   nonsymmetric_iget    shmem_int_iget from a local array
 *   past_heap_end_put    shmem_putmem of 64 bytes 8 bytes before the end of the heap
 *   past_heap_end_get    shmem_long_get_nbi of 2 longs at the last long of the heap
 *   count_negative_put   shmem_long_put of (size_t)-1 elements
 *   count_negative_getmem shmem_getmem of (size_t)-16 bytes
 *   count_overflow_get   shmem_long_get of SIZE_MAX / 8 + 2 elements (the byte size wraps to 8)
 *   count_overflow_put64 shmem_put64_nbi of 2^61 + 1 elements (wraps to 8 bytes)
 *   stride_negative_iput shmem_long_iput with dst -1
 *   stride_negative_iget shmem_long_iget with sst -2
 *   stride_overflow_iput shmem_long_iput with dst PTRDIFF_MAX / 4 over 3 elements
 *   block_overflow_ibput shmem_ibput32 with blocks of SIZE_MAX / 2 elements
 *   count_negative_iput  shmem_long_iput of (size_t)-1 elements
 *   stride_past_end_iput shmem_long_iput whose second element lies at the end of the heap
 *   ptr_pe_high          shmem_ptr to PE N
 *   ptr_nonsymmetric     shmem_ptr of a local variable
 */
#include "error_case.h"

#include <stdint.h>

static long *heap;  /* 8 longs at the start of the heap */
static char *whole; /* the entire user heap */
static shmem_ctx_t one_pe_ctx = SHMEM_CTX_INVALID;
static long src[8];

static int npes(void) { return shmem_n_pes(); }
static int other(void) { return 0; } /* a valid target PE */

static void pe_high_put(void) { shmem_long_put(heap, src, 4, npes()); }
static void pe_negative_putmem(void) { shmem_putmem(heap, src, 8, -1); }
static void pe_high_g(void) { (void)shmem_int_g((int *)heap, npes() + 5); }
static void pe_high_put_nbi(void) {
  shmem_double_put_nbi((double *)heap, (const double *)src, 2, npes());
  shmem_quiet();
}
static void pe_high_iput(void) { shmem_long_iput(heap, src, 2, 1, 2, npes()); }
static void pe_negative_ibget(void) { shmem_ibget64(src, heap, 1, 1, 2, 2, -7); }
static void pe_team_ctx(void) { shmem_ctx_long_p(one_pe_ctx, heap, 1, 1); }
static void nonsymmetric_put(void) {
  long local[4] = {0};
  shmem_long_put(local, src, 4, other());
}
static void nonsymmetric_get(void) {
  long *p = (long *)malloc(64);
  shmem_getmem(src, p, 64, other());
  free(p);
}
static void nonsymmetric_iget(void) {
  int local[8] = {0};
  shmem_int_iget((int *)src, local, 1, 2, 4, other());
}
static void past_heap_end_put(void) { shmem_putmem(whole + HEAP_BYTES - 8, src, 64, other()); }
static void past_heap_end_get(void) {
  shmem_long_get_nbi(src, (long *)(whole + HEAP_BYTES) - 1, 2, other());
  shmem_quiet();
}
static void count_negative_put(void) { shmem_long_put(heap, src, (size_t)-1, other()); }
static void count_negative_getmem(void) { shmem_getmem(src, heap, (size_t)-16, other()); }
static void count_overflow_get(void) { shmem_long_get(src, heap, SIZE_MAX / 8 + 2, other()); }
static void count_overflow_put64(void) {
  shmem_put64_nbi(heap, src, ((size_t)1 << 61) + 1, other());
  shmem_quiet();
}
static void stride_negative_iput(void) { shmem_long_iput(heap, src, -1, 1, 4, other()); }
static void stride_negative_iget(void) { shmem_long_iget(src, heap, 1, -2, 4, other()); }
static void stride_overflow_iput(void) {
  shmem_long_iput(heap, src, PTRDIFF_MAX / 4, 1, 3, other());
}
static void block_overflow_ibput(void) { shmem_ibput32(heap, src, 1, 1, SIZE_MAX / 2, 2, other()); }
static void count_negative_iput(void) { shmem_long_iput(heap, src, 1, 1, (size_t)-1, other()); }
static void stride_past_end_iput(void) {
  shmem_long_iput((long *)whole, src, HEAP_BYTES / sizeof(long), 1, 2, other());
}
static void ptr_pe_high(void) { (void)shmem_ptr(heap, npes()); }
static void ptr_nonsymmetric(void) {
  long local = 0;
  (void)shmem_ptr(&local, other());
}

static const struct error_case cases[] = {
    {"pe_high_put", pe_high_put, NULL},
    {"pe_negative_putmem", pe_negative_putmem, NULL},
    {"pe_high_g", pe_high_g, NULL},
    {"pe_high_put_nbi", pe_high_put_nbi, NULL},
    {"pe_high_iput", pe_high_iput, NULL},
    {"pe_negative_ibget", pe_negative_ibget, NULL},
    {"pe_team_ctx", pe_team_ctx, NULL},
    {"nonsymmetric_put", nonsymmetric_put, NULL},
    {"nonsymmetric_get", nonsymmetric_get, NULL},
    {"nonsymmetric_iget", nonsymmetric_iget, NULL},
    {"past_heap_end_put", past_heap_end_put, NULL},
    {"past_heap_end_get", past_heap_end_get, NULL},
    {"count_negative_put", count_negative_put, NULL},
    {"count_negative_getmem", count_negative_getmem, NULL},
    {"count_overflow_get", count_overflow_get, NULL},
    {"count_overflow_put64", count_overflow_put64, NULL},
    {"stride_negative_iput", stride_negative_iput, NULL},
    {"stride_negative_iget", stride_negative_iget, NULL},
    {"stride_overflow_iput", stride_overflow_iput, NULL},
    {"block_overflow_ibput", block_overflow_ibput, NULL},
    {"count_negative_iput", count_negative_iput, NULL},
    {"stride_past_end_iput", stride_past_end_iput, NULL},
    {"ptr_pe_high", ptr_pe_high, NULL},
    {"ptr_nonsymmetric", ptr_nonsymmetric, NULL},
};

int main(int argc, char **argv) {
  const struct error_case *c = INIT_FOR_CASE(cases);
  whole = whole_heap();
  heap = (long *)whole;
  one_pe_ctx = last_pe_team_ctx();
  shmem_barrier_all();
  return run_case(c);
}
