/* error_after_start: PE 0 makes a bad call (a put to a PE that does not exist) right after
 * shmem_init, a shmem_malloc and one barrier, while the other PEs, on other hosts, wait in the
 * next barrier. Shoal ends the job naming the routine and the PE; the PEs of the other hosts
 * then lose their connections to PE 0 while UCX may still be connecting their endpoints, and
 * must report that (or be ended by the launcher) without UCX failing an assertion of its own
 * (core/runtime.cpp, Runtime::fence_completing_handshakes). A PE that gets past the bad call or the
 * second barrier prints "UNREACHABLE". */
#include <shmem.h>

#include <stdio.h>

int main(void) {
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  long *word = shmem_malloc(sizeof(long));
  shmem_barrier_all();
  if (me == 0) {
    shmem_long_p(word, 1, n + 3);
    printf("UNREACHABLE: PE 0 went on after a put to PE %d\n", n + 3);
    fflush(stdout);
  }
  shmem_barrier_all();
  printf("UNREACHABLE: PE %d passed the barrier after PE 0's bad call\n", me);
  fflush(stdout);
  shmem_finalize();
  return 0;
}
