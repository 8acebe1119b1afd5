/* Globals of a C program reached on the node: shmem_ptr to every PE's .data and .bss
 * variables (non-NULL for the PEs of this node, SHMEM_TEAM_SHARED, unless SMA_SHARED_MEMORY=0;
 * NULL for those of other hosts), stores through it, and concurrent
 * fetch-adds, puts and gets from every PE with exact results. Built as a non-PIE executable
 * too (rma_globals_c_nopie).
 * Prints "rma_globals_c: PE k OK" per PE; exits 1 on any failure. */
#include <shmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                                  \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      ++failures;                                                                         \
      printf("[PE %d] rma_globals_c: %s:%d: check failed: %s: ", shmem_my_pe(), __FILE__, \
             __LINE__, #cond);                                                            \
      printf(__VA_ARGS__);                                                                \
      printf("\n");                                                                       \
      fflush(stdout);                                                                     \
    }                                                                                     \
  } while (0)

enum { kRounds = 300, kSlots = 64 };

long counter_bss;
static long counter_data = 42;
static int slots[kSlots] = {3};

/* Whether world PE pe runs on this PE's node (tests/multihost runs this program across hosts). */
static int on_this_node(int pe) {
  return shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED) >= 0;
}

int main(void) {
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const char *env = getenv("SMA_SHARED_MEMORY");
  const int shared = env == NULL || strcmp(env, "0") != 0;
  const int left = (me + n - 1) % n;

  CHECK(slots[0] == 3 && counter_data == 42, "initial values lost: %d %ld", slots[0], counter_data);
  for (int pe = 0; pe < n; ++pe) {
    void *p = shmem_ptr(&counter_data, pe);
    if (pe == me)
      CHECK(p == (void *)&counter_data, "shmem_ptr to self %p", p);
    else if (!on_this_node(pe))
      CHECK(p == NULL, "shmem_ptr to a global of PE %d on another host is %p", pe, p);
    else if (shared)
      CHECK(p != NULL, "shmem_ptr to a global of on-node PE %d is NULL", pe);
    else
      CHECK(p == NULL, "shmem_ptr to PE %d with SMA_SHARED_MEMORY=0 is %p", pe, p);
  }
  for (int i = 0; i < kSlots; ++i) slots[i] = -1;
  shmem_barrier_all();

  for (int round = 0; round < kRounds; ++round)
    for (int k = 0; k < n; ++k) {
      const int pe = (me + k) % n;
      (void)shmem_long_atomic_fetch_add(&counter_bss, 1, pe);
      shmem_long_atomic_add(&counter_data, 3, pe);
    }
  for (int pe = 0; pe < n; ++pe) shmem_int_p(&slots[me], 1000 * me + pe, pe);
  shmem_quiet();
  for (int pe = 0; pe < n; ++pe) {
    const int back = shmem_int_g(&slots[me], pe);
    CHECK(back == 1000 * me + pe, "g from PE %d gave %d", pe, back);
  }
  /* A store through shmem_ptr into the right neighbour's .bss. */
  int *right_slot = shmem_ptr(&slots[kSlots - 1], (me + 1) % n);
  shmem_barrier_all();
  if (right_slot != NULL && n > 1) *right_slot = 77 + me;
  shmem_barrier_all();

  CHECK(counter_bss == (long)n * kRounds, "counter_bss %ld", counter_bss);
  CHECK(counter_data == 42 + 3L * n * kRounds, "counter_data %ld", counter_data);
  for (int i = 0; i < n && i < kSlots - 1; ++i)
    CHECK(slots[i] == 1000 * i + me, "slots[%d] = %d", i, slots[i]);
  if (shared && n > 1 && on_this_node(left))
    CHECK(slots[kSlots - 1] == 77 + left, "store via shmem_ptr: %d", slots[kSlots - 1]);

  shmem_barrier_all();
  if (failures == 0) printf("rma_globals_c: PE %d OK\n", me);
  shmem_finalize();
  return failures == 0 ? 0 : 1;
}
