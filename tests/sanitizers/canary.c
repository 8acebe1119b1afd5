/* A deliberate defect for each sanitizer, so that the sanitizer builds prove they catch one:
 * the settings of scripts/sanitizers/ reach every PE through oshrun, a report ends the PE
 * with a non-zero status, and the job fails. Registered only in sanitizer builds
 * (tests/sanitizers/CMakeLists.txt); run as
 *   oshrun -np 2 sanitizer_canary <heap_overflow|signed_overflow|leak|data_race>
 * PE 1 commits the defect after shmem_init, with PE 0 waiting in a barrier. */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int shared_counter; /* raced on by two threads: not atomic, no lock */
static volatile int sink;
static char* volatile escaped; /* keeps the optimizer from removing the overflowed buffer */

static void* bump_counter(void* unused) {
  (void)unused;
  for (int i = 0; i < 1000; ++i) shared_counter = shared_counter + 1;
  return NULL;
}

static void heap_overflow(void) {
  escaped = malloc(16);
  volatile size_t length = 17; /* one past the end, hidden from the compiler and from UBSan */
  memset(escaped, 1, length);
  free(escaped);
}

static void signed_overflow(void) {
  volatile int big = 2147483647;
  sink = big + 1;
}

static void leak(void) {
  void* volatile lost = malloc(4096);
  lost = NULL;
  (void)lost;
}

static void data_race(void) {
  pthread_t other;
  pthread_create(&other, NULL, bump_counter, NULL);
  bump_counter(NULL);
  pthread_join(other, NULL);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s heap_overflow|signed_overflow|leak|data_race\n", argv[0]);
    return 2;
  }
  shmem_init();
  if (shmem_my_pe() == 1) {
    printf("pe 1 commits %s\n", argv[1]);
    fflush(stdout);
    if (strcmp(argv[1], "heap_overflow") == 0)
      heap_overflow();
    else if (strcmp(argv[1], "signed_overflow") == 0)
      signed_overflow();
    else if (strcmp(argv[1], "leak") == 0)
      leak();
    else if (strcmp(argv[1], "data_race") == 0)
      data_race();
    else {
      fprintf(stderr, "unknown defect '%s'\n", argv[1]);
      return 2;
    }
  }
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
