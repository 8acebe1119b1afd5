// Distributed locks: shmem_set_lock, shmem_test_lock, shmem_clear_lock.
//
// Mutual exclusion is checked the way programs depend on it: a counter on one PE updated
// with a non-atomic get, add and put inside the critical section comes out exact only if no
// two PEs are ever inside at once and clear_lock completes the put before passing the lock on.
// An occupancy count (an AMO on entry and exit) names the overlap directly when it happens.
#include "mpp_test.hpp"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <vector>

using namespace shoal::test;

// Locks and counters in the data segment (symmetric without shmem_malloc).
long g_lock = 0;
long g_counter = 0;
int g_occupancy = 0;

namespace {

// Enough rounds to interleave every pair of PEs many times, few enough to stay in seconds with
// 8 PEs on 2 cores through UCX.
int rounds_per_pe() { return std::max(25, 400 / npes()); }

// The lock must be free and everything 0 on every PE on entry. Collective.
void counter_rounds(long* lock, long* counter, int* occupancy, int owner, int rounds) {
  int overlaps = 0;
  for (int r = 0; r < rounds; ++r) {
    shmem_set_lock(lock);
    if (shmem_int_atomic_fetch_inc(occupancy, owner) != 0) ++overlaps;
    const long v = shmem_long_g(counter, owner);
    shmem_long_p(counter, v + 1, owner);  // completed by clear_lock, not by us
    shmem_int_atomic_add(occupancy, -1, owner);
    shmem_clear_lock(lock);
  }
  EXPECT_EQ(overlaps, 0) << "another PE was inside the critical section";
  shmem_barrier_all();
  EXPECT_EQ(shmem_long_g(counter, owner), static_cast<long>(rounds) * npes());
  shmem_barrier_all();
}

TEST(Lock, CounterOnHeap) {
  SymArray<long> lock(1), counter(1);
  SymArray<int> occupancy(1);
  SHOAL_ASSERT_ALL_PES(lock && counter && occupancy);
  lock[0] = counter[0] = 0;
  occupancy[0] = 0;
  shmem_barrier_all();
  counter_rounds(lock.get(), counter.get(), occupancy.get(), npes() - 1, rounds_per_pe());
}

TEST(Lock, CounterOnGlobals) {
  shmem_barrier_all();
  counter_rounds(&g_lock, &g_counter, &g_occupancy, npes() / 2, rounds_per_pe());
}

// The lock is reusable after use: a second run on the same globals.
TEST(Lock, CounterOnGlobalsAgain) {
  g_counter = 0;
  shmem_barrier_all();
  counter_rounds(&g_lock, &g_counter, &g_occupancy, 0, rounds_per_pe());
}

// test_lock: 0 and the lock is ours when nobody holds or waits for it, 1 while anyone holds it.
TEST(Lock, TestLockSemantics) {
  SymArray<long> lock(1);
  SHOAL_ASSERT_ALL_PES(lock);
  lock[0] = 0;
  shmem_barrier_all();
  if (npes() == 1) {
    EXPECT_EQ(shmem_test_lock(lock.get()), 0);
    EXPECT_EQ(shmem_test_lock(lock.get()), 1) << "held by this PE: test_lock must not take it";
    shmem_clear_lock(lock.get());
    EXPECT_EQ(shmem_test_lock(lock.get()), 0);
    shmem_clear_lock(lock.get());
    shmem_set_lock(lock.get());
    shmem_clear_lock(lock.get());
    return;
  }
  // PE 0 holds it through set_lock: everyone else fails to take it.
  if (me() == 0) shmem_set_lock(lock.get());
  shmem_barrier_all();
  if (me() != 0) EXPECT_EQ(shmem_test_lock(lock.get()), 1) << "PE 0 holds the lock";
  shmem_barrier_all();
  if (me() == 0) shmem_clear_lock(lock.get());
  shmem_barrier_all();
  // Now PE 1 takes it through test_lock; everyone else, PE 0 included, fails.
  int got = me() == 1 ? shmem_test_lock(lock.get()) : -1;
  if (me() == 1) EXPECT_EQ(got, 0) << "the lock was free";
  shmem_barrier_all();
  if (me() != 1) EXPECT_EQ(shmem_test_lock(lock.get()), 1) << "PE 1 holds the lock";
  shmem_barrier_all();
  if (me() == 1 && got == 0) shmem_clear_lock(lock.get());
  shmem_barrier_all();
  // Free again: each PE in turn takes it with test_lock and gives it back.
  for (int pe = 0; pe < npes(); ++pe) {
    if (me() == pe) {
      got = shmem_test_lock(lock.get());
      EXPECT_EQ(got, 0) << "the lock was free";
      if (got == 0) shmem_clear_lock(lock.get());
    }
    shmem_barrier_all();
  }
}

// Half the PEs take the lock by polling test_lock, half by queueing in set_lock.
TEST(Lock, TestLockAndSetLockTogether) {
  SymArray<long> lock(1), counter(1);
  SymArray<int> occupancy(1);
  SHOAL_ASSERT_ALL_PES(lock && counter && occupancy);
  lock[0] = counter[0] = 0;
  occupancy[0] = 0;
  shmem_barrier_all();
  const int owner = 0, rounds = std::max(10, 100 / npes());
  int overlaps = 0;
  for (int r = 0; r < rounds; ++r) {
    if (me() % 2 == 1) {
      while (shmem_test_lock(lock.get()) != 0) sched_yield();  // as a polite poller would
    } else {
      shmem_set_lock(lock.get());
    }
    if (shmem_int_atomic_fetch_inc(occupancy.get(), owner) != 0) ++overlaps;
    shmem_long_p(counter.get(), shmem_long_g(counter.get(), owner) + 1, owner);
    shmem_int_atomic_add(occupancy.get(), -1, owner);
    shmem_clear_lock(lock.get());
  }
  EXPECT_EQ(overlaps, 0);
  shmem_barrier_all();
  EXPECT_EQ(shmem_long_g(counter.get(), owner), static_cast<long>(rounds) * npes());
  shmem_barrier_all();
}

// clear_lock completes the puts of the critical section, nonblocking ones included: each
// holder checks the block the previous holder wrote with put_nbi (never quieted by the test),
// then writes its own.
TEST(Lock, ClearCompletesNonblockingPuts) {
  constexpr std::size_t kElems = 32 * 1024;
  SymArray<long> lock(1), block(kElems);
  SHOAL_ASSERT_ALL_PES(lock && block);
  lock[0] = 0;
  for (std::size_t i = 0; i < kElems; ++i) block[i] = 0;
  shmem_barrier_all();
  const int owner = npes() - 1, rounds = std::max(5, 40 / npes());
  std::vector<long> seen(kElems), mine(kElems);
  int stale = 0;
  for (int r = 0; r < rounds; ++r) {
    shmem_set_lock(lock.get());
    shmem_long_get(seen.data(), block.get(), kElems, owner);
    const long generation = seen[0];
    if (std::count(seen.begin(), seen.end(), generation) != static_cast<long>(kElems)) ++stale;
    std::fill(mine.begin(), mine.end(), generation + 1);
    shmem_long_put_nbi(block.get(), mine.data(), kElems, owner);
    shmem_clear_lock(lock.get());
  }
  EXPECT_EQ(stale, 0) << "a holder saw part of the previous holder's block missing";
  shmem_barrier_all();
  EXPECT_EQ(shmem_long_g(block.get(), owner), static_cast<long>(rounds) * npes());
  EXPECT_EQ(shmem_long_g(block.get() + kElems - 1, owner), static_cast<long>(rounds) * npes());
  shmem_barrier_all();
}

// Several locks at once, side by side in one array (their halves must not interfere), with
// their counters on different PEs; every few rounds two of them nested, in a fixed order.
TEST(Lock, IndependentLocks) {
  constexpr int kLocks = 5;
  SymArray<long> locks(kLocks), counters(kLocks);
  SHOAL_ASSERT_ALL_PES(locks && counters);
  for (int k = 0; k < kLocks; ++k) locks[k] = counters[k] = 0;
  shmem_barrier_all();

  // While PE 0 holds lock 0, every other lock stays available to every PE.
  if (me() == 0) shmem_set_lock(&locks[0]);
  shmem_barrier_all();
  if (me() != 0) EXPECT_EQ(shmem_test_lock(&locks[0]), 1);
  for (int k = 1; k < kLocks; ++k) {
    shmem_set_lock(&locks[k]);
    shmem_clear_lock(&locks[k]);
  }
  shmem_barrier_all();
  if (me() == 0) shmem_clear_lock(&locks[0]);
  shmem_barrier_all();

  auto owner = [](int k) { return (k * 3) % npes(); };
  auto bump = [&](int k) {
    shmem_long_p(&counters[k], shmem_long_g(&counters[k], owner(k)) + 1, owner(k));
  };
  const int rounds = rounds_per_pe();
  std::vector<long> expect(kLocks, 0);
  for (int r = 0; r < rounds; ++r) {
    const int a = (me() + r) % kLocks;
    shmem_set_lock(&locks[a]);
    bump(a);
    ++expect[a];
    if (r % 4 == 0) {  // nested: a second, higher-numbered lock
      const int b = (a + 1 + r % (kLocks - 1)) % kLocks;
      const int lo = std::min(a, b), hi = std::max(a, b);
      if (lo == a) {
        shmem_set_lock(&locks[hi]);
        bump(hi);
        ++expect[hi];
        shmem_clear_lock(&locks[hi]);
      }
    }
    shmem_clear_lock(&locks[a]);
  }
  shmem_barrier_all();
  // Every PE ran the same schedule shifted by its PE number: add up everyone's expectations.
  for (int k = 0; k < kLocks; ++k) {
    const int total = sum_over_pes(static_cast<int>(expect[k]));
    EXPECT_EQ(shmem_long_g(&counters[k], owner(k)), total) << "counter of lock " << k;
  }
  shmem_barrier_all();
}

// ---- fairness -------------------------------------------------------------------------------
// First come, first served: once a PE is queued, each other PE takes the lock at most once
// before it. Which moment a PE is queued is invisible from outside (it is inside set_lock), so
// the check brackets it: the victim reads the acquisition count just before calling set_lock,
// and counts, once it holds the lock, how often each other PE took the lock in between, while
// all of them loop on the lock as fast as they can. Each may have been inside already when the
// count was read, and once more queued ahead: at most 2 each. A descheduling in that short
// window can legitimately let more through, so a victim gets kVictimAttempts attempts (ten: on a
// loaded machine descheduling in that window repeats several times in a row); an unfair lock
// (a greedy PE re-taking it ahead of a queued one) fails all of them. The greedy PEs' critical
// section makes a round trip to the victim, so a PE whose own enqueue is a local AMO cannot
// cycle many times while the victim's enqueue travels to the lock's home PE.
struct Trial {
  bool starved = false;
  int max_bypass = 0;
  std::string detail;
};

constexpr long kLogCap = 1 << 15;
constexpr auto kStarvation = std::chrono::seconds(30);

Trial fifo_trial(long* lock, long* log_len, long* log, long* served, int victim) {
  const int n = npes(), control = (victim + 1) % n;  // the log lives on `control`
  Trial t;
  const auto deadline = std::chrono::steady_clock::now() + kStarvation;
  if (me() != victim) {
    for (;;) {
      shmem_set_lock(lock);
      const long i = shmem_long_atomic_fetch_inc(log_len, control);
      shmem_long_p(&log[i % kLogCap], me(), control);  // a ring: only the latest entries count
      const long done = shmem_long_atomic_fetch(served, victim);  // the round trip
      shmem_clear_lock(lock);
      if (done != 0) break;
      if (std::chrono::steady_clock::now() > deadline) {
        t.starved = true;
        break;
      }
    }
    return t;
  }
  // The victim: let the others get going, then queue once.
  while (shmem_long_atomic_fetch(log_len, control) < 2 * (n - 1)) sched_yield();
  const long before = shmem_long_atomic_fetch(log_len, control);
  shmem_set_lock(lock);
  const long after = shmem_long_atomic_fetch(log_len, control);
  shmem_long_atomic_set(served, 1, victim);
  // Entries [before, after) of the ring, unless so many that the oldest were overwritten.
  const long count = after - before;
  std::vector<long> entries(static_cast<std::size_t>(std::min(count, kLogCap)));
  for (std::size_t k = 0; k < entries.size();) {  // at most two pieces: the ring may wrap
    const long at = (before + static_cast<long>(k)) % kLogCap;
    const std::size_t piece = std::min(entries.size() - k, static_cast<std::size_t>(kLogCap - at));
    shmem_long_get(entries.data() + k, log + at, piece, control);
    k += piece;
  }
  shmem_clear_lock(lock);
  std::vector<int> bypass(n, 0);
  for (long pe : entries)
    if (pe >= 0 && pe < n) ++bypass[pe];
  t.max_bypass = count > kLogCap ? kLogCap : *std::max_element(bypass.begin(), bypass.end());
  std::ostringstream os;
  os << count << " acquisitions between queueing and getting the lock:";
  for (int pe = 0; pe < n; ++pe) os << " PE " << pe << " x" << bypass[pe];
  t.detail = os.str();
  return t;
}

constexpr int kVictimAttempts = 10;

TEST(Lock, FirstComeFirstServed) {
  SHOAL_REQUIRE_MIN_NPES(2);
  SymArray<long> lock(1), log_len(1), served(1), log(kLogCap);
  SHOAL_ASSERT_ALL_PES(lock && log_len && served && log);
  lock[0] = 0;
  for (int victim = 0; victim < npes(); ++victim) {
    bool fair = false;
    std::string last;
    for (int attempt = 0; attempt < kVictimAttempts && !fair; ++attempt) {
      log_len[0] = served[0] = 0;
      shmem_barrier_all();
      const Trial t = fifo_trial(lock.get(), log_len.get(), log.get(), served.get(), victim);
      EXPECT_FALSE(t.starved) << "PE " << victim << " did not get the lock in "
                              << kStarvation.count() << " s while the others kept taking it";
      if (me() == victim) last = t.detail;
      fair = all_pes(me() != victim || t.max_bypass <= 2);  // collective: every PE agrees
      if (!fair && me() == victim)
        std::printf("[PE %d] attempt %d overtaken: %s\n", victim, attempt + 1, last.c_str());
    }
    if (me() == victim) EXPECT_TRUE(fair) << "PE " << victim << " was overtaken: " << last;
  }
  shmem_barrier_all();
}

}  // namespace
