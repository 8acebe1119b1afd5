// shmem_init_thread / shmem_query_thread. The harness initialises with
// shmem_init_thread(level) when SHOAL_TEST_INIT_THREAD is set; CTest registers this
// program once per level.
#include "mpp_test.hpp"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

using namespace shoal::test;

namespace {
long g_thread_slots[4 * 64];  // symmetric: 4 threads x 64 elements
}

TEST(InitThread, ProvidedLevelIsHonest) {
  if (requested_thread_level() < 0) GTEST_SKIP() << "started through shmem_init";
  EXPECT_EQ(init_thread_rc(), 0);
  const int provided = provided_thread_level();
  EXPECT_GE(provided, SHMEM_THREAD_SINGLE);
  EXPECT_LE(provided, SHMEM_THREAD_MULTIPLE);
  int queried = -1;
  shmem_query_thread(&queried);
  EXPECT_EQ(queried, provided) << "shmem_query_thread disagrees with shmem_init_thread";
  // Every PE must report the same level (same library, same request).
  EXPECT_EQ(sum_over_pes(provided), provided * npes());
#if SHOAL_TEST_IMPL_IS_SHOAL
  // Shoal provides every level, MULTIPLE included: it gives what was asked for, so the
  // MULTIPLE tests below cannot skip for want of it.
  const int expected =
      std::clamp(requested_thread_level(), int{SHMEM_THREAD_SINGLE}, int{SHMEM_THREAD_MULTIPLE});
  EXPECT_EQ(provided, expected) << "requested " << requested_thread_level();
#endif
}

TEST(InitThread, LevelsAreOrdered) {
  EXPECT_LT(SHMEM_THREAD_SINGLE, SHMEM_THREAD_FUNNELED);
  EXPECT_LT(SHMEM_THREAD_FUNNELED, SHMEM_THREAD_SERIALIZED);
  EXPECT_LT(SHMEM_THREAD_SERIALIZED, SHMEM_THREAD_MULTIPLE);
}

// If MULTIPLE is provided, several threads may issue RMA at once.
TEST(InitThread, ConcurrentRmaWhenMultiple) {
  int provided = -1;
  shmem_query_thread(&provided);
  if (provided != SHMEM_THREAD_MULTIPLE) {
    if (requested_thread_level() != SHMEM_THREAD_MULTIPLE)
      GTEST_SKIP() << "run with SHOAL_TEST_INIT_THREAD=MULTIPLE";
    SHOAL_SKIP_UNLESS_SHOAL("SHMEM_THREAD_MULTIPLE requested but not provided");
  }
  for (auto& v : g_thread_slots) v = -1;
  shmem_barrier_all();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t] {
      long src[64];
      for (int round = 0; round < 50; ++round) {
        for (int i = 0; i < 64; ++i) src[i] = value_of<long>(me(), t * 64 + i);
        shmem_long_put(&g_thread_slots[t * 64], src, 64, right());
        shmem_long_p(&g_thread_slots[t * 64 + 63], value_of<long>(me(), t * 64 + 63), right());
        (void)shmem_long_g(&g_thread_slots[t * 64], right());
      }
      shmem_quiet();
    });
  }
  for (auto& th : threads) th.join();
  shmem_barrier_all();
  EXPECT_TRUE(check_range("slots written by 4 threads of the left PE", g_thread_slots, 0, 4 * 64,
                          [&](std::size_t i) { return value_of<long>(left(), i); }));
  shmem_barrier_all();
}

// With FUNNELED or higher, a program may have other threads that never call OpenSHMEM;
// with SERIALIZED or higher, another thread may call it as long as calls do not overlap.
TEST(InitThread, SerializedCallsFromAnotherThread) {
  int provided = -1;
  shmem_query_thread(&provided);
  if (provided < SHMEM_THREAD_SERIALIZED) {
    if (requested_thread_level() < SHMEM_THREAD_SERIALIZED)
      GTEST_SKIP() << "run with SHOAL_TEST_INIT_THREAD=SERIALIZED or MULTIPLE";
    SHOAL_SKIP_UNLESS_SHOAL("SHMEM_THREAD_SERIALIZED or more requested but not provided");
  }
  for (auto& v : g_thread_slots) v = -1;
  shmem_barrier_all();
  std::thread th([] {
    long src[8];
    for (int i = 0; i < 8; ++i) src[i] = value_of<long>(me(), i);
    shmem_long_put(g_thread_slots, src, 8, right());
    shmem_quiet();
  });
  th.join();
  shmem_barrier_all();
  EXPECT_TRUE(check_range("put from a second thread", g_thread_slots, 0, 8,
                          [&](std::size_t i) { return value_of<long>(left(), i); }));
  shmem_barrier_all();
}
