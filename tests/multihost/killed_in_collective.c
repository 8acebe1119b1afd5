/* killed_in_collective: every PE loops in collectives (shmem_barrier_all, a broadcast, a sum
 * reduction) on SHMEM_TEAM_WORLD, and PE VICTIM fails in the middle of iteration ITERS, between
 * the broadcast and the reduction: the other PEs are then inside a reduction (or a broadcast or
 * barrier) that waits for it and can never complete. HOW: sigkill (raise(SIGKILL), the
 * default) or global_exit (shmem_global_exit(7): a failure the program reports itself).
 *
 *   killed_in_collective VICTIM ITERS [HOW [mark...]]
 *
 * Before failing the victim prints "pe VICTIM fails (HOW) at iteration ITERS at MS" (wall clock,
 * ms); every PE prints "pe K of N on HOST pid PID" once it is initialized. A PE that gets past
 * the victim's failure prints "UNREACHABLE"; a wrong value prints "BAD ...". Arguments after HOW
 * are ignored (a test adds a unique mark to find stray PEs). The job is expected to end soon
 * after the failure, by the launcher or by a PE that noticed it, never normally. */
#include <shmem.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { kCount = 4096 }; /* elements per broadcast and reduction: a few messages over TCP */

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv) {
  const char *how = argc > 3 ? argv[3] : "sigkill";
  if (argc < 3 || (strcmp(how, "sigkill") != 0 && strcmp(how, "global_exit") != 0)) {
    fprintf(stderr, "usage: killed_in_collective VICTIM ITERS [sigkill|global_exit [mark...]]\n");
    return 2;
  }
  const int victim = atoi(argv[1]);
  const int iters = atoi(argv[2]);
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  char host[64] = "?";
  gethostname(host, sizeof host - 1);
  printf("pe %d of %d on %s pid %ld\n", me, n, host, (long)getpid());
  fflush(stdout);

  long *source = shmem_malloc(kCount * sizeof(long));
  long *dest = shmem_malloc(kCount * sizeof(long));
  if (source == NULL || dest == NULL) {
    fprintf(stderr, "BAD pe %d: shmem_malloc failed\n", me);
    shmem_global_exit(1);
  }
  for (int it = 0;; ++it) {
    shmem_barrier_all();
    const int root = it % n;
    for (int i = 0; i < kCount; ++i) source[i] = (long)it * 1000 + me + i;
    shmem_long_broadcast(SHMEM_TEAM_WORLD, dest, source, kCount, root);
    if (me != root && dest[0] != (long)it * 1000 + root) {
      printf("BAD pe %d iteration %d: broadcast gave %ld\n", me, it, dest[0]);
      fflush(stdout);
    }
    if (me == victim && it == iters) {
      printf("pe %d fails (%s) at iteration %d at %lld\n", me, how, it, now_ms());
      fflush(stdout);
      if (strcmp(how, "sigkill") == 0) raise(SIGKILL);
      shmem_global_exit(7);
    }
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dest, source, kCount);
    const long expected = (long)it * 1000 * n + (long)n * (n - 1) / 2;
    if (dest[0] != expected) {
      printf("BAD pe %d iteration %d: sum %ld, expected %ld\n", me, it, dest[0], expected);
      fflush(stdout);
    }
    if (it > iters) {
      printf("UNREACHABLE pe %d finished iteration %d after pe %d died\n", me, it, victim);
      fflush(stdout);
      return 3;
    }
  }
}
