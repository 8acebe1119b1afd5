/* Symmetric heap management with bad arguments. Freeing what is not a live heap block ends the
 * job with a message naming the routine and the address; with SMA_DEBUG set, a collective
 * allocation whose arguments differ between PEs ends it with a message naming both PEs and
 * values (fatal cases: every PE makes the call, these routines are collective); an allocation
 * that cannot be made returns NULL on every PE after a message (return cases; a full heap:
 * tests/core/heap_limit_test.cpp). See error_case.h.
 *
 * Cases:
 *   free_stack             shmem_free of a local variable
 *   free_malloced          shmem_free of malloc'ed memory
 *   free_global            shmem_free of a global (symmetric, but not heap)
 *   free_twice             shmem_free of a block already freed
 *   free_interior          shmem_free of a pointer into a block
 *   realloc_nonheap        shmem_realloc of a local variable
 *   malloc_sizes_differ    (SMA_DEBUG) shmem_malloc of 64 * (PE + 1) bytes
 *   calloc_sizes_differ    (SMA_DEBUG) shmem_calloc of PE + 1 elements
 *   align_differs          (SMA_DEBUG) shmem_align to 64 on PE 0, 128 on the others
 *   realloc_sizes_differ   (SMA_DEBUG) shmem_realloc to 100 + PE bytes
 *   free_pointers_differ   (SMA_DEBUG) shmem_free of a different block on PE 0
 *   calloc_overflow        (return) shmem_calloc(SIZE_MAX / 2, 4)
 *   align_not_power_of_two (return) shmem_align(48, 64)
 *   malloc_too_big         (return) shmem_malloc(SIZE_MAX)
 */
#include "error_case.h"

#include <stdint.h>

static long g_global[4];

static void free_stack(void) {
  long local[2];
  shmem_free(local);
}
static void free_malloced(void) { shmem_free(malloc(32)); }
static void free_global(void) { shmem_free(g_global); }
static void free_twice(void) {
  void *p = shmem_malloc(64);
  shmem_free(p);
  shmem_free(p);
}
static void free_interior(void) {
  long *p = (long *)shmem_malloc(64);
  shmem_free(p + 1);
}
static void realloc_nonheap(void) {
  long local[2];
  (void)shmem_realloc(local, 64);
}
static void malloc_sizes_differ(void) { (void)shmem_malloc(64 * (size_t)(shmem_my_pe() + 1)); }
static void calloc_sizes_differ(void) { (void)shmem_calloc((size_t)shmem_my_pe() + 1, 32); }
static void align_differs(void) { (void)shmem_align(shmem_my_pe() == 0 ? 64 : 128, 256); }
static void realloc_sizes_differ(void) {
  void *p = shmem_malloc(64);
  (void)shmem_realloc(p, 100 + (size_t)shmem_my_pe());
}
static void free_pointers_differ(void) {
  void *a = shmem_malloc(64), *b = shmem_malloc(64);
  shmem_free(shmem_my_pe() == 0 ? a : b);
}

static int calloc_overflow(void) {
  void *p = shmem_calloc(SIZE_MAX / 2, 4);
  return returned("shmem_calloc(SIZE_MAX / 2, 4) is NULL", p != NULL, p == NULL);
}
static int align_not_power_of_two(void) {
  void *p = shmem_align(48, 64);
  return returned("shmem_align(48, 64) is NULL", p != NULL, p == NULL);
}
static int malloc_too_big(void) {
  void *p = shmem_malloc(SIZE_MAX);
  return returned("shmem_malloc(SIZE_MAX) is NULL", p != NULL, p == NULL);
}

static const struct error_case cases[] = {
    {"free_stack", NULL, NULL, free_stack},
    {"free_malloced", NULL, NULL, free_malloced},
    {"free_global", NULL, NULL, free_global},
    {"free_twice", NULL, NULL, free_twice},
    {"free_interior", NULL, NULL, free_interior},
    {"realloc_nonheap", NULL, NULL, realloc_nonheap},
    {"malloc_sizes_differ", NULL, NULL, malloc_sizes_differ},
    {"calloc_sizes_differ", NULL, NULL, calloc_sizes_differ},
    {"align_differs", NULL, NULL, align_differs},
    {"realloc_sizes_differ", NULL, NULL, realloc_sizes_differ},
    {"free_pointers_differ", NULL, NULL, free_pointers_differ},
    {"calloc_overflow", NULL, calloc_overflow, NULL},
    {"align_not_power_of_two", NULL, align_not_power_of_two, NULL},
    {"malloc_too_big", NULL, malloc_too_big, NULL},
};

int main(int argc, char **argv) {
  const struct error_case *c = INIT_FOR_CASE(cases);
  return run_case(c);
}
