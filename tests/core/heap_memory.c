/* The symmetric heap and the globals do not live in /dev/shm, and memory the node cannot give
 * is refused at shmem_malloc with a message, never a SIGBUS (small_dev_shm.sh runs this with a
 * 64 MiB /dev/shm).
 *
 *   heap_memory touch MIB     every PE allocates MIB MiB, writes every page and a 16 MiB global
 *                             array, and checks its right neighbour's values (shmem_getmem and,
 *                             where it maps the neighbour, shmem_ptr); prints "ok PE k".
 *   heap_memory refuse MIB    the MIB MiB block must be refused (NULL) on every PE, and a small
 *                             block must still work afterwards; prints "refused PE k".
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLOBAL_BYTES (16u << 20)
#define PAGE 4096u

static unsigned char globals[GLOBAL_BYTES]; /* .bss: the data segment moved into shared memory */

static int bad = 0;

static void check(int ok, const char *what, size_t at, unsigned got, unsigned want) {
  if (ok) return;
  if (bad++ < 5)
    printf("BAD PE %d: %s at %zu: %u, expected %u\n", shmem_my_pe(), what, at, got, want);
}

static unsigned char pattern(int pe, size_t at) { return (unsigned char)(pe * 31 + at / PAGE); }

static int touch(size_t mib) {
  const int me = shmem_my_pe(), npes = shmem_n_pes(), right = (me + 1) % npes;
  const size_t bytes = mib << 20;
  unsigned char *block = shmem_malloc(bytes);
  if (block == NULL) {
    printf("BAD PE %d: shmem_malloc(%zu MiB) returned NULL\n", me, mib);
    return 1;
  }
  for (size_t at = 0; at < bytes; at += PAGE) memset(block + at, pattern(me, at), PAGE);
  for (size_t at = 0; at < GLOBAL_BYTES; at += PAGE) memset(globals + at, pattern(me, at), PAGE);
  shmem_barrier_all();
  /* The first, a middle and the last byte of every MiB of the neighbour's block and globals. */
  for (size_t at = 0; at < bytes; at += 1u << 20) {
    const size_t probes[3] = {at, at + (1u << 19) + 7, at + (1u << 20) - 1};
    for (int i = 0; i < 3; ++i) {
      unsigned char v = 0;
      shmem_getmem(&v, block + probes[i], 1, right);
      check(v == pattern(right, probes[i]), "heap (get)", probes[i], v, pattern(right, probes[i]));
    }
  }
  for (size_t at = 0; at < GLOBAL_BYTES; at += 1u << 20) {
    unsigned char v = 0;
    shmem_getmem(&v, globals + at + 5, 1, right);
    check(v == pattern(right, at + 5), "globals (get)", at + 5, v, pattern(right, at + 5));
  }
  const unsigned char *mapped = shmem_ptr(block, right);
  if (mapped != NULL)
    for (size_t at = PAGE - 1; at < bytes; at += 3 * PAGE)
      check(mapped[at] == pattern(right, at), "heap (shmem_ptr)", at, mapped[at],
            pattern(right, at));
  shmem_barrier_all();
  shmem_free(block);
  if (bad == 0) printf("ok PE %d\n", me);
  return bad != 0;
}

static int refuse(size_t mib) {
  const int me = shmem_my_pe();
  void *block = shmem_malloc(mib << 20);
  if (block != NULL) {
    printf("BAD PE %d: shmem_malloc(%zu MiB) was not refused\n", me, mib);
    return 1;
  }
  /* The heap still works: a small block, written by the neighbour. */
  int *small = shmem_malloc(sizeof(int));
  if (small == NULL) {
    printf("BAD PE %d: shmem_malloc(4) returned NULL after the refusal\n", me);
    return 1;
  }
  *small = -1;
  shmem_barrier_all();
  shmem_int_p(small, me, (me + 1) % shmem_n_pes());
  shmem_barrier_all();
  const int left = (me + shmem_n_pes() - 1) % shmem_n_pes();
  check(*small == left, "small block after the refusal", 0, (unsigned)*small, (unsigned)left);
  shmem_free(small);
  if (bad == 0) printf("refused PE %d\n", me);
  return bad != 0;
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "touch") != 0 && strcmp(argv[1], "refuse") != 0)) {
    fprintf(stderr, "usage: heap_memory touch|refuse MIB\n");
    return 2;
  }
  const size_t mib = strtoull(argv[2], NULL, 10);
  shmem_init();
  const int rc = strcmp(argv[1], "touch") == 0 ? touch(mib) : refuse(mib);
  shmem_finalize();
  return rc;
}
