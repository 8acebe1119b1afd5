// SHMEM_THREAD_MULTIPLE: several threads of every PE issue puts, gets and AMOs at the same
// time, on the default context, on one shared created context, on a SERIALIZED context
// shared under a mutex, and on per-thread PRIVATE contexts that each thread creates, uses,
// quiets and destroys itself. Totals are exact:
//   * every thread fetch-adds a counter on every PE kIters times (on the heap and in .bss):
//     each counter ends at kThreads * n_pes * kIters, each thread's fetched values grow
//     strictly, and the fetched values of a counter sum to 0 + 1 + ... + (total - 1);
//   * every thread puts its pattern into its own slot on the next PE (heap and .bss);
//   * every thread's get_nbi is complete after that thread's quiet, however the other
//     threads use the same context at the same time.
// The program runs with SHOAL_TEST_INIT_THREAD=MULTIPLE (the harness calls
// shmem_init_thread); without it every test is skipped.
#include "ctx_test_util.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

using namespace shoal::test;
using namespace shoal::test::ctx;

namespace {

constexpr int kThreads = 4;
constexpr int kIters = 64;
constexpr int kSlot = 96;  // longs per thread slot

// .bss targets: counters and per-thread slots, written by other PEs through UCX.
long g_counter;
long g_slots[kThreads][kSlot];
long g_get_src[kThreads][kSlot];  // read by the left neighbour's threads

bool multiple_provided() {
  int provided = -1;
  shmem_query_thread(&provided);
  return provided == SHMEM_THREAD_MULTIPLE;
}

// Skips a run that did not ask for MULTIPLE; one that asked and did not get it skips only
// under another implementation (Shoal provides MULTIPLE, so there it fails).
#define SHOAL_REQUIRE_MULTIPLE()                                                   \
  do {                                                                             \
    if (requested_thread_level() != SHMEM_THREAD_MULTIPLE)                         \
      GTEST_SKIP() << "needs SHOAL_TEST_INIT_THREAD=MULTIPLE";                     \
    if (!multiple_provided())                                                      \
      SHOAL_SKIP_UNLESS_SHOAL("SHMEM_THREAD_MULTIPLE requested but not provided"); \
  } while (0)

long slot_value(int pe, int thread, int round, std::size_t i) {
  return value_of<long>(pe, static_cast<std::size_t>(thread * 100000 + round * 1000) + i);
}

// What one thread found wrong; merged and reported on the main thread.
struct ThreadReport {
  long non_increasing_fetches = 0;
  long bad_gets = 0;
  long first_bad_get_iter = -1;
  std::vector<long> fetched_sum;  // per target PE, for the heap counter
  std::vector<long> fetched_sum_static;
};

// How a thread reaches the library in one scenario.
enum class Use { default_ctx, shared_ctx, serialized_ctx, private_ctx };

const char* use_name(Use u) {
  switch (u) {
    case Use::default_ctx:
      return "default context";
    case Use::shared_ctx:
      return "one shared created context";
    case Use::serialized_ctx:
      return "one SERIALIZED context under a mutex";
    case Use::private_ctx:
      return "a PRIVATE context per thread";
  }
  return "?";
}

// The work of thread `t`: puts into its slot on the right neighbour, fetch-adds on every PE's
// counters, gets of the right neighbour's source, all through `c`. `lock` serializes the
// calls when the context is SERIALIZED.
void thread_work(shmem_ctx_t c, std::mutex* lock, int t, long* heap_counter, long* heap_slots,
                 ThreadReport& rep) {
  const int n = npes(), r = right();
  auto guard = [lock]() {
    return lock ? std::unique_lock<std::mutex>(*lock) : std::unique_lock<std::mutex>();
  };
  rep.fetched_sum.assign(n, 0);
  rep.fetched_sum_static.assign(n, 0);
  std::vector<long> last(n, -1), last_static(n, -1);
  long src[kSlot];
  long got[kSlot];
  for (int it = 0; it < kIters; ++it) {
    // Put: this thread's slot on the right neighbour, heap (blocking) and .bss (nbi).
    for (int i = 0; i < kSlot; ++i) src[i] = slot_value(me(), t, it, static_cast<std::size_t>(i));
    {
      auto g = guard();
      shmem_ctx_long_put(c, heap_slots + t * kSlot, src, kSlot, r);
      shmem_ctx_long_put_nbi(c, g_slots[t], src, kSlot, r);
    }
    // Fetch-add on every PE, heap and .bss, and plain add (inc) on the heap counter's twin.
    for (int k = 0; k < n; ++k) {
      const int pe = (me() + k) % n;
      long old, old_static;
      {
        auto g = guard();
        old = shmem_ctx_long_atomic_fetch_add(c, heap_counter, 1, pe);
        old_static = shmem_ctx_long_atomic_fetch_add(c, &g_counter, 1, pe);
        shmem_ctx_long_atomic_inc(c, heap_counter + 1, pe);
      }
      if (old <= last[pe]) ++rep.non_increasing_fetches;
      if (old_static <= last_static[pe]) ++rep.non_increasing_fetches;
      last[pe] = old;
      last_static[pe] = old_static;
      rep.fetched_sum[pe] += old;
      rep.fetched_sum_static[pe] += old_static;
    }
    // get_nbi of the right neighbour's source for this thread, complete after this thread's
    // own quiet even though other threads issue and quiet on the same context meanwhile.
    for (int i = 0; i < kSlot; ++i) got[i] = -7;
    {
      auto g = guard();
      shmem_ctx_long_get_nbi(c, got, g_get_src[t], kSlot, r);
      shmem_ctx_quiet(c);  // completes the put_nbi above as well (its source is reused)
    }
    for (int i = 0; i < kSlot; ++i) {
      if (got[i] != slot_value(r, t, -1, static_cast<std::size_t>(i))) {
        if (rep.bad_gets++ == 0) rep.first_bad_get_iter = it;
        break;
      }
    }
  }
  auto g = guard();
  shmem_ctx_quiet(c);
}

void run_threads(Use use) {
  SCOPED_TRACE(use_name(use));
  const int n = npes();
  SymArray<long> heap_counter(2);  // [0] fetch_add target, [1] inc target
  SymArray<long> heap_slots(kThreads * kSlot);
  SHOAL_ASSERT_ALL_PES(heap_counter && heap_slots);
  heap_counter[0] = heap_counter[1] = 0;
  g_counter = 0;
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kSlot; ++i) {
      heap_slots[t * kSlot + i] = -1;
      g_slots[t][i] = -1;
      g_get_src[t][i] = slot_value(me(), t, -1, static_cast<std::size_t>(i));
    }

  std::unique_ptr<ScopedCtx> shared;
  if (use == Use::shared_ctx) shared = std::make_unique<ScopedCtx>(0);
  if (use == Use::serialized_ctx) shared = std::make_unique<ScopedCtx>(SHMEM_CTX_SERIALIZED);
  SHOAL_ASSERT_ALL_PES(!shared || shared->ok());
  std::mutex serial;
  shmem_barrier_all();

  std::vector<ThreadReport> reports(kThreads);
  std::atomic<int> create_failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      switch (use) {
        case Use::default_ctx:
          thread_work(SHMEM_CTX_DEFAULT, nullptr, t, heap_counter.get(), heap_slots.get(),
                      reports[t]);
          break;
        case Use::shared_ctx:
          thread_work(shared->get(), nullptr, t, heap_counter.get(), heap_slots.get(), reports[t]);
          break;
        case Use::serialized_ctx:
          thread_work(shared->get(), &serial, t, heap_counter.get(), heap_slots.get(), reports[t]);
          break;
        case Use::private_ctx: {
          shmem_ctx_t mine = SHMEM_CTX_INVALID;
          if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &mine) != 0 || mine == SHMEM_CTX_INVALID) {
            ++create_failures;
            // Keep the totals exact: fall back to the default context.
            thread_work(SHMEM_CTX_DEFAULT, nullptr, t, heap_counter.get(), heap_slots.get(),
                        reports[t]);
            break;
          }
          thread_work(mine, nullptr, t, heap_counter.get(), heap_slots.get(), reports[t]);
          shmem_ctx_destroy(mine);
          break;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  shared.reset();  // destroys (and quiets) the shared context
  EXPECT_EQ(create_failures.load(), 0) << "threads could not create their PRIVATE context";
  shmem_barrier_all();

  const long total = static_cast<long>(kThreads) * n * kIters;
  EXPECT_EQ(heap_counter[0], total) << "heap counter after every thread's fetch_add";
  EXPECT_EQ(heap_counter[1], total) << "heap counter after every thread's inc";
  EXPECT_EQ(g_counter, total) << ".bss counter after every thread's fetch_add";
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_TRUE(check_range(
        "heap slot written by the left neighbour's thread", heap_slots.get(),
        static_cast<std::size_t>(t * kSlot), static_cast<std::size_t>((t + 1) * kSlot),
        [&](std::size_t i) {
          return slot_value(left(), t, kIters - 1, i - static_cast<std::size_t>(t * kSlot));
        }))
        << "thread " << t;
    EXPECT_TRUE(check_range(".bss slot written by the left neighbour's thread", g_slots[t], 0,
                            kSlot,
                            [&](std::size_t i) { return slot_value(left(), t, kIters - 1, i); }))
        << "thread " << t;
  }
  long non_increasing = 0, bad_gets = 0;
  for (int t = 0; t < kThreads; ++t) {
    non_increasing += reports[t].non_increasing_fetches;
    bad_gets += reports[t].bad_gets;
    EXPECT_EQ(reports[t].bad_gets, 0)
        << "thread " << t << ": " << reports[t].bad_gets << " of " << kIters
        << " get_nbi were not complete after the thread's own shmem_ctx_quiet (first in iteration "
        << reports[t].first_bad_get_iter << ")";
  }
  EXPECT_EQ(non_increasing, 0)
      << "a thread's successive fetch_add results on one counter did not grow";
  // Fetched values on each counter: a permutation of 0 .. total-1 has this sum.
  const long want_sum = total * (total - 1) / 2;
  for (int pe = 0; pe < n; ++pe) {
    long mine = 0, mine_static = 0;
    for (int t = 0; t < kThreads; ++t) {
      mine += reports[t].fetched_sum[pe];
      mine_static += reports[t].fetched_sum_static[pe];
    }
    // sum_over_pes adds ints; the sums stay far below INT_MAX for kIters * kThreads * 8 PEs.
    const long sum = sum_over_pes(static_cast<int>(mine));
    const long sum_static = sum_over_pes(static_cast<int>(mine_static));
    EXPECT_EQ(sum, want_sum) << "fetch_add results on PE " << pe << "'s heap counter";
    EXPECT_EQ(sum_static, want_sum) << "fetch_add results on PE " << pe << "'s .bss counter";
  }
  shmem_barrier_all();
}

// Threads hammering get_nbi + quiet on one shared context: each thread's quiet must complete
// that thread's get, whatever the other threads' quiets did to the context meanwhile.
void get_quiet_race(shmem_ctx_t c, const char* what) {
  SCOPED_TRACE(what);
  constexpr int kRounds = 3000;
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kSlot; ++i)
      g_get_src[t][i] = slot_value(me(), t, -1, static_cast<std::size_t>(i));
  shmem_barrier_all();
  std::atomic<long> incomplete{0};
  std::atomic<long> first_round{-1};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const int r = right();
      long got[8];
      for (int round = 0; round < kRounds; ++round) {
        for (auto& g : got) g = -7;
        shmem_ctx_long_get_nbi(c, got, g_get_src[t], 8, r);
        shmem_ctx_quiet(c);
        for (int i = 0; i < 8; ++i) {
          if (got[i] != slot_value(r, t, -1, static_cast<std::size_t>(i))) {
            long expected = -1;
            first_round.compare_exchange_strong(expected, round);
            ++incomplete;
            break;
          }
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(incomplete.load(), 0)
      << incomplete.load() << " of " << kThreads * kRounds
      << " get_nbi were not complete when the issuing thread's shmem_ctx_quiet returned (first "
         "in round "
      << first_round.load() << ")";
  shmem_barrier_all();
}

}  // namespace

TEST(CtxThreads, ProvidedLevelIsMultiple) {
  if (requested_thread_level() != SHMEM_THREAD_MULTIPLE)
    GTEST_SKIP() << "run with SHOAL_TEST_INIT_THREAD=MULTIPLE";
  EXPECT_EQ(init_thread_rc(), 0);
  EXPECT_EQ(provided_thread_level(), SHMEM_THREAD_MULTIPLE);
  shmem_barrier_all();
}

// The classic notification ping-pong between PE pairs on each kind of created context: a put,
// a fence and the flag set by an atomic, then a wait for the partner's answer, with no quiet.
// Across hosts the fence leaves the atomic queued in the context's worker until something
// progresses it (a fresh worker still connecting, say), which must be the waiting PE's own
// wait: on a SERIALIZED context nothing did, and the pair waited for ever. First of the tests
// that create contexts, so that each gets a fresh worker rather than one a destroyed context
// left connected. The data put before each flag must be there with it.
long g_note_flag;
long g_note_data[4];

TEST(CtxThreads, NotificationPingPongOnEveryContext) {
  SHOAL_REQUIRE_MULTIPLE();
  constexpr long kRounds = 50;
  const int partner = me() ^ 1;
  for (const long options : {long{SHMEM_CTX_SERIALIZED}, 0L, long{SHMEM_CTX_PRIVATE}}) {
    ScopedCtx c(options);
    SHOAL_ASSERT_ALL_PES(c.ok());
    g_note_flag = 0;
    shmem_barrier_all();
    if (partner < npes()) {
      long mismatches = 0;
      for (long round = 1; round <= kRounds; ++round) {
        const bool first = me() % 2 == 0;
        if (!first) shmem_long_wait_until(&g_note_flag, SHMEM_CMP_EQ, round);
        if (!first && g_note_data[round % 4] != round * 10 + partner) ++mismatches;
        const long data = round * 10 + me();
        shmem_ctx_long_put(c, &g_note_data[round % 4], &data, 1, partner);
        shmem_ctx_fence(c);
        shmem_ctx_long_atomic_set(c, &g_note_flag, round, partner);
        if (first) shmem_long_wait_until(&g_note_flag, SHMEM_CMP_EQ, round);
        if (first && g_note_data[round % 4] != round * 10 + partner) ++mismatches;
      }
      EXPECT_EQ(mismatches, 0) << "options " << options
                               << ": rounds whose flag came before the data put before it";
    }
    shmem_ctx_quiet(c);
    shmem_barrier_all();
  }
}

TEST(CtxThreads, DefaultContext) {
  SHOAL_REQUIRE_MULTIPLE();
  run_threads(Use::default_ctx);
}

TEST(CtxThreads, PrivateContextPerThread) {
  SHOAL_REQUIRE_MULTIPLE();
  run_threads(Use::private_ctx);
}

TEST(CtxThreads, SharedCreatedContext) {
  SHOAL_REQUIRE_MULTIPLE();
  run_threads(Use::shared_ctx);
}

TEST(CtxThreads, SerializedContextUnderMutex) {
  SHOAL_REQUIRE_MULTIPLE();
  run_threads(Use::serialized_ctx);
}

// Threads create and destroy PRIVATE contexts concurrently, many times.
TEST(CtxThreads, ConcurrentCreateDestroy) {
  SHOAL_REQUIRE_MULTIPLE();
  constexpr int kCycles = 4;
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kSlot; ++i) g_slots[t][i] = -1;
  shmem_barrier_all();
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < kCycles; ++k) {
        shmem_ctx_t c = SHMEM_CTX_INVALID;
        const long options = k % 2 ? SHMEM_CTX_PRIVATE : SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE;
        if (shmem_ctx_create(options, &c) != 0 || c == SHMEM_CTX_INVALID) {
          ++failures;
          continue;
        }
        shmem_ctx_long_p(c, &g_slots[t][k], slot_value(me(), t, k, 0), right());
        shmem_ctx_quiet(c);
        shmem_ctx_destroy(c);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  shmem_barrier_all();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_TRUE(
        check_range("slots written through short-lived PRIVATE contexts", g_slots[t], 0, kCycles,
                    [&](std::size_t k) { return slot_value(left(), t, static_cast<int>(k), 0); }))
        << "thread " << t;
  shmem_barrier_all();
}

TEST(CtxThreads, GetNbiCompleteAfterOwnQuietOnDefaultContext) {
  SHOAL_REQUIRE_MULTIPLE();
  get_quiet_race(SHMEM_CTX_DEFAULT, "default context");
}

TEST(CtxThreads, GetNbiCompleteAfterOwnQuietOnSharedContext) {
  SHOAL_REQUIRE_MULTIPLE();
  ScopedCtx c(0);
  SHOAL_ASSERT_ALL_PES(c.ok());
  get_quiet_race(c, "shared created context");
}
