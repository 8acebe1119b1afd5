/* Initialization as OpenSHMEM 1.6 defines it (issue 17): shmem_init may be called more than
 * once and the library finalizes only at the matching shmem_finalize; after the final one a new
 * shmem_init starts it again, with heap, teams and contexts anew. Every PE checks values after
 * each phase: puts to the heap and to a global of the next PE, a broadcast and a reduction, a
 * context, and shmem_query_initialized. Exits 0 only when every check held on this PE. */
#include <shmem.h>

#include <stdio.h>

static long global_word; /* a global: the data segment must be symmetric again after re-init */
static int failures;

static void expect(int ok, const char *what, int round) {
  if (!ok) {
    printf("FAILED pe %d, round %d: %s\n", shmem_my_pe(), round, what);
    fflush(stdout);
    ++failures;
  }
}

static int initialized(void) {
  int flag = -1;
  shmem_query_initialized(&flag);
  return flag;
}

/* One life of the library: values checked through the heap, a global, collectives, a context. */
static void exercise(int round) {
  const int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
  long *heap = shmem_calloc(4, sizeof(long));
  expect(heap != NULL, "shmem_calloc", round);
  if (heap == NULL) return;
  global_word = 0;
  shmem_barrier_all();
  shmem_long_p(&heap[0], 1000 * round + me, next);
  shmem_long_p(&global_word, 2000 * round + me, next);
  shmem_barrier_all();
  expect(heap[0] == 1000 * round + prev, "put to the heap of the next PE", round);
  expect(global_word == 2000 * round + prev, "put to a global of the next PE", round);

  heap[1] = me == 0 ? 77 * round : -1;
  shmem_long_broadcast(SHMEM_TEAM_WORLD, &heap[2], &heap[1], 1, 0);
  if (me != 0) expect(heap[2] == 77 * round, "broadcast", round);
  heap[1] = me + 1;
  shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &heap[3], &heap[1], 1);
  expect(heap[3] == (long)n * (n + 1) / 2, "sum reduction", round);

  shmem_ctx_t ctx;
  expect(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create", round);
  shmem_barrier_all();
  shmem_ctx_long_atomic_add(ctx, &heap[0], 1, next);
  shmem_ctx_quiet(ctx);
  shmem_ctx_destroy(ctx);
  shmem_barrier_all();
  expect(heap[0] == 1000 * round + prev + 1, "AMO on a context", round);
  shmem_free(heap);
}

int main(void) {
  expect(initialized() == 0, "not initialized before the first shmem_init", 0);
  shmem_init();
  shmem_init(); /* nested: counts, nothing else */
  expect(initialized() == 1, "initialized after two shmem_init", 1);
  exercise(1);
  shmem_finalize(); /* the inner one: the library keeps running */
  expect(initialized() == 1, "still initialized after the inner shmem_finalize", 1);
  exercise(2);
  shmem_finalize(); /* the final one */
  expect(initialized() == 0, "not initialized after the final shmem_finalize", 2);

  int provided = -1;
  expect(shmem_init_thread(SHMEM_THREAD_SINGLE, &provided) == 0, "shmem_init_thread again", 3);
  expect(initialized() == 1, "initialized again", 3);
  exercise(3);
  shmem_finalize();

  shmem_init(); /* and once more */
  exercise(4);
  const int me = shmem_my_pe();
  shmem_finalize();
  if (failures == 0 && me == 0) printf("re-init: 4 rounds passed\n");
  return failures == 0 ? 0 : 1;
}
