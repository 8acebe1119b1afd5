/* Program linked with the profiling tool library before the OpenSHMEM library: every
 * shmem_putmem / shmem_barrier_all it makes must reach the tool, and the data must still
 * arrive (the tool forwards to pshmem_*). Exits 1 on failure. */
#include <shmem.h>

#include <stdio.h>
#include <string.h>

long shoal_tool_putmem_calls(void);
long shoal_tool_putmem_bytes(void);
long shoal_tool_barrier_all_calls(void);

static int failures;
#define CHECK(cond, ...)                                                                     \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      ++failures;                                                                            \
      printf("[PE %d] pshmem: %s:%d: check failed: %s: ", shmem_my_pe(), __FILE__, __LINE__, \
             #cond);                                                                         \
      printf(__VA_ARGS__);                                                                   \
      printf("\n");                                                                          \
      fflush(stdout);                                                                        \
    }                                                                                        \
  } while (0)

static char dest[10][256]; /* symmetric */

int main(void) {
  shmem_init();
  const int me = shmem_my_pe();
  const int n = shmem_n_pes();
  const int right = (me + 1) % n;
  const int left = (me + n - 1) % n;

  const long put0 = shoal_tool_putmem_calls();
  const long bytes0 = shoal_tool_putmem_bytes();
  const long bar0 = shoal_tool_barrier_all_calls();

  memset(dest, 0, sizeof dest);
  shmem_barrier_all(); /* 1 */
  char src[256];
  long sent = 0;
  for (int k = 0; k < 10; ++k) {
    for (int i = 0; i < 256; ++i) src[i] = (char)(me * 31 + k * 7 + i);
    shmem_putmem(dest[k], src, (size_t)(k * 25 + 1), right);
    sent += k * 25 + 1;
  }
  shmem_barrier_all(); /* 2 */
  for (int k = 0; k < 10; ++k) {
    for (int i = 0; i < k * 25 + 1; ++i) {
      const char want = (char)(left * 31 + k * 7 + i);
      CHECK(dest[k][i] == want, "dest[%d][%d]=%d want %d", k, i, dest[k][i], want);
      if (dest[k][i] != want) break;
    }
  }
  for (int r = 0; r < 5; ++r) shmem_barrier_all(); /* 3..7 */

  const long puts = shoal_tool_putmem_calls() - put0;
  const long bytes = shoal_tool_putmem_bytes() - bytes0;
  const long bars = shoal_tool_barrier_all_calls() - bar0;
  /* Every call the program made is seen; calls the library may make internally through
   * the public names would only add to the counts. */
  CHECK(puts >= 10, "tool saw %ld shmem_putmem calls, program made 10", puts);
  CHECK(bytes >= sent, "tool saw %ld bytes, program sent %ld", bytes, sent);
  CHECK(bars >= 7, "tool saw %ld shmem_barrier_all calls, program made 7", bars);
  CHECK(puts == 10, "tool saw %ld shmem_putmem calls for 10 made by the program", puts);

  printf("pshmem: PE %d putmem=%ld barrier_all=%ld %s\n", me, puts, bars,
         failures == 0 ? "OK" : "FAILED");
  fflush(stdout);
  shmem_finalize();
  return failures == 0 ? 0 : 1;
}
