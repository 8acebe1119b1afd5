// Regression test for a hang the soak found (SMA_SHARED_MEMORY=0, SMA_PROGRESS_THREAD=0; seed
// 202 at 4 PEs, seed 701 at 2 PEs): without the progress thread a PE that waited (here in a
// collective) progressed only the default context's worker. Work it left in flight on a context
// it created was not progressed, and the peer that received that work could not finish the quiet
// at the start of its next collective step: each PE waited for the other. Contexts now issue on
// the default worker when there is no progress thread (core/ctx/contexts.cpp).
// Both ingredients are needed: PE 0's shmem_ctx_long_iput of 100 elements and PE 1's operation on
// its own context. CTest runs it with both variables set; a hang ends by alarm with exit 1.
// With the argument "quiet" each PE quiets its context before the collective (passed before too).
#include <shmem.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <unistd.h>

static long g_array[256];
static std::uint64_t g_word;
static char g_collect_src[2], g_collect_dst[4];

static void on_alarm(int) {
  static const char msg[] = "regress_ctx_progress: no progress for 30 s (a hang)\n";
  (void)!write(1, msg, sizeof msg - 1);
  _exit(1);
}

int main(int argc, char** argv) {
  const bool quiet_first = argc > 1 && std::strcmp(argv[1], "quiet") == 0;
  shmem_init();
  const int me = shmem_my_pe();
  if (shmem_n_pes() != 2) {
    if (me == 0) std::printf("regress_ctx_progress: run with 2 PEs\n");
    shmem_finalize();
    return 2;
  }
  static long source[256];
  for (int i = 0; i < 256; ++i) source[i] = 1000 + i;
  shmem_ctx_t ctx;
  if (shmem_ctx_create(0, &ctx) != 0) return 3;
  std::signal(SIGALRM, on_alarm);
  const int rounds = 3000;
  for (int round = 0; round < rounds; ++round) {
    alarm(30);
    shmem_barrier_all();
    if (me == 0)
      shmem_ctx_long_iput(ctx, g_array, source, 2, 1, 100, 1);
    else
      shmem_ctx_uint64_atomic_set(ctx, &g_word, 1, 0);
    if (quiet_first) shmem_ctx_quiet(ctx);
    shmem_fcollectmem(SHMEM_TEAM_WORLD, g_collect_dst, g_collect_src, 2);
    shmem_ctx_quiet(ctx);
  }
  alarm(0);
  shmem_ctx_destroy(ctx);
  shmem_barrier_all();
  int errors = 0;
  if (me == 1) {
    for (int i = 0; i < 100; ++i)
      if (g_array[2 * i] != source[i]) {
        std::printf("regress_ctx_progress: PE 1: g_array[%d] = %ld, expected %ld\n", 2 * i,
                    g_array[2 * i], source[i]);
        ++errors;
      }
  } else if (g_word != 1) {
    std::printf("regress_ctx_progress: PE 0: the word PE 1 set is %llu, expected 1\n",
                static_cast<unsigned long long>(g_word));
    ++errors;
  }
  if (me == 0 && errors == 0) std::printf("regress_ctx_progress: %d rounds, no hang\n", rounds);
  shmem_finalize();
  return errors == 0 ? 0 : 1;
}
