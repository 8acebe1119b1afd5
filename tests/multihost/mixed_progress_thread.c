/* mixed_progress_thread: PEs of one job that disagree on SMA_PROGRESS_THREAD. PE 1 (by
 * PMIX_RANK, before shmem_init reads the environment) runs without the thread, the others with
 * it, and PE 1 computes for 3 s right after start-up without calling the library. With a
 * thread, start-up waits for the connection handshakes to complete after its last fence
 * (core/runtime.cpp, Runtime::fence_completing_handshakes); that must not wait for PE 1's next
 * call: every PE's shmem_init returns within a second of PE 1's (the namespace hosts share
 * one clock). Then each PE puts 1 MiB to its right neighbour (by rendezvous to a PE of another
 * host) and checks what its left one put. Prints "PASS" on PE 0. */
#include <shmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { kQuietPe = 1, kComputeSeconds = 3, kBytes = 1 << 20 };

static double wall_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double init_returned[64];
static unsigned char data[kBytes];

int main(void) {
  const char *rank = getenv("PMIX_RANK");
  if (rank != NULL && atoi(rank) == kQuietPe) setenv("SMA_PROGRESS_THREAD", "0", 1);
  shmem_init();
  const double returned = wall_seconds();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  if (n < 2 || n > 64) {
    if (me == 0) printf("FAIL: this test needs 2 to 64 PEs, not %d\n", n);
    shmem_global_exit(1);
  }
  if (me == kQuietPe) sleep(kComputeSeconds);
  shmem_double_p(&init_returned[me], returned, 0);
  unsigned char *mine = malloc(kBytes);
  for (int i = 0; i < kBytes; ++i) mine[i] = (unsigned char)(me * 31 + i);
  shmem_putmem(data, mine, kBytes, (me + 1) % n);
  shmem_barrier_all();
  int failed = 0;
  const int left = (me + n - 1) % n;
  for (int i = 0; i < kBytes; ++i)
    if (data[i] != (unsigned char)(left * 31 + i)) {
      printf("FAIL: PE %d: byte %d from PE %d is %d, not %d\n", me, i, left, data[i],
             (unsigned char)(left * 31 + i));
      failed = 1;
      break;
    }
  if (me == 0)
    for (int pe = 0; pe < n; ++pe) {
      const double late = init_returned[pe] - init_returned[kQuietPe];
      if (late > 1.0 || late < -1.0) {
        printf("FAIL: shmem_init returned %.2f s later on PE %d than on PE %d\n", late, pe,
               kQuietPe);
        failed = 1;
      }
    }
  free(mine);
  shmem_barrier_all();
  if (me == 0 && !failed) printf("PASS: start-up did not wait for the PE without a thread\n");
  fflush(stdout);
  shmem_finalize();
  return failed;
}
