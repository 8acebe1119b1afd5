/* A job that hangs on purpose, for the SMA_HANG_TIMEOUT test (check_observe.py): PE 0 waits
 * for a flag that nobody sets, PE 1 computes (sleeps) and never enters the library again, and
 * every other PE waits in a barrier that PEs 0 and 1 never reach. With the timeout set, the hang
 * report must name each of them and end the job; without it, the job would run for a minute and
 * exit 3. PE 0 says when it starts waiting: the test times the job's end from that line, not
 * from the launch, which across namespace hosts on a loaded machine takes seconds of its own. */
#include <shmem.h>
#include <stdio.h>
#include <unistd.h>

static long flag;

int main(void) {
  shmem_init();
  const int me = shmem_my_pe();
  if (me == 0) {
    fprintf(stderr, "PE 0: waiting for a flag that nobody sets\n");
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
  } else if (me == 1) {
    sleep(60);
  } else {
    shmem_barrier_all();
  }
  fprintf(stderr, "PE %d: the hang was not reported\n", me);
  return 3;
}
