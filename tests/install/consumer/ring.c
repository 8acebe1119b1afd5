/* A token travels around the ring of PEs: PE i waits for the value i, passes i+1 on, and PE 0
 * sees n when it has come back around. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  static long token = -1;
  shmem_init();
  int me = shmem_my_pe(), npes = shmem_n_pes();
  if (me == 0) {
    shmem_long_p(&token, 1, 1 % npes);
    shmem_long_wait_until(&token, SHMEM_CMP_EQ, npes);
  } else {
    shmem_long_wait_until(&token, SHMEM_CMP_EQ, me);
    shmem_long_p(&token, me + 1, (me + 1) % npes);
  }
  shmem_barrier_all();
  if (me == 0) printf("ring %s on %d PEs\n", token == npes ? "ok" : "broken", npes);
  shmem_finalize();
  return 0;
}
