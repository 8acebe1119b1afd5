/* Misuse of the lock routines must end the job with an error that names the routine and the
 * PE. Run as `lock_misuse MODE`; the test passes when the expected message appears (see
 * CMakeLists.txt). The last PE misbehaves; the others wait in a barrier until the job ends. */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

long g_lock = 0;

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "before_init") == 0) {
    shmem_set_lock(&g_lock);
    return 0;
  }
  shmem_init();
  const int me = shmem_my_pe(), last = shmem_n_pes() - 1;
  long *heap_lock = shmem_calloc(2, sizeof(long));
  if (strcmp(mode, "clear_other") == 0) {
    /* PE 0 holds the lock; the last PE (another PE when there are several) clears it. */
    if (me == 0) shmem_set_lock(&g_lock);
    shmem_barrier_all();
    if (me == last) shmem_clear_lock(&g_lock);
  } else if (me == last) {
    long on_stack = 0;
    if (strcmp(mode, "clear_unheld") == 0) shmem_clear_lock(&g_lock);
    if (strcmp(mode, "not_symmetric") == 0) shmem_set_lock(&on_stack);
    if (strcmp(mode, "misaligned") == 0) shmem_set_lock((long *)((char *)heap_lock + 4));
    if (strcmp(mode, "set_twice") == 0) {
      shmem_set_lock(heap_lock);
      shmem_set_lock(heap_lock);
    }
    if (strcmp(mode, "not_zeroed") == 0) {
      *heap_lock = -1;
      shmem_set_lock(heap_lock);
    }
  }
  shmem_barrier_all();
  printf("PE %d: no error was reported for %s\n", me, mode);
  shmem_finalize();
  return 0;
}
