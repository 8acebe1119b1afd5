/* AMOs with a bad PE or context must end the whole job at once, with a message naming the
 * routine and the PE or context (misaligned and non-symmetric targets: tests/amo/amo_errors.c).
 * See error_case.h for how a case runs; N is the number of PEs.
 *
 * Cases:
 *   pe_high_fetch_add     shmem_long_atomic_fetch_add on PE N
 *   pe_negative_inc       shmem_int_atomic_inc on PE -1
 *   pe_high_fetch_nbi     shmem_uint64_atomic_fetch_nbi on PE N + 3
 *   pe_high_compare_swap  shmem_ctx_int_atomic_compare_swap on PE N
 *   pe_team_ctx           shmem_ctx_long_atomic_add on a context of a one-PE team, team PE 1
 *   ctx_invalid           shmem_ctx_long_atomic_fetch on SHMEM_CTX_INVALID
 *   ctx_destroyed         shmem_ctx_int_atomic_set on a destroyed context
 */
#include "error_case.h"

#include <stdint.h>

static long *heap;
static shmem_ctx_t one_pe_ctx = SHMEM_CTX_INVALID;

static void pe_high_fetch_add(void) { (void)shmem_long_atomic_fetch_add(heap, 1, shmem_n_pes()); }
static void pe_negative_inc(void) { shmem_int_atomic_inc((int *)heap, -1); }
static void pe_high_fetch_nbi(void) {
  uint64_t fetched = 0;
  shmem_uint64_atomic_fetch_nbi(&fetched, (uint64_t *)heap, shmem_n_pes() + 3);
  shmem_quiet();
}
static void pe_high_compare_swap(void) {
  (void)shmem_ctx_int_atomic_compare_swap(SHMEM_CTX_DEFAULT, (int *)heap, 0, 1, shmem_n_pes());
}
static void pe_team_ctx(void) { shmem_ctx_long_atomic_add(one_pe_ctx, heap, 1, 1); }
static void ctx_invalid(void) { (void)shmem_ctx_long_atomic_fetch(SHMEM_CTX_INVALID, heap, 0); }
static void ctx_destroyed(void) {
  shmem_ctx_t ctx;
  if (shmem_ctx_create(0, &ctx) != 0) {
    printf("SETUP FAILED: shmem_ctx_create\n");
    return;
  }
  shmem_ctx_destroy(ctx);
  shmem_ctx_int_atomic_set(ctx, (int *)heap, 1, 0);
}

static const struct error_case cases[] = {
    {"pe_high_fetch_add", pe_high_fetch_add, NULL},
    {"pe_negative_inc", pe_negative_inc, NULL},
    {"pe_high_fetch_nbi", pe_high_fetch_nbi, NULL},
    {"pe_high_compare_swap", pe_high_compare_swap, NULL},
    {"pe_team_ctx", pe_team_ctx, NULL},
    {"ctx_invalid", ctx_invalid, NULL},
    {"ctx_destroyed", ctx_destroyed, NULL},
};

int main(int argc, char **argv) {
  const struct error_case *c = INIT_FOR_CASE(cases);
  heap = (long *)shmem_calloc(4, sizeof(long));
  one_pe_ctx = last_pe_team_ctx();
  shmem_barrier_all();
  return run_case(c);
}
