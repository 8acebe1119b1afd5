// Stress: every PE does random fetch_adds and compare_swap increments (about half each) on
// random slots of a symmetric array of 64 longs on random PEs (itself included), then the exact
// final value of every slot of every PE is checked.
//
//   * fetch_add(slot, d) with d in [1, 1000]: the PE records d.
//   * compare_swap increment: cswap(expected = last value seen, value = expected + d), retried
//     with the returned value until it succeeds; the PE records d. The first attempt uses the
//     PE's last observation of that slot, so the failure path is exercised too.
// Every delta is positive, so a slot never decreases: every value a PE gets back must be at
// least the value its own previous operation on that slot left (catches lost updates and stale
// results). At the end each PE publishes what it added where; every PE checks all slots of all
// PEs against the sums.
//
// Seed: fixed (printed on PE 0); SHOAL_AMO_STRESS_SEED overrides it to reproduce a run with
// another one. Iterations per PE: 200,000 / npes, at most 100,000 (100,000 at 2 PEs, 66,666 at
// 3, 50,000 at 4, 25,000 at 8), so the whole job does about the same work at every PE count and
// an 8-PE run through UCX (SMA_SHARED_MEMORY=0) on a 2-core machine stays well under a minute;
// SHOAL_AMO_STRESS_ITERS overrides it.
#include "mpp_test.hpp"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using namespace shoal::test;

namespace {

constexpr int kStressSlots = 64;
constexpr std::uint64_t kDefaultSeed = 0x5A0A1A70D5EEDull;
constexpr long kTotalIterations = 200000;
constexpr long kMaxPerPe = 100000;

std::uint64_t env_u64(const char* name, std::uint64_t fallback) {
  const char* s = std::getenv(name);
  if (s == nullptr || *s == '\0') return fallback;
  return std::strtoull(s, nullptr, 0);
}

}  // namespace

TEST(AmoStress, RandomFetchAddAndCompareSwap) {
  const int n = npes();
  const int pe = me();
  const std::uint64_t seed = env_u64("SHOAL_AMO_STRESS_SEED", kDefaultSeed);
  const long iters = static_cast<long>(
      env_u64("SHOAL_AMO_STRESS_ITERS",
              static_cast<std::uint64_t>(std::min(kMaxPerPe, kTotalIterations / n))));
  const std::size_t cells = static_cast<std::size_t>(n) * kStressSlots;

  SymArray<long> slots(kStressSlots);
  SymArray<long> added_all(static_cast<std::size_t>(n) * cells);
  SHOAL_ASSERT_ALL_PES(slots && added_all);
  for (int s = 0; s < kStressSlots; ++s) slots[s] = 0;
  if (pe == 0) {
    std::printf("[stress] seed 0x%" PRIx64 ", %ld iterations per PE, %d PEs, %d slots per PE\n",
                seed, iters, n, kStressSlots);
    std::fflush(stdout);
  }
  shmem_barrier_all();

  std::vector<long> added(cells, 0), last_seen(cells, 0);
  std::mt19937_64 rng(seed ^ (0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(pe + 1)));
  long fetch_adds = 0, cswaps = 0, cswap_retries = 0, went_back = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < iters; ++i) {
    const std::uint64_t r = rng();
    const int t = static_cast<int>(r % static_cast<unsigned>(n));
    const int s = static_cast<int>((r >> 16) % kStressSlots);
    const long d = static_cast<long>((r >> 24) % 1000) + 1;
    const std::size_t cell = static_cast<std::size_t>(t) * kStressSlots + s;
    if (((r >> 40) & 1u) == 0) {
      const long old = shmem_long_atomic_fetch_add(&slots[s], d, t);
      if (old < last_seen[cell]) ++went_back;
      last_seen[cell] = old + d;
      ++fetch_adds;
    } else {
      long expected = last_seen[cell];
      for (;;) {
        const long got = shmem_long_atomic_compare_swap(&slots[s], expected, expected + d, t);
        if (got == expected) break;
        if (got < last_seen[cell]) ++went_back;
        expected = got;
        ++cswap_retries;
      }
      last_seen[cell] = expected + d;
      ++cswaps;
    }
    added[cell] += d;
  }
  shmem_quiet();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(went_back, 0) << "PE " << pe << ": " << went_back
                          << " AMOs returned a value below one this PE had already observed "
                             "(a lost update or a stale result)";
  EXPECT_GT(fetch_adds, iters / 3) << "PE " << pe << ": operation mix is off";
  EXPECT_GT(cswaps, iters / 3) << "PE " << pe << ": operation mix is off";

  // Publish what this PE added where, on every PE.
  for (int dst = 0; dst < n; ++dst)
    shmem_long_put(added_all.get() + static_cast<std::size_t>(pe) * cells, added.data(), cells,
                   dst);
  shmem_barrier_all();

  std::vector<long> expected(cells, 0);
  for (int src = 0; src < n; ++src)
    for (std::size_t c = 0; c < cells; ++c)
      expected[c] += added_all[static_cast<std::size_t>(src) * cells + c];
  // This PE's slots, read directly, then every PE's slots, read with get.
  EXPECT_TRUE(check_range("this PE's slots", slots.get(), 0, kStressSlots, [&](std::size_t s) {
    return expected[static_cast<std::size_t>(pe) * kStressSlots + s];
  }));
  std::vector<long> remote(kStressSlots);
  for (int t = 0; t < n; ++t) {
    shmem_long_get(remote.data(), slots.get(), kStressSlots, t);
    EXPECT_TRUE(check_range(
        ("slots of PE " + std::to_string(t)).c_str(), remote.data(), 0, kStressSlots,
        [&](std::size_t s) { return expected[static_cast<std::size_t>(t) * kStressSlots + s]; }))
        << "on PE " << pe;
  }
  long total = 0;
  for (long v : expected) total += v;
  std::printf(
      "[stress] PE %d: %ld fetch_add, %ld compare_swap (%ld failed attempts) in %.2f s"
      " (%.0f AMOs/s)%s\n",
      pe, fetch_adds, cswaps, cswap_retries, seconds,
      seconds > 0 ? static_cast<double>(fetch_adds + cswaps + cswap_retries) / seconds : 0.0,
      pe == 0 ? (", job total added " + std::to_string(total)).c_str() : "");
  std::fflush(stdout);
  shmem_barrier_all();
}
