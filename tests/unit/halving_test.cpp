// How the reductions cut their vectors (collectives/reduce/chunking.hpp) and how Rabenseifner's
// recursive halving splits a chunk and sizes its scratch (collectives/reduce/halving.hpp): the
// chunks tile the vector, the halves tile each segment, partners split the same segment the
// opposite way, after the halving every element is reduced by exactly one PE from every core
// PE's contribution once, and no half is larger than the scratch region it is sent into.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "collectives/reduce/chunking.hpp"
#include "collectives/reduce/halving.hpp"
#include "collectives/tree.hpp"

namespace {

namespace halving = shoal::coll::halving;
namespace tree = shoal::coll::tree;
using halving::Segment;
using shoal::coll::chunking::Chunks;

constexpr int kMaxPes = 16;

TEST(Chunking, ChunksTileTheVector) {
  for (std::size_t nelems = 0; nelems <= 100; ++nelems)
    for (std::size_t size = 0; size <= 20; ++size) {
      const Chunks chunks(nelems, size);
      EXPECT_EQ(chunks.size, size == 0 ? 1 : size);  // a chunk holds at least one element
      std::size_t next = 0;
      for (std::size_t c = 0; c < chunks.count; ++c) {
        ASSERT_EQ(chunks.first(c), next) << nelems << " " << size << " " << c;
        ASSERT_GE(chunks.len(c), 1u);
        ASSERT_LE(chunks.len(c), chunks.size);
        if (c + 1 < chunks.count) {
          EXPECT_EQ(chunks.len(c), chunks.size);  // only the last may be short
        }
        next += chunks.len(c);
      }
      EXPECT_EQ(next, nelems) << nelems << " " << size;
    }
}

TEST(Halving, SplitTilesTheSegmentTheUpperHalfLonger) {
  for (std::size_t lo = 0; lo < 8; ++lo)
    for (std::size_t hi = lo; hi < lo + 40; ++hi) {
      const Segment seg{lo, hi};
      const auto [keep, give] = halving::split(seg, true);
      EXPECT_EQ(keep.lo, lo);
      EXPECT_EQ(keep.hi, give.lo);
      EXPECT_EQ(give.hi, hi);
      const std::size_t lower = keep.hi - keep.lo, upper = give.hi - give.lo;
      EXPECT_TRUE(upper == lower || upper == lower + 1) << lo << " " << hi;
      const auto [high_keep, high_give] = halving::split(seg, false);
      EXPECT_EQ(high_keep.lo, give.lo);  // the partner keeps what this PE gives
      EXPECT_EQ(high_keep.hi, give.hi);
      EXPECT_EQ(high_give.lo, keep.lo);
      EXPECT_EQ(high_give.hi, keep.hi);
    }
}

TEST(Halving, LevelRegionsHalveRoundingUp) {
  EXPECT_EQ(halving::level_region(1, 0), 1u);
  EXPECT_EQ(halving::level_region(7, 0), 4u);
  EXPECT_EQ(halving::level_region(7, 1), 2u);
  EXPECT_EQ(halving::level_region(7, 2), 1u);
  EXPECT_EQ(halving::level_region(1024, 3), 64u);
  EXPECT_EQ(halving::footprint(7, 3, false), 4u + 2 + 1);
  EXPECT_EQ(halving::footprint(7, 3, true), 7u + 4 + 2 + 1);
  EXPECT_EQ(halving::footprint(100, 0, true), 100u);
}

// The chunk size Rabenseifner picks must fit its fold region and level regions in the scratch
// (budget in elements; the scratch is at least 1 KiB, so at least 32 elements of the widest
// type), and not be a small part of what fits.
TEST(Halving, ChunksFitTheScratch) {
  for (int levels = 1; levels <= 10; ++levels)
    for (bool folding : {false, true})
      for (std::size_t budget = 32; budget <= 4096; budget += budget < 300 ? 1 : 97) {
        const std::size_t chunk = halving::chunk_for(budget, levels, folding);
        ASSERT_GE(chunk, 1u);
        EXPECT_LE(halving::footprint(chunk, levels, folding), budget)
            << "levels " << levels << " folding " << folding << " budget " << budget;
        EXPECT_GE(chunk * (1 + folding) + static_cast<std::size_t>(levels), budget / 2)
            << "levels " << levels << " folding " << folding << " budget " << budget;
      }
}

// Rabenseifner's reduce-scatter on the core PEs of every team size, for chunks of every length
// up to `chunk`: each element of each PE records which core PEs' contributions it holds.
TEST(Halving, ReduceScatterReducesEveryElementOnceAndFitsTheRegions) {
  constexpr std::size_t kChunk = 23;
  for (int n = 1; n <= kMaxPes; ++n) {
    const int p = tree::floor_power_of_two(n), levels = tree::ceil_log2(p);
    const auto up = static_cast<std::size_t>(p);
    for (std::size_t len = 0; len <= kChunk; ++len) {
      // held[pe][i]: the core PEs whose contributions element i of pe's vector combines.
      std::vector<std::vector<unsigned>> held(up, std::vector<unsigned>(len));
      std::vector<Segment> seg(up, Segment{0, len});
      std::vector<std::vector<Segment>> before(
          up, std::vector<Segment>(static_cast<std::size_t>(levels)));
      for (std::size_t pe = 0; pe < up; ++pe)
        for (auto &h : held[pe]) h = 1u << pe;
      for (int r = 0; r < levels; ++r) {
        const int mask = p >> (r + 1);
        const auto was = held;
        const auto was_seg = seg;
        for (int pe = 0; pe < p; ++pe) {
          const auto me = static_cast<std::size_t>(pe);
          const auto partner = static_cast<std::size_t>(tree::doubling_partner(pe, mask));
          ASSERT_LT(partner, up);
          ASSERT_EQ(was_seg[me].lo, was_seg[partner].lo) << "n " << n << " pe " << pe;
          ASSERT_EQ(was_seg[me].hi, was_seg[partner].hi) << "n " << n << " pe " << pe;
          const auto [keep, give] = halving::split(was_seg[me], (pe & mask) == 0);
          const auto [their_keep, their_give] =
              halving::split(was_seg[partner], (static_cast<int>(partner) & mask) == 0);
          EXPECT_EQ(their_give.lo, keep.lo);  // what arrives is the half this PE keeps
          EXPECT_EQ(their_give.hi, keep.hi);
          EXPECT_LE(give.hi - give.lo, halving::level_region(kChunk, r))
              << "n " << n << " len " << len << " level " << r;
          for (std::size_t i = keep.lo; i < keep.hi; ++i) {
            EXPECT_EQ(was[me][i] & was[partner][i], 0u) << "combined twice";
            held[me][i] = was[me][i] | was[partner][i];
          }
          before[me][static_cast<std::size_t>(r)] = was_seg[me];
          seg[me] = keep;
        }
      }
      // Every element is owned by exactly one core PE, which holds all p contributions.
      std::vector<int> owners(len, 0);
      for (std::size_t pe = 0; pe < up; ++pe)
        for (std::size_t i = seg[pe].lo; i < seg[pe].hi; ++i) {
          ++owners[i];
          EXPECT_EQ(held[pe][i], (1u << p) - 1) << "n " << n << " len " << len << " i " << i;
        }
      for (std::size_t i = 0; i < len; ++i) EXPECT_EQ(owners[i], 1) << "n " << n << " i " << i;
      // The allgather retraces the levels: a PE's segment and its partner's make up the segment
      // they split at that level.
      for (int r = levels - 1; r >= 0; --r) {
        const int mask = p >> (r + 1);
        const auto now = seg;
        for (int pe = 0; pe < p; ++pe) {
          const auto me = static_cast<std::size_t>(pe);
          const auto partner = static_cast<std::size_t>(tree::doubling_partner(pe, mask));
          const Segment mine = now[me], theirs = now[partner];
          const Segment whole = before[me][static_cast<std::size_t>(r)];
          EXPECT_TRUE((mine.hi == theirs.lo && mine.lo == whole.lo && theirs.hi == whole.hi) ||
                      (theirs.hi == mine.lo && theirs.lo == whole.lo && mine.hi == whole.hi))
              << "n " << n << " len " << len << " level " << r << " pe " << pe;
          seg[me] = whole;
        }
      }
      for (std::size_t pe = 0; pe < up; ++pe) {
        EXPECT_EQ(seg[pe].lo, 0u);
        EXPECT_EQ(seg[pe].hi, len);
      }
    }
  }
}

}  // namespace
