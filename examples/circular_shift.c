/* The specification's circular shift: every PE puts its number into the next PE's symmetric
 * variable, then checks it received the number of the previous PE. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  static int dest; /* a static variable is symmetric: the same object on every PE */
  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  int src = me;
  shmem_int_put(&dest, &src, 1, (me + 1) % npes);
  shmem_barrier_all();
  int expected = (me + npes - 1) % npes;
  printf("PE %d: received %d from PE %d %s\n", me, dest, expected,
         dest == expected ? "ok" : "WRONG");
  int status = dest == expected ? 0 : 1;
  shmem_finalize();
  return status;
}
