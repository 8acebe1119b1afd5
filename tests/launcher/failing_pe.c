/* failing_pe: a real Shoal program whose PEs fail, hang or exchange values on demand, for the
 * launcher scenarios of shoal_job_tests.sh. Every PE runs shmem_init and a barrier first, then:
 *
 *   die HOW K         PE K fails (after 0.3 s, so the others are surely waiting) while every
 *                     other PE sits in shmem_barrier_all. HOW: segv (a store to address 8),
 *                     abort (abort()), sigkill (raise(SIGKILL)), exit3 (_exit(3)), exit0
 *                     (_exit(0): no atexit handlers either), exit5 (exit(5)) or return
 *                     (returns 0 from main), all without shmem_finalize. Nothing the failing
 *                     PE does on its way out may complete the others' barrier.
 *   global_exit WHERE K
 *                     PE K calls shmem_global_exit(7) while the others wait in WHERE:
 *                     barrier (shmem_barrier_all) or wait (shmem_int_wait_until on a flag
 *                     nobody sets).
 *   hang WHERE        every PE prints "ready PE" and then waits forever in WHERE: barrier (the
 *                     last PE in shmem_int_wait_until, the others in shmem_barrier_all, so the
 *                     barrier never completes) or compute (a loop without library calls).
 *   exchange TAG ROUNDS [/GO]
 *                     ROUNDS rounds of puts around the ring and atomic adds on PE 0, with
 *                     values built from TAG (unique per job): a PE that saw another job's
 *                     memory or namespace would read wrong values. Prints "ok PE of N tag TAG"
 *                     and, on PE 0, "exchanged from MS to MS" (wall clock). With an absolute
 *                     path /GO, first prints "ready PE of N" and waits until /GO exists, and
 *                     goes on for at least 1 s.
 *   inspect FILE      every PE prints "ready PE pid PID heap ADDR" and waits (outside the
 *                     library) until FILE exists, then checks a ring exchange still works.
 *
 * A PE that leaves without shmem_finalize (exit5, return, global_exit) must have no Shoal
 * progress thread left by the time exit() runs the handlers registered before shmem_init: one
 * still running serves UCX and logs while exit() destroys the library's static objects.
 *
 * A failing PE first prints "pe K fails at MS" (wall clock, ms). A PE that goes on where it must
 * not prints "UNREACHABLE"; a wrong value prints "BAD ..." and makes the PE exit 1. Arguments
 * after the ones a case reads are ignored (the tests add a unique mark to find stray PEs). */
#include <shmem.h>

#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int g_flag; /* symmetric (static data): nobody ever sets it */

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Registered before shmem_init, so it runs after the library's own exit handler. Thread
 * names come from /proc/self/task/TID/comm (Linux). */
static void no_progress_thread_at_exit(void) {
  DIR *tasks = opendir("/proc/self/task");
  if (tasks == NULL) return;
  for (struct dirent *task; (task = readdir(tasks)) != NULL;) {
    if (task->d_name[0] == '.') continue;
    char path[300], name[32] = "";
    snprintf(path, sizeof path, "/proc/self/task/%s/comm", task->d_name);
    FILE *comm = fopen(path, "r");
    if (comm == NULL) continue;
    const int got = fgets(name, sizeof name, comm) != NULL;
    fclose(comm);
    if (got && strcmp(name, "shoal-progress\n") == 0) {
      printf("UNREACHABLE pid %ld: the progress thread still runs at exit\n", (long)getpid());
      fflush(stdout);
    }
  }
  closedir(tasks);
}

/* The moment of the failure, which the test compares with the moment oshrun exited. */
static void announce_failure(int me) {
  printf("pe %d fails at %lld\n", me, now_ms());
  fflush(stdout);
}

static void wait_for_file(const char *path) {
  while (access(path, F_OK) != 0) sleep_ms(20);
}

static void say(const char *fmt, int a, int b) {
  printf(fmt, a, b);
  fflush(stdout);
}

/* The failure itself; returns only for "return" (the caller then returns from main). */
static void fail_as(const char *how) {
  fflush(NULL);
  if (strcmp(how, "segv") == 0) {
    volatile int *volatile bad = (volatile int *)(uintptr_t)8; /* hidden from the compiler */
    *bad = 1;
  } else if (strcmp(how, "abort") == 0) {
    abort();
  } else if (strcmp(how, "sigkill") == 0) {
    raise(SIGKILL);
  } else if (strcmp(how, "exit3") == 0) {
    _exit(3);
  } else if (strcmp(how, "exit0") == 0) {
    _exit(0);
  } else if (strcmp(how, "exit5") == 0) {
    exit(5);
  } else if (strcmp(how, "return") == 0) {
    return;
  } else {
    fprintf(stderr, "failing_pe: unknown way to fail '%s'\n", how);
    _exit(2);
  }
  /* A survived segfault or signal: should never get here. */
  say("UNREACHABLE pe %d survived %d\n", shmem_my_pe(), 0);
  _exit(2);
}

static int die(const char *how, int victim) {
  const int me = shmem_my_pe();
  if (me == victim) {
    sleep_ms(300);
    announce_failure(me);
    fail_as(how);
    return 0; /* "return": from main, without shmem_finalize */
  }
  shmem_barrier_all();
  say("UNREACHABLE pe %d left the barrier of pe %d\n", me, victim);
  return 1;
}

static int global_exit(const char *where, int victim) {
  const int me = shmem_my_pe();
  if (me == victim) {
    sleep_ms(300);
    announce_failure(me);
    shmem_global_exit(7);
    say("UNREACHABLE pe %d returned from shmem_global_exit %d\n", me, 7);
    return 1;
  }
  if (strcmp(where, "wait") == 0)
    shmem_int_wait_until(&g_flag, SHMEM_CMP_EQ, 1);
  else
    shmem_barrier_all();
  say("UNREACHABLE pe %d stopped waiting for pe %d\n", me, victim);
  return 1;
}

static int hang(const char *where) {
  const int me = shmem_my_pe();
  say("ready %d of %d\n", me, shmem_n_pes());
  if (strcmp(where, "compute") == 0) {
    volatile uint64_t x = (uint64_t)me;
    for (;;) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
  }
  if (me == shmem_n_pes() - 1)
    shmem_int_wait_until(&g_flag, SHMEM_CMP_EQ, 1);
  else
    shmem_barrier_all();
  say("UNREACHABLE pe %d stopped hanging %d\n", me, 0);
  return 1;
}

/* One value per (job, round, sender): two jobs, rounds or senders never write the same one. */
static long value_of(long tag, int round, int pe) { return tag * 1000000L + round * 1000L + pe; }

static int exchange(long tag, int rounds, const char *go_file) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const int right = (me + 1) % n, left = (me + n - 1) % n;
  long *slot = shmem_calloc(1, sizeof(long));
  long *count = shmem_calloc(1, sizeof(long));
  int *stop = shmem_calloc(1, sizeof(int));
  int bad = 0;
  /* Released together, two jobs overlap only if neither can finish in the time the other takes
   * to notice the file: then PE 0 also goes on for at least min_ms (and tells the others). */
  const long long min_ms = go_file ? 1000 : 0;
  if (go_file) {
    say("ready %d of %d\n", me, n);
    wait_for_file(go_file);
  }
  shmem_barrier_all();
  const long long start = now_ms();
  int r = 0;
  for (int done = 0; !done; ++r) {
    shmem_long_p(slot, value_of(tag, r, me), right);
    shmem_long_atomic_add(count, 1, 0);
    if (me == 0 && r + 1 >= rounds && now_ms() - start >= min_ms)
      for (int pe = 0; pe < n; ++pe) shmem_int_p(stop, 1, pe);
    shmem_barrier_all();
    done = *stop; /* read by every PE between the same two barriers: all stop after round r */
    if (*slot != value_of(tag, r, left) && !bad++)
      printf("BAD pe %d round %d: got %ld from pe %d, expected %ld\n", me, r, *slot, left,
             value_of(tag, r, left));
    shmem_barrier_all(); /* nobody overwrites the slot before it was read */
  }
  rounds = r;
  if (me == 0 && *count != (long)n * rounds && !bad++)
    printf("BAD pe 0: %ld atomic adds arrived, expected %ld\n", *count, (long)n * rounds);
  if (!bad) printf("ok %d of %d tag %ld\n", me, n, tag);
  if (me == 0) printf("exchanged from %lld to %lld\n", start, now_ms());
  fflush(stdout);
  shmem_free(stop);
  shmem_free(count);
  shmem_free(slot);
  shmem_finalize();
  return bad ? 1 : 0;
}

static int inspect(const char *go_file) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  int *slot = shmem_malloc(sizeof(int));
  *slot = -1;
  shmem_barrier_all();
  printf("ready %d pid %ld heap %p\n", me, (long)getpid(), (void *)slot);
  fflush(stdout);
  wait_for_file(go_file);
  shmem_int_p(slot, 1000 + me, (me + 1) % n);
  shmem_barrier_all();
  const int expected = 1000 + (me + n - 1) % n;
  if (*slot != expected)
    say("BAD pe %d got %d\n", me, *slot);
  else
    say("ok %d of %d\n", me, n);
  const int bad = *slot != expected;
  shmem_free(slot);
  shmem_finalize();
  return bad;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  const char *arg = argc > 2 ? argv[2] : "";
  const int number = argc > 3 ? atoi(argv[3]) : 0;
  atexit(no_progress_thread_at_exit);
  shmem_init();
  shmem_barrier_all();
  if (strcmp(what, "die") == 0 && argc > 3) return die(arg, number);
  if (strcmp(what, "global_exit") == 0 && argc > 3) return global_exit(arg, number);
  if (strcmp(what, "hang") == 0 && argc > 2) return hang(arg);
  if (strcmp(what, "exchange") == 0 && argc > 3)
    return exchange(atol(arg), number, argc > 4 && argv[4][0] == '/' ? argv[4] : NULL);
  if (strcmp(what, "inspect") == 0 && argc > 2) return inspect(arg);
  fprintf(stderr, "usage: failing_pe die|global_exit|hang|exchange|inspect ... (got '%s')\n", what);
  shmem_finalize();
  return 2;
}
