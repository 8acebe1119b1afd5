/* A program whose calls into the library are known exactly, for the SMA_PROFILE test
 * (check_observe.py counts what the profile reports against the numbers below, which it keeps
 * in EXPECTED). Every PE does the same; values are checked so the calls did happen.
 *
 * Per PE:
 *   put:       5 shmem_long_put of 4 longs (32 B) + 3 shmem_int_p (4 B)      = 8 calls, 172 B
 *   get:       4 shmem_getmem of 16 B + 2 shmem_long_g (8 B)                   = 6 calls, 80 B
 *   nbi:       3 shmem_putmem_nbi of 10 B + 1 shmem_getmem_nbi of 8 B           = 4 calls, 38 B
 *   amo:       7 shmem_long_atomic_fetch_add (8 B) + 2 shmem_int_atomic_inc (4 B) = 9 calls, 64 B
 *   signal:    2 shmem_putmem_signal of 24 B                                  = 2 calls, 48 B
 *   wait:      1 shmem_uint64_wait_until                                       = 1 call
 *   quiet:     1 shmem_quiet + 1 shmem_fence                                   = 2 calls
 *   barrier:   3 shmem_barrier_all + 1 shmem_team_sync                          = 4 calls
 *   broadcast: 2 shmem_long_broadcast of 8 longs                               = 2 calls, 128 B
 *   reduce:    1 shmem_long_sum_reduce of 8 longs                              = 1 call, 64 B
 *   collect:   1 shmem_long_collect of 2 longs                                 = 1 call, 16 B
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long put_dest[4];
static int p_dest[3];
static char get_src[16];
static long g_src = 42;
static char nbi_dest[30];
static char nbi_src[8] = "nbi-get";
static long counter;
static int inc_counter;
static char sig_data[48];
static uint64_t sig;
static long bcast[8];
static long red_src[8], red_dest[8];
static long coll_src[2], coll_dest[2 * 64];

static int failures = 0;
#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      fprintf(stderr, "PE %d: check failed at line %d: %s\n", me, __LINE__, #cond); \
      ++failures;                                                                   \
    }                                                                               \
  } while (0)

int main(void) {
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const int right = (me + 1) % n, left = (me + n - 1) % n;
  if (n > 64) return 2;
  memset(get_src, 'a' + me, sizeof get_src);

  long src[4] = {me, me + 1, me + 2, me + 3};
  for (int i = 0; i < 5; ++i) shmem_long_put(put_dest, src, 4, right);
  for (int i = 0; i < 3; ++i) shmem_int_p(&p_dest[i], me * 10 + i, right);
  shmem_barrier_all(); /* 1 */
  CHECK(put_dest[3] == left + 3 && p_dest[2] == left * 10 + 2);

  char got[16];
  for (int i = 0; i < 4; ++i) shmem_getmem(got, get_src, sizeof got, right);
  CHECK(got[15] == 'a' + right);
  const long g_right = shmem_long_g(&g_src, right);
  const long g_left = shmem_long_g(&g_src, left);
  CHECK(g_right == 42 && g_left == 42);

  for (int i = 0; i < 3; ++i) shmem_putmem_nbi(nbi_dest + 10 * i, "0123456789", 10, right);
  char nbi_got[8];
  shmem_getmem_nbi(nbi_got, nbi_src, sizeof nbi_got, right);
  shmem_quiet();
  CHECK(memcmp(nbi_got, "nbi-get", 8) == 0);

  for (int i = 0; i < 7; ++i) (void)shmem_long_atomic_fetch_add(&counter, 1, 0);
  shmem_int_atomic_inc(&inc_counter, right);
  shmem_int_atomic_inc(&inc_counter, right);

  shmem_putmem_signal(sig_data, "abcdefghijklmnopqrstuvwx", 24, &sig, 1, SHMEM_SIGNAL_ADD, right);
  shmem_fence();
  shmem_putmem_signal(sig_data + 24, "ABCDEFGHIJKLMNOPQRSTUVWX", 24, &sig, 1, SHMEM_SIGNAL_ADD,
                      right);
  shmem_uint64_wait_until(&sig, SHMEM_CMP_GE, 2);
  CHECK(sig_data[24] == 'A');
  shmem_barrier_all(); /* 2 */
  if (me == 0) CHECK(counter == 7L * n);
  CHECK(inc_counter == 2);

  for (int round = 0; round < 2; ++round) {
    long values[8];
    for (int i = 0; i < 8; ++i) values[i] = 100 * round + i;
    shmem_long_broadcast(SHMEM_TEAM_WORLD, bcast, values, 8, 0);
    CHECK(bcast[7] == 100 * round + 7 || me == 0);
  }
  for (int i = 0; i < 8; ++i) red_src[i] = me;
  shmem_long_sum_reduce(SHMEM_TEAM_WORLD, red_dest, red_src, 8);
  CHECK(red_dest[0] == (long)n * (n - 1) / 2);
  coll_src[0] = me;
  coll_src[1] = -me;
  shmem_long_collect(SHMEM_TEAM_WORLD, coll_dest, coll_src, 2);
  CHECK(coll_dest[2 * (n - 1)] == n - 1);
  shmem_team_sync(SHMEM_TEAM_WORLD);
  shmem_barrier_all(); /* 3 */

  if (failures) fprintf(stderr, "PE %d: %d checks failed\n", me, failures);
  shmem_finalize();
  return failures ? 1 : 0;
}
