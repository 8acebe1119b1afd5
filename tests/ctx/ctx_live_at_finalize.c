/* A program may leave contexts alive at shmem_finalize: finalize completes their operations
 * (its implicit barrier covers every context) and releases their UCX workers before UCX itself.
 * Every PE puts into its right neighbour's static array through its own context, nonblocking,
 * and finalizes without a quiet or shmem_ctx_destroy; afterwards each PE checks what its left
 * neighbour sent (static data stays readable after shmem_finalize). */
#include <shmem.h>
#include <stdio.h>

#define N 512
static long inbox[N];

int main(void) {
  static long outbox[N];
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  for (int i = 0; i < N; ++i) outbox[i] = 1000L * me + i;
  shmem_ctx_t ctx[3];
  for (int c = 0; c < 3; ++c)
    if (shmem_ctx_create(c == 1 ? SHMEM_CTX_PRIVATE : 0, &ctx[c]) != 0) {
      printf("PE %d: shmem_ctx_create failed\n", me);
      return 1;
    }
  shmem_ctx_destroy(ctx[2]); /* one destroyed, two left alive */
  shmem_ctx_long_put_nbi(ctx[0], inbox, outbox, N / 2, right);
  shmem_ctx_long_put_nbi(ctx[1], inbox + N / 2, outbox + N / 2, N / 2, right);
  shmem_finalize();
  int wrong = 0;
  for (int i = 0; i < N; ++i)
    if (inbox[i] != 1000L * left + i) {
      if (wrong++ == 0)
        printf("PE %d: inbox[%d] = %ld, expected %ld\n", me, i, inbox[i], 1000L * left + i);
    }
  if (wrong == 0) printf("PE %d: %d values from PE %d complete\n", me, N, left);
  return wrong == 0 ? 0 : 1;
}
