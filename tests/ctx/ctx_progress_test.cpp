// Target-side progress: PE 0 computes for about 1.2 seconds without calling the library while
// every other PE does a fetch-add and a get on PE 0's global (.bss) variables and on its heap
// variables, on the default context and on a created one. With the progress thread (the
// default) each operation must complete well within PE 0's compute time, and PE 0 itself
// must see the other PEs' fetch-adds land in its memory while it is still computing (plain
// loads of its own memory, no library call). With SMA_PROGRESS_THREAD=0 only the values are
// checked: the operations may wait until PE 0 calls the library again.
//
// A second test puts every PE inside shmem_ctx_quiet at once, each waiting for its neighbour
// to serve a get (a ring), which must not deadlock with or without the progress thread.
//
// Timing on an oversubscribed machine (8 PEs on 2 cores): PE 0's busy loop holds one core;
// the bound per operation (0.6 s) is hundreds of times what an operation needs when the
// progress thread gets scheduled, and is checked only where the progress thread is on.
#include "ctx_test_util.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace shoal::test;
using namespace shoal::test::ctx;

namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kCompute = std::chrono::milliseconds(1200);
// Without the progress thread only values are checked, and the operations wait for PE 0 to
// return to the library anyway: a short computation shows the same.
constexpr auto kComputeNoThread = std::chrono::milliseconds(300);
// Without target-side progress the first operation waits for PE 0 to stop computing, over a
// second after it started (kCompute - kStartDelay): well above the bound.
constexpr double kBoundSeconds = 0.6;
// Other PEs start a little after the barrier, so PE 0 is surely in its busy loop.
constexpr auto kStartDelay = std::chrono::milliseconds(150);

// PE 0's global targets (data segment: reached through UCX from every other PE).
long g_counter;      // fetch-add target
long g_counter_ctx;  // fetch-add target of the created context
long g_value[16];    // get source
long g_observed[4];  // PE 0's own record, see compute()

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// PE 0's "computation": a busy loop with no library call for `duration`. Meanwhile it watches,
// with plain loads, when the other PEs' fetch-adds on its counters complete, and records the
// time (seconds into the loop, or -1 if not before the end).
void compute(std::chrono::milliseconds duration, const long* heap_counter,
             const long* heap_counter_ctx, long expected) {
  const auto t0 = Clock::now();
  const volatile long* watched[4] = {&g_counter, &g_counter_ctx, heap_counter, heap_counter_ctx};
  double seen_at[4] = {-1, -1, -1, -1};
  volatile double sink = 1.0;
  while (Clock::now() - t0 < duration) {
    for (int i = 0; i < 1000; ++i) sink = sink * 1.0000001 + 1e-9;
    for (int k = 0; k < 4; ++k)
      if (seen_at[k] < 0 && *watched[k] == expected) seen_at[k] = seconds_since(t0);
  }
  for (int k = 0; k < 4; ++k) g_observed[k] = static_cast<long>(seen_at[k] * 1e6);  // microseconds
}

// Ends the process if the guarded scope does not finish in time, so a deadlock inside the
// library fails the test with a message instead of running into the CTest timeout. The
// watchdog thread never calls the library.
class Watchdog {
 public:
  Watchdog(std::chrono::seconds limit, std::string what) : what_(std::move(what)), pe_(me()) {
    thread_ = std::thread([this, limit] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!cv_.wait_for(lock, limit, [this] { return done_; })) {
        std::fprintf(stderr,
                     "[PE %d] FAILED: %s did not return within %lld s (deadlock: every PE waits "
                     "inside the library for a peer that does not serve it)\n",
                     pe_, what_.c_str(), static_cast<long long>(limit.count()));
        std::fflush(stderr);
        std::fflush(stdout);
        std::_Exit(3);
      }
    });
  }
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::string what_;
  int pe_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

constexpr std::size_t kRingBytes = 64 * 1024;
unsigned char g_ring_src[kRingBytes];  // .bss: reached through UCX from every other PE

struct Timed {
  const char* what;
  double seconds;
};

}  // namespace

TEST(CtxProgress, OperationsCompleteWhileTargetComputes) {
  SHOAL_REQUIRE_MIN_NPES(2);
  const int n = npes();
  const bool progress = progress_thread_enabled();
  ScopedCtx c(0);
  SHOAL_ASSERT_ALL_PES(c.ok());
  SymArray<long> heap(2 + 16);  // [0] counter, [1] counter of the created context, [2..] get source
  SHOAL_ASSERT_ALL_PES(heap);

  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE(round == 0 ? "first round" : "second round (workers already connected)");
    heap[0] = heap[1] = 0;
    g_counter = g_counter_ctx = 0;
    for (int i = 0; i < 16; ++i) {
      heap[2 + i] = value_of<long>(me(), static_cast<std::size_t>(i + 100 * round));
      g_value[i] = value_of<long>(me(), static_cast<std::size_t>(i + 50 + 100 * round));
    }
    for (auto& o : g_observed) o = -2;
    shmem_barrier_all();

    std::vector<Timed> times;
    long fetched[4] = {-1, -1, -1, -1};
    long got_static[16], got_heap[16];
    if (me() == 0) {
      compute(progress ? kCompute : kComputeNoThread, &heap[0], &heap[1], n - 1);
    } else {
      std::this_thread::sleep_for(kStartDelay);
      auto timed = [&](const char* what, auto&& op) {
        const auto t0 = Clock::now();
        op();
        times.push_back({what, seconds_since(t0)});
      };
      timed("fetch_add on PE 0's global (default context)",
            [&] { fetched[0] = shmem_long_atomic_fetch_add(&g_counter, 1, 0); });
      timed("get of PE 0's global (default context)",
            [&] { shmem_long_get(got_static, g_value, 16, 0); });
      timed("fetch_add on PE 0's heap variable (default context)",
            [&] { fetched[1] = shmem_long_atomic_fetch_add(&heap[0], 1, 0); });
      timed("get of PE 0's heap variable (default context)",
            [&] { shmem_long_get(got_heap, &heap[2], 16, 0); });
      timed("fetch_add on PE 0's global (created context)",
            [&] { fetched[2] = shmem_ctx_long_atomic_fetch_add(c, &g_counter_ctx, 1, 0); });
      timed("fetch_add on PE 0's heap variable (created context)",
            [&] { fetched[3] = shmem_ctx_long_atomic_fetch_add(c, &heap[1], 1, 0); });
      timed("g of PE 0's global (created context)",
            [&] { (void)shmem_ctx_long_g(c, &g_value[15], 0); });
      timed("quiet of the created context", [&] { shmem_ctx_quiet(c); });
    }
    shmem_barrier_all();

    if (me() == 0) {
      EXPECT_EQ(g_counter, n - 1) << "global counter after every other PE's fetch_add";
      EXPECT_EQ(g_counter_ctx, n - 1) << "global counter (created context)";
      EXPECT_EQ(heap[0], n - 1) << "heap counter after every other PE's fetch_add";
      EXPECT_EQ(heap[1], n - 1) << "heap counter (created context)";
      if (progress) {
        const char* names[4] = {"global counter (default context)",
                                "global counter (created context)",
                                "heap counter (default context)", "heap counter (created context)"};
        for (int k = 0; k < 4; ++k)
          EXPECT_GE(g_observed[k], 0)
              << names[k] << ": the other PEs' fetch_adds had not all landed when PE 0 stopped "
              << "computing after " << std::chrono::duration<double>(kCompute).count()
              << " s: nothing served them while PE 0 was busy";
      }
    } else {
      for (int k = 0; k < 4; ++k) {
        EXPECT_GE(fetched[k], 0) << "fetch_add " << k << " returned " << fetched[k];
        EXPECT_LT(fetched[k], n - 1) << "fetch_add " << k << " returned " << fetched[k];
      }
      EXPECT_TRUE(check_range("get of PE 0's global", got_static, 0, 16, [&](std::size_t i) {
        return value_of<long>(0, i + 50 + 100 * static_cast<std::size_t>(round));
      }));
      EXPECT_TRUE(check_range("get of PE 0's heap variable", got_heap, 0, 16, [&](std::size_t i) {
        return value_of<long>(0, i + 100 * static_cast<std::size_t>(round));
      }));
      if (progress) {
        for (const Timed& t : times)
          EXPECT_LT(t.seconds, kBoundSeconds)
              << t.what << " took " << t.seconds << " s while PE 0 was computing for "
              << std::chrono::duration<double>(kCompute).count()
              << " s: it was not served by PE 0's progress thread";
      }
    }
    // The distinct fetched values: each counter's results over the other PEs are 0..n-2.
    for (int k = 0; k < 4; ++k) {
      const int mine = me() == 0 ? 0 : static_cast<int>(fetched[k]);
      EXPECT_EQ(sum_over_pes(mine), (n - 1) * (n - 2) / 2) << "fetch_add results of counter " << k;
    }
    shmem_barrier_all();
  }
}

// Every PE at once: nonblocking gets from the right neighbour's .bss on a created context, then
// shmem_ctx_quiet on that context. Each PE waits inside the quiet for its neighbour to serve
// the gets while the neighbour is itself inside its own quiet. Served by the progress thread;
// without it, a PE waiting in the library must still serve its peers (the library's
// SMA_PROGRESS_THREAD=0 mode serves remote operations "while this PE is in the library").
TEST(CtxProgress, RingOfContextQuiets) {
  ScopedCtx c(0);
  SHOAL_ASSERT_ALL_PES(c.ok());
  const std::size_t sizes[] = {8, 4096, kRingBytes};
  std::vector<unsigned char> got(kRingBytes);
  for (int round = 0; round < 6; ++round) {
    const std::size_t bytes = sizes[round % 3];
    for (std::size_t i = 0; i < kRingBytes; ++i)
      g_ring_src[i] = static_cast<unsigned char>(me() * 29 + round * 7 + i);
    std::fill(got.begin(), got.end(), 0xEE);
    shmem_barrier_all();
    {
      Watchdog dog(std::chrono::seconds(20), "shmem_ctx_quiet after a " + std::to_string(bytes) +
                                                 "-byte getmem_nbi in a ring of PEs (round " +
                                                 std::to_string(round) + ")");
      shmem_ctx_getmem_nbi(c, got.data(), g_ring_src, bytes, right());
      shmem_ctx_quiet(c);
    }
    std::size_t bad = 0;
    for (std::size_t i = 0; i < bytes; ++i)
      if (got[i] != static_cast<unsigned char>(right() * 29 + round * 7 + i)) ++bad;
    EXPECT_EQ(bad, 0u) << "round " << round << ": " << bad << " of " << bytes
                       << " bytes wrong after the context's quiet";
    shmem_barrier_all();
  }
}
