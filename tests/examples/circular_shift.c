/* Circular shift, after the specification's example: each PE puts its number into a
 * symmetric variable on its right neighbour, so after the barrier every PE holds the
 * number of its left neighbour. Exits 1 if the value is wrong. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  static int dest; /* symmetric: static storage */
  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  int src = me;
  int right = (me + 1) % npes;
  int expected = (me + npes - 1) % npes;

  dest = -1;
  shmem_barrier_all();
  shmem_int_put(&dest, &src, 1, right);
  shmem_barrier_all();

  printf("PE %d of %d: received %d\n", me, npes, dest);
  fflush(stdout);
  int ok = (dest == expected);
  shmem_finalize();
  return ok ? 0 : 1;
}
