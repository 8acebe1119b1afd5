// Where the gathering collectives put their data: the runs of a collect's blocks in dest
// (collectives/collect/blocks.hpp), including the empty blocks of PEs that contribute nothing,
// and the pieces of the scatter-allgather broadcast (collectives/broadcast/pieces.hpp), which
// must tile the message for any size and team and reach every PE of the ring once.
#include <gtest/gtest.h>

#include <cstddef>
#include <numeric>
#include <random>
#include <vector>

#include "collectives/broadcast/pieces.hpp"
#include "collectives/collect/blocks.hpp"

namespace {

namespace blocks = shoal::coll::blocks;
namespace pieces = shoal::coll::pieces;
using shoal::coll::Args;

constexpr int kMaxPes = 16;

// A collect's arguments as the dispatcher fills them: counts per PE, displacements their
// prefix sums.
struct Collect {
  std::vector<std::size_t> counts, displs;
  std::vector<std::byte> dest;
  Args args;
  Collect(std::vector<std::size_t> c, std::size_t elem_size) : counts(std::move(c)) {
    displs.resize(counts.size());
    std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), std::size_t{0});
    args.total = std::accumulate(counts.begin(), counts.end(), std::size_t{0});
    dest.resize(args.total * elem_size + 1);
    args.dest = dest.data();
    args.elem_size = elem_size;
    args.counts = counts.data();
    args.displs = displs.data();
  }
  Collect(const Collect &) = delete;  // args points into this object
};

TEST(Blocks, RunsCoverTheirBlocksExactly) {
  std::mt19937 rng(7);
  for (int n = 1; n <= kMaxPes; ++n)
    for (std::size_t elem_size : {1, 8}) {
      std::vector<std::size_t> counts(static_cast<std::size_t>(n));
      for (auto &c : counts) c = rng() % 4;  // some PEs contribute nothing
      const Collect collect(counts, elem_size);
      for (int lo = 0; lo <= n; ++lo)
        for (int hi = 0; hi <= n; ++hi) {
          const blocks::Span run = blocks::of(collect.args, lo, hi);
          if (lo >= hi) {
            EXPECT_EQ(run.at, nullptr);
            EXPECT_EQ(run.bytes, 0u);
            continue;
          }
          const auto first = static_cast<std::size_t>(lo);
          std::size_t elems = 0;
          for (int b = lo; b < hi; ++b) elems += counts[static_cast<std::size_t>(b)];
          EXPECT_EQ(run.at, collect.dest.data() + collect.displs[first] * elem_size)
              << n << " [" << lo << ", " << hi << ")";
          EXPECT_EQ(run.bytes, elems * elem_size) << n << " [" << lo << ", " << hi << ")";
        }
    }
}

// Bruck's wrapped range (blocks me .. n-1, then 0 .. me+count-n-1) is two runs that together
// hold exactly the count blocks.
TEST(Blocks, WrappedRangesOfBruck) {
  for (int n = 2; n <= kMaxPes; ++n) {
    std::vector<std::size_t> counts(static_cast<std::size_t>(n));
    std::iota(counts.begin(), counts.end(), std::size_t{1});
    const Collect collect(counts, 4);
    for (int me = 0; me < n; ++me)
      for (int count = 1; count <= n; ++count) {
        if (me + count <= n) continue;
        const auto tail = blocks::of(collect.args, me, n),
                   head = blocks::of(collect.args, 0, me + count - n);
        std::size_t elems = 0;
        for (int i = 0; i < count; ++i) elems += counts[static_cast<std::size_t>((me + i) % n)];
        EXPECT_EQ(tail.bytes + head.bytes, elems * 4) << n << " " << me << " " << count;
      }
  }
}

TEST(Pieces, TileTheMessageTheLongerFirst) {
  for (std::size_t m = 1; m <= kMaxPes; ++m)
    for (std::size_t total = 0; total <= 3 * kMaxPes + 1; ++total) {
      std::size_t next = 0;
      for (std::size_t j = 0; j < m; ++j) {
        const pieces::Piece p = pieces::piece(j, m, total);
        EXPECT_EQ(p.offset, next) << "m " << m << " total " << total << " piece " << j;
        EXPECT_TRUE(p.bytes == total / m || p.bytes == total / m + 1);
        if (j > 0) {
          EXPECT_LE(p.bytes, pieces::piece(j - 1, m, total).bytes);
        }
        next += p.bytes;
      }
      EXPECT_EQ(next, total) << "m " << m << " total " << total;
    }
  EXPECT_EQ(pieces::piece(0, 3, (std::size_t{1} << 40) + 2).bytes, (std::size_t{1} << 40) / 3 + 1);
}

TEST(Pieces, RingPositionsAreEveryPeButTheRoot) {
  for (int n = 2; n <= kMaxPes; ++n)
    for (int root = 0; root < n; ++root) {
      std::vector<int> seen(static_cast<std::size_t>(n), 0);
      for (int position = 0; position < n - 1; ++position) {
        const int pe = pieces::team_pe(position, root, n);
        ASSERT_TRUE(pe >= 0 && pe < n);
        EXPECT_NE(pe, root);
        EXPECT_EQ(pieces::position(pe, root, n), position);
        ++seen[static_cast<std::size_t>(pe)];
      }
      for (int pe = 0; pe < n; ++pe)
        EXPECT_EQ(seen[static_cast<std::size_t>(pe)], pe == root ? 0 : 1);
    }
}

// The allgather among the m = n - 1 ring positions: position q holds piece q from the root,
// then at each step passes forwarded(q, step) to q + 1. What it passes must be a piece it holds
// and its successor lacks; after m - 1 steps everyone holds every piece.
TEST(Pieces, RingAllgatherPassesEveryPieceOnce) {
  for (int m = 1; m < kMaxPes; ++m) {
    std::vector<unsigned> held(static_cast<std::size_t>(m));
    for (int q = 0; q < m; ++q) held[static_cast<std::size_t>(q)] = 1u << q;
    for (int step = 0; step < m - 1; ++step) {
      auto next = held;
      for (int q = 0; q < m; ++q) {
        const int piece = pieces::forwarded(q, step, m);
        const auto to = static_cast<std::size_t>((q + 1) % m);
        ASSERT_TRUE(piece >= 0 && piece < m);
        EXPECT_NE(held[static_cast<std::size_t>(q)] & (1u << piece), 0u)
            << m << " " << q << " " << step;
        EXPECT_EQ(held[to] & (1u << piece), 0u) << m << " " << q << " " << step;
        next[to] |= 1u << piece;
      }
      held = next;
    }
    for (unsigned h : held) EXPECT_EQ(h, (1u << m) - 1) << m;
  }
}

}  // namespace
