/* What every program of tests/errors shares. Each program is one family of routines; argv[1]
 * names the case. In a "fatal" case the last PE makes the bad call while the other PEs wait in
 * a barrier that can never complete, so the job only ends if the error ends every PE; a line
 * starting with UNREACHABLE means a PE went on after the error. In a "return" case every PE
 * checks the documented return value and prints RESULT lines; the program exits 0 only if every
 * value was the documented one (tests/cmake/expect_job.cmake, MODE fatal or return). */
#ifndef SHOAL_TESTS_ERROR_CASE_H
#define SHOAL_TESTS_ERROR_CASE_H

#include <shmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One case of a program: its name (argv[1]) and one of: the code the last PE runs in a fatal
 * case (run); the code every PE runs in a fatal case of a collective routine, where every PE
 * makes the bad call (run_all); the code every PE runs in a return case, nonzero when it got
 * the documented values (check). */
struct error_case {
  const char *name;
  void (*run)(void);
  int (*check)(void);
  void (*run_all)(void);
};

/* The case named `which`, or NULL. */
static inline const struct error_case *find_case(const struct error_case *cases, size_t n,
                                                 const char *which) {
  for (size_t i = 0; i < n; ++i)
    if (strcmp(cases[i].name, which) == 0) return &cases[i];
  return NULL;
}

/* Lists the cases on stderr and exits 2 (a typo in a CTest entry must not pass). */
static inline void unknown_case(const char *program, const struct error_case *cases, size_t n,
                                const char *which) {
  fprintf(stderr, "%s: unknown case '%s'; cases:", program, which);
  for (size_t i = 0; i < n; ++i) fprintf(stderr, " %s", cases[i].name);
  fputc('\n', stderr);
  exit(2);
}

/* Called after a bad call that should have ended the job. */
static inline void went_on(const char *which) {
  printf("UNREACHABLE: PE %d went on after the bad call (%s)\n", shmem_my_pe(), which);
  fflush(stdout);
}

/* The usual fatal-case driver: the last PE runs the case, every PE then meets in a barrier. */
static inline int run_fatal_case(const struct error_case *c) {
  const int me = shmem_my_pe();
  if (me == shmem_n_pes() - 1) {
    printf("PE %d: %s\n", me, c->name);
    fflush(stdout);
    c->run();
    went_on(c->name);
  }
  shmem_barrier_all();
  printf("UNREACHABLE: PE %d passed the barrier after the bad call (%s)\n", me, c->name);
  fflush(stdout);
  shmem_finalize();
  return 0;
}

/* The return-case driver: every PE runs the check; exit status 0 only if every PE passed. */
static inline int run_return_case(const struct error_case *c) {
  const int ok = c->check();
  shmem_barrier_all();
  shmem_finalize();
  return ok ? 0 : 1;
}

/* The driver of a fatal case of a collective routine: every PE makes the bad call. */
static inline int run_fatal_collective_case(const struct error_case *c) {
  c->run_all();
  went_on(c->name);
  shmem_finalize();
  return 0;
}

/* Runs a case the way its kind asks. */
static inline int run_case(const struct error_case *c) {
  if (c->check) return run_return_case(c);
  if (c->run_all) return run_fatal_collective_case(c);
  return run_fatal_case(c);
}

/* Reports a value a "return" case got; returns whether it is the documented one. */
static inline int returned(const char *what, long got, int ok) {
  printf("RESULT pe %d: %s -> %ld (%s)\n", shmem_my_pe(), what, got,
         ok ? "as documented" : "WRONG");
  fflush(stdout);
  return ok;
}

/* A context on a team whose only member is the last PE (SHMEM_CTX_INVALID on the other PEs):
 * its PE numbers count within that team, so only team PE 0 exists. Every PE must call it. */
static inline shmem_ctx_t last_pe_team_ctx(void) {
  shmem_team_t team = SHMEM_TEAM_INVALID;
  shmem_ctx_t ctx = SHMEM_CTX_INVALID;
  if (shmem_team_split_strided(SHMEM_TEAM_WORLD, shmem_n_pes() - 1, 1, 1, NULL, 0, &team) != 0 ||
      (team != SHMEM_TEAM_INVALID && shmem_team_create_ctx(team, 0, &ctx) != 0)) {
    printf("SETUP FAILED: the last PE's team and its context\n");
    shmem_global_exit(3);
  }
  return ctx;
}

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The case argv[1] names, checked before shmem_init (an unknown name exits 2), then
 * shmem_init. */
#define INIT_FOR_CASE(cases) init_for_case(argc, argv, cases, COUNT_OF(cases))
static inline const struct error_case *init_for_case(int argc, char **argv,
                                                     const struct error_case *cases, size_t n) {
  const char *which = argc > 1 ? argv[1] : "";
  const struct error_case *c = find_case(cases, n, which);
  if (c == NULL) unknown_case(argv[0], cases, n, which);
  shmem_init();
  return c;
}

/* SMA_SYMMETRIC_SIZE of the runs that allocate the whole heap. */
#define HEAP_BYTES (1 << 20)
/* The whole symmetric heap as one zeroed block, so that "past the end of the heap" is a known
 * address; the job ends when the heap is another size. */
static inline char *whole_heap(void) {
  char *whole = (char *)shmem_calloc(1, HEAP_BYTES);
  if (whole == NULL) {
    printf("SETUP FAILED: shmem_calloc of the whole heap (run with SMA_SYMMETRIC_SIZE=1M)\n");
    shmem_global_exit(3);
  }
  return whole;
}

#endif
