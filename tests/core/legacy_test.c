/* Legacy (pre-1.2) API: start_pes, _my_pe/_num_pes, my_pe/num_pes, shmalloc & co.,
 * through the old header path. Like legacy programs, it never calls shmem_finalize: the
 * library must still tear down cleanly and the program must exit 0.
 * Prints "legacy: PE k OK" per PE; exits 1 on any failure. */
#include <mpp/shmem.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;

#define CHECK(cond, ...)                                                                        \
  do {                                                                                          \
    if (!(cond)) {                                                                              \
      ++failures;                                                                               \
      printf("[PE %d] legacy: %s:%d: check failed: %s: ", _my_pe(), __FILE__, __LINE__, #cond); \
      printf(__VA_ARGS__);                                                                      \
      printf("\n");                                                                             \
      fflush(stdout);                                                                           \
    }                                                                                           \
  } while (0)

static long value(int pe, int i) { return (long)(pe + 1) * 100000L + i; }

int main(void) {
  start_pes(0);

  const int me = _my_pe();
  const int n = _num_pes();
  CHECK(me >= 0 && me < n, "_my_pe()=%d _num_pes()=%d", me, n);
  CHECK(my_pe() == me, "my_pe()=%d", my_pe());
  CHECK(num_pes() == n, "num_pes()=%d", num_pes());
  CHECK(shmem_my_pe() == me, "shmem_my_pe()=%d", shmem_my_pe());
  CHECK(shmem_n_pes() == n, "shmem_n_pes()=%d", shmem_n_pes());

  const int right = (me + 1) % n;
  const int left = (me + n - 1) % n;

  /* shmalloc + put ring */
  long *a = (long *)shmalloc(64 * sizeof(long));
  CHECK(a != NULL, "shmalloc returned NULL");
  if (a == NULL) exit(1);
  for (int i = 0; i < 64; ++i) a[i] = -1;
  long src[64];
  for (int i = 0; i < 64; ++i) src[i] = value(me, i);
  shmem_barrier_all();
  shmem_long_put(a, src, 64, right);
  shmem_barrier_all();
  for (int i = 0; i < 64; ++i) CHECK(a[i] == value(left, i), "a[%d]=%ld", i, a[i]);

  /* shmemalign */
  for (size_t align = sizeof(void *); align <= 4096; align *= 2) {
    void *p = shmemalign(align, 100);
    CHECK(p != NULL, "shmemalign(%zu) returned NULL", align);
    CHECK(((uintptr_t)p % align) == 0, "shmemalign(%zu) returned %p", align, p);
    if (p != NULL) shfree(p);
  }

  /* shrealloc preserves contents and stays symmetric */
  shmem_barrier_all();
  long *b = (long *)shrealloc(a, 4096 * sizeof(long));
  CHECK(b != NULL, "shrealloc returned NULL");
  if (b == NULL) exit(1);
  for (int i = 0; i < 64; ++i) CHECK(b[i] == value(left, i), "after shrealloc b[%d]=%ld", i, b[i]);
  shmem_barrier_all();
  for (int i = 0; i < 64; ++i) src[i] = value(me, 1000 + i);
  shmem_long_put(b + 4000, src, 64, right);
  shmem_barrier_all();
  for (int i = 0; i < 64; ++i)
    CHECK(b[4000 + i] == value(left, 1000 + i), "b[%d]=%ld", 4000 + i, b[4000 + i]);
  shmem_barrier_all();
  shfree(b);

  printf("legacy: PE %d %s\n", me, failures == 0 ? "OK" : "FAILED");
  fflush(stdout);
  /* no shmem_finalize: legacy programs just return */
  return failures == 0 ? 0 : 1;
}
