// Regression test for a hang the soak found (seed 201 at 4 PEs, SMA_PROGRESS_THREAD=0): with the
// progress thread off, a PE that polled a signal with shmem_signal_fetch never served what other
// PEs asked of it through UCX (shmem_signal_fetch did not progress UCX, unlike shmem_test), so a
// peer's get from it never completed and the signal the poller waited for was never sent.
// CTest runs it with SMA_PROGRESS_THREAD=0 and polls with shmem_signal_fetch; the argument "test"
// polls with shmem_uint64_test instead. A hang ends by alarm with exit 1.
#include <shmem.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <unistd.h>

static long g_value = 42;  // static data of every PE: reached through UCX even on one node
static std::uint64_t g_signal;
static long g_landing;

static void on_alarm(int) {
  static const char msg[] =
      "regress_signal_fetch: PE 1 polled shmem_signal_fetch for 30 s: PE 0's shmem_long_g from PE "
      "1 never "
      "completed, so its put_signal never came\n";
  (void)!write(1, msg, sizeof msg - 1);
  _exit(1);
}

int main(int argc, char** argv) {
  const bool poll_with_test = argc > 1 && std::strcmp(argv[1], "test") == 0;
  shmem_init();
  if (shmem_n_pes() != 2) {
    if (shmem_my_pe() == 0) std::printf("regress_signal_fetch: run with 2 PEs\n");
    shmem_finalize();
    return 2;
  }
  if (shmem_my_pe() == 0) {
    const long v = shmem_long_g(&g_value, 1);  // needs PE 1's UCX worker to progress
    shmem_long_put_signal(&g_landing, &v, 1, &g_signal, 1, SHMEM_SIGNAL_SET, 1);
  } else {
    std::signal(SIGALRM, on_alarm);
    alarm(30);
    if (poll_with_test) {
      while (shmem_uint64_test(&g_signal, SHMEM_CMP_NE, 0) == 0) {
      }
    } else {
      while (shmem_signal_fetch(&g_signal) == 0) {
      }
    }
    alarm(0);
    std::printf("regress_signal_fetch: PE 1 got the signal polling with %s, value %ld\n",
                poll_with_test ? "shmem_uint64_test" : "shmem_signal_fetch", g_landing);
  }
  const bool ok = shmem_my_pe() == 0 || (g_landing == 42 && g_signal == 1);
  if (!ok)
    std::printf("regress_signal_fetch: PE 1 got value %ld and signal %llu, expected 42 and 1\n",
                g_landing, static_cast<unsigned long long>(g_signal));
  shmem_barrier_all();
  shmem_finalize();
  return ok ? 0 : 1;
}
