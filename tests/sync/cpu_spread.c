/* More PEs than CPUs spread themselves over the CPUs while they wait (core/cpu_spread.hpp).
 *
 * 4 PEs, each first allowing itself the same 2 CPUs (so the job has more PEs than CPUs on any
 * machine). Then PEs 0, 1 and 2 put themselves on the first of them and PE 3 on the second,
 * the way the kernel sometimes leaves them, and PE 3 computes for 300 ms while the others wait
 * in a barrier. Waiting, PE 0 (the lowest-numbered of the three on the crowded CPU) must move
 * to the other CPU, still allowed both: the test runs with SMA_LOG_LEVEL=debug and expects its
 * line "pe 0: moved from CPU <first> to CPU <second>"; each PE also checks that its allowed set
 * is the 2 CPUs again afterwards (the move binds nothing). */
#define _GNU_SOURCE
#include <sched.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_sec(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Runs on `cpu` from now on, while allowed every CPU of `allowed`. */
static void place_on(int cpu, const cpu_set_t *allowed) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  if (sched_setaffinity(0, sizeof one, &one) != 0 ||
      sched_setaffinity(0, sizeof *allowed, allowed) != 0) {
    perror("cpu_spread: sched_setaffinity");
    exit(2);
  }
}

int main(void) {
  cpu_set_t start, two;
  if (sched_getaffinity(0, sizeof start, &start) != 0) {
    perror("cpu_spread: sched_getaffinity");
    return 2;
  }
  int cpus[2], found = 0;
  for (int c = 0; c < CPU_SETSIZE && found < 2; c++)
    if (CPU_ISSET(c, &start)) cpus[found++] = c;
  if (found < 2) {
    fprintf(stderr, "cpu_spread: FAILED: needs 2 CPUs, may use %d\n", found);
    return 1;
  }
  CPU_ZERO(&two);
  CPU_SET(cpus[0], &two);
  CPU_SET(cpus[1], &two);
  place_on(cpus[0], &two); /* before shmem_init: the job counts 2 CPUs */

  shmem_init();
  const int me = shmem_my_pe();
  if (shmem_n_pes() != 4) {
    fprintf(stderr, "cpu_spread: FAILED: run with 4 PEs\n");
    shmem_global_exit(1);
  }
  shmem_barrier_all();
  place_on(me < 3 ? cpus[0] : cpus[1], &two);
  if (me == 0) printf("cpu_spread: PEs 0-2 on CPU %d, PE 3 on CPU %d\n", cpus[0], cpus[1]);
  fflush(stdout);
  if (me == 3) {
    const double end = now_sec() + 0.3;
    while (now_sec() < end) {
    }
  }
  shmem_barrier_all();

  cpu_set_t after;
  int bad = sched_getaffinity(0, sizeof after, &after) != 0 || !CPU_EQUAL(&after, &two);
  if (bad) fprintf(stderr, "cpu_spread: FAILED: pe %d may no longer use both CPUs\n", me);
  int *failures = shmem_calloc(1, sizeof(int));
  shmem_int_atomic_add(failures, bad, 0);
  shmem_barrier_all();
  if (me == 0) printf("cpu_spread: %s\n", *failures == 0 ? "allowed sets kept" : "FAILED");
  const int rc = me == 0 && *failures != 0;
  shmem_free(failures);
  shmem_finalize();
  return rc;
}
