// Who exchanges with whom in the collectives (collectives/tree.hpp), for every team size from 1
// to kMaxPes, odd ones included, and every root: each schedule is played out on sets of PEs or
// blocks, and must deliver everything to everyone exactly once, with both ends of every
// exchange naming each other in the same step. The algorithms' own data movement is tested
// through whole jobs (tests/coll); here the index arithmetic is checked exhaustively.
#include "collectives/tree.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

namespace {

namespace tree = shoal::coll::tree;
constexpr int kMaxPes = 16;

// A set of team PEs (or of their blocks), as a bit mask.
using Set = unsigned;
constexpr Set all_of(int n) { return (Set{1} << n) - 1; }
constexpr Set one(int pe) { return Set{1} << pe; }
Set range(int lo, int hi) {  // [lo, hi), empty when lo >= hi
  return lo >= hi ? 0 : all_of(hi) & ~all_of(lo);
}

// Element `pe` of a per-PE vector; a PE number out of range throws, which fails the test
// instead of corrupting memory.
template <typename V>
auto &at(V &v, int pe) {
  return v.at(static_cast<std::size_t>(pe));
}

TEST(Tree, PowersOfTwo) {
  const int floors[] = {0, 1, 2, 2, 4, 4, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8, 16, 16};
  const int below[] = {0, 1, 1, 2, 2, 4, 4, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8, 16};
  const int rounds[] = {0, 0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5};
  for (int n = 1; n <= 17; ++n) {
    EXPECT_EQ(tree::floor_power_of_two(n), floors[n]) << n;
    EXPECT_EQ(tree::highest_power_of_two_below(n), below[n]) << n;
    EXPECT_EQ(tree::ceil_log2(n), rounds[n]) << n;
  }
  EXPECT_EQ(tree::floor_power_of_two(1 << 20), 1 << 20);
  EXPECT_EQ(tree::ceil_log2((1 << 20) + 1), 21);
  for (int v = 1; v < 64; ++v)
    EXPECT_EQ(v % (2 * tree::lowest_set_bit(v)), tree::lowest_set_bit(v));
}

TEST(Tree, RingDistancesWrapBothWays) {
  for (int n = 1; n <= kMaxPes; ++n)
    for (int pe = 0; pe < n; ++pe)
      for (int d = 0; d <= n; ++d) {
        const int a = tree::ahead(pe, d, n), b = tree::behind(pe, d, n);
        ASSERT_TRUE(a >= 0 && a < n && b >= 0 && b < n) << n << " " << pe << " " << d;
        EXPECT_EQ(tree::behind(a, d, n), pe);
        EXPECT_EQ(tree::ahead(b, d, n), pe);
        EXPECT_EQ((a - pe - d) % n, 0);
      }
}

// Relative numbering makes the root 0 and keeps every other PE distinct.
TEST(Tree, RelativeNumbering) {
  for (int n = 1; n <= kMaxPes; ++n)
    for (int root = 0; root < n; ++root) {
      EXPECT_EQ(tree::to_relative(root, root, n), 0);
      Set seen = 0;
      for (int pe = 0; pe < n; ++pe) {
        const int rel = tree::to_relative(pe, root, n);
        ASSERT_TRUE(rel >= 0 && rel < n);
        EXPECT_EQ(tree::from_relative(rel, root, n), pe);
        seen |= one(rel);
      }
      EXPECT_EQ(seen, all_of(n));
    }
}

// The children of relative PE v, in the order broadcast/binomial.cpp serves them (farthest
// first); barrier/binomial.cpp walks the same distances nearest first.
std::vector<int> children(int v, int n) {
  std::vector<int> out;
  for (int d = tree::highest_power_of_two_below(n); d >= 1; d /= 2)
    if (tree::binomial_child(v, d, n)) out.push_back(v + d);
  return out;
}

TEST(Tree, BinomialParentsAndChildrenAgree) {
  for (int n = 1; n <= kMaxPes; ++n) {
    int edges = 0;
    for (int v = 0; v < n; ++v) {
      for (int c : children(v, n)) {
        ASSERT_LT(c, n);
        EXPECT_EQ(tree::binomial_parent(c), v) << "n " << n << " child " << c;
        ++edges;
      }
      if (v != 0) {
        const int parent = tree::binomial_parent(v);
        ASSERT_TRUE(parent >= 0 && parent < v) << n << " " << v;
        const auto siblings = children(parent, n);
        EXPECT_EQ(std::count(siblings.begin(), siblings.end(), v), 1) << n << " " << v;
      }
    }
    EXPECT_EQ(edges, n - 1) << n;  // a tree: n - 1 edges
    // barrier/binomial.cpp's loop form stops at the first distance that is no child.
    for (int v = 0; v < n; ++v) {
      std::set<int> ascending;
      for (int d = 1; tree::binomial_child(v, d, n); d *= 2) ascending.insert(v + d);
      const auto descending = children(v, n);
      EXPECT_EQ(ascending, std::set<int>(descending.begin(), descending.end())) << n << " " << v;
    }
  }
}

// A broadcast from every root: each PE forwards to its children one per step, farthest first,
// as soon as it has the message. Every PE gets it exactly once, from its parent, and the last
// one within ceil(log2 n) steps.
TEST(Tree, BinomialBroadcastReachesEveryPeOnceInLogSteps) {
  for (int n = 1; n <= kMaxPes; ++n)
    for (int root = 0; root < n; ++root) {
      std::vector<int> received(static_cast<std::size_t>(n), 0),
          step(static_cast<std::size_t>(n), -1);
      std::vector<int> order = {root};  // team PEs in the order they got the message
      at(step, root) = 0;
      at(received, root) = 1;
      for (std::size_t i = 0; i < order.size(); ++i) {
        const int pe = order[i];
        const int rel = tree::to_relative(pe, root, n);
        int t = at(step, pe);
        for (int child_rel : children(rel, n)) {
          const int child = tree::from_relative(child_rel, root, n);
          ASSERT_NE(child, root);
          EXPECT_EQ(tree::from_relative(tree::binomial_parent(child_rel), root, n), pe);
          ++at(received, child);
          at(step, child) = ++t;
          order.push_back(child);
        }
      }
      for (int pe = 0; pe < n; ++pe)
        EXPECT_EQ(at(received, pe), 1) << "n " << n << " root " << root << " pe " << pe;
      EXPECT_LE(*std::max_element(step.begin(), step.end()), tree::ceil_log2(n))
          << "n " << n << " root " << root;
    }
}

// Dissemination barrier: in the round of distance d every PE notifies ahead(pe, d) and awaits
// behind(pe, d). What a PE has heard of (directly or through others) must be the whole team
// after ceil(log2 n) rounds, and the PE awaited must be the one that notifies.
TEST(Tree, DisseminationEveryPeHearsFromAllAndAwaitsItsNotifier) {
  for (int n = 1; n <= kMaxPes; ++n) {
    std::vector<Set> heard(static_cast<std::size_t>(n));
    for (int pe = 0; pe < n; ++pe) at(heard, pe) = one(pe);
    int rounds = 0;
    std::set<std::pair<int, int>> pairs;  // (notifier, notified), at most once per call
    for (int d = 1; d < n; d *= 2, ++rounds) {
      std::vector<Set> next = heard;
      for (int pe = 0; pe < n; ++pe) {
        const int to = tree::ahead(pe, d, n);
        EXPECT_EQ(tree::behind(to, d, n), pe);
        EXPECT_NE(to, pe);
        EXPECT_TRUE(pairs.insert({pe, to}).second) << n << ": " << pe << " -> " << to;
        at(next, to) |= at(heard, pe);
      }
      heard = next;
    }
    EXPECT_EQ(rounds, tree::ceil_log2(n));
    for (int pe = 0; pe < n; ++pe) EXPECT_EQ(at(heard, pe), all_of(n)) << n;
  }
}

// The fold: extras and the core PEs they fold into name each other; nobody else is paired.
TEST(Tree, FoldPairsEveryExtraWithOneCorePe) {
  for (int n = 1; n <= kMaxPes; ++n) {
    const int p = tree::floor_power_of_two(n);
    ASSERT_LE(p, n);
    ASSERT_GT(2 * p, n);  // fewer extras than core PEs
    for (int pe = 0; pe < n; ++pe) {
      const int partner = tree::fold_partner(pe, p);
      if (tree::is_extra(pe, p)) {
        EXPECT_FALSE(tree::is_extra(partner, p));
        EXPECT_EQ(tree::fold_partner(partner, p), pe);
      } else if (partner < n) {
        EXPECT_TRUE(tree::is_extra(partner, p));
        EXPECT_EQ(tree::fold_partner(partner, p), pe);
      } else {
        EXPECT_GE(pe, n - p);  // a core PE without an extra
      }
    }
  }
}

// Recursive-doubling reduction (reduce/recursive_doubling.cpp, rabenseifner.cpp's fold): each
// PE starts with its own contribution; extras fold into their core PE, the core exchanges with
// pe ^ mask for every mask below p, the extras get the result. Everyone must end with every
// contribution exactly once: counted, so that one folded in twice would show.
TEST(Tree, RecursiveDoublingReductionCountsEveryContributionOnce) {
  for (int n = 1; n <= kMaxPes; ++n) {
    const int p = tree::floor_power_of_two(n);
    const auto un = static_cast<std::size_t>(n);
    std::vector<std::vector<int>> count(un, std::vector<int>(un, 0));
    for (std::size_t pe = 0; pe < un; ++pe) count[pe][pe] = 1;
    const auto add = [&](int to, int from) {
      for (std::size_t c = 0; c < un; ++c) at(count, to)[c] += at(count, from)[c];
    };
    for (int e = p; e < n; ++e) add(tree::fold_partner(e, p), e);
    for (int mask = 1; mask < p; mask *= 2) {
      auto before = count;
      for (int pe = 0; pe < p; ++pe) {
        const int partner = tree::doubling_partner(pe, mask);
        ASSERT_TRUE(partner >= 0 && partner < p) << n << " " << pe << " " << mask;
        ASSERT_EQ(tree::doubling_partner(partner, mask), pe);
        for (std::size_t c = 0; c < un; ++c) at(count, pe)[c] += at(before, partner)[c];
      }
    }
    for (int e = p; e < n; ++e) at(count, e) = at(count, tree::fold_partner(e, p));
    for (std::size_t pe = 0; pe < un; ++pe)
      EXPECT_EQ(count[pe], std::vector<int>(un, 1)) << "n " << n << " pe " << pe;
  }
}

// Recursive-doubling collect (collect/recursive_doubling.cpp): before each round a core PE must
// hold exactly the blocks doubling_holdings names, and it sends exactly those; the partner must
// not have any of them yet. At the end the core holds every block and sends its extra all but
// the extra's own.
TEST(Tree, RecursiveDoublingCollectHoldsWhatItSends) {
  for (int n = 1; n <= kMaxPes; ++n) {
    const int p = tree::floor_power_of_two(n);
    const auto un = static_cast<std::size_t>(n);
    std::vector<Set> held(un);
    for (int pe = 0; pe < n; ++pe) at(held, pe) = one(pe);
    for (int e = p; e < n; ++e) at(held, tree::fold_partner(e, p)) |= one(e);
    for (int mask = 1; mask < p; mask *= 2) {
      std::vector<Set> next = held;
      for (int pe = 0; pe < p; ++pe) {
        const tree::Holdings h = tree::doubling_holdings(pe, mask, p, n);
        const Set sent = range(h.lo1, h.hi1) | range(h.lo2, h.hi2);
        ASSERT_EQ(sent, at(held, pe)) << "n " << n << " pe " << pe << " mask " << mask;
        const int partner = tree::doubling_partner(pe, mask);
        EXPECT_EQ(sent & at(held, partner), 0u) << "n " << n << " pe " << pe << " mask " << mask;
        at(next, partner) |= sent;
      }
      held = next;
    }
    for (int pe = 0; pe < p; ++pe) EXPECT_EQ(at(held, pe), all_of(n)) << n;
    for (int e = p; e < n; ++e) {
      // The core PE's last message: blocks [0, e) and [e + 1, n), everything the extra lacks.
      const Set last = range(0, e) | range(e + 1, n);
      EXPECT_EQ(last | one(e), all_of(n));
      EXPECT_EQ(last & one(e), 0u);
    }
  }
}

// Bruck (collect/bruck.cpp): before the round of distance d a PE holds blocks pe .. pe+d-1
// (mod n); it sends the first bruck_count of them to behind(pe, d) and receives as many, the
// blocks ahead(pe, d) .. , from ahead(pe, d). No block may arrive twice, and all arrive.
TEST(Tree, BruckGathersEveryBlockOnce) {
  for (int n = 1; n <= kMaxPes; ++n) {
    const auto un = static_cast<std::size_t>(n);
    std::vector<Set> held(un);
    for (int pe = 0; pe < n; ++pe) at(held, pe) = one(pe);
    int rounds = 0;
    for (int d = 1; d < n; d *= 2, ++rounds) {
      const int count = tree::bruck_count(d, n);
      ASSERT_GT(count, 0);
      std::vector<Set> next = held;
      for (int pe = 0; pe < n; ++pe) {
        Set expected_held = 0, sent = 0;
        for (int i = 0; i < d; ++i) expected_held |= one(tree::ahead(pe, i, n));
        ASSERT_EQ(at(held, pe), expected_held) << n << " " << pe << " " << d;
        for (int i = 0; i < count; ++i) sent |= one(tree::ahead(pe, i, n));
        const int to = tree::behind(pe, d, n);
        EXPECT_EQ(tree::ahead(to, d, n), pe);  // the receiver awaits this PE
        EXPECT_EQ(sent & at(held, to), 0u) << n << " " << pe << " " << d;
        at(next, to) |= sent;
      }
      held = next;
    }
    EXPECT_EQ(rounds, tree::ceil_log2(n));
    for (int pe = 0; pe < n; ++pe) EXPECT_EQ(at(held, pe), all_of(n)) << n;
  }
}

// Ring collect (collect/ring.cpp): at step s a PE forwards block behind(pe, s) to its successor,
// which is the block its successor lacks and the one it awaits from its predecessor.
TEST(Tree, RingForwardsEveryBlockOnce) {
  for (int n = 1; n <= kMaxPes; ++n) {
    const auto un = static_cast<std::size_t>(n);
    std::vector<Set> held(un);
    for (int pe = 0; pe < n; ++pe) at(held, pe) = one(pe);
    for (int s = 0; s < n - 1; ++s) {
      std::vector<Set> next = held;
      for (int pe = 0; pe < n; ++pe) {
        const int block = tree::behind(pe, s, n), to = tree::ahead(pe, 1, n);
        ASSERT_NE(at(held, pe) & one(block), 0u);  // has it to forward
        EXPECT_EQ(at(held, to) & one(block), 0u);  // the successor lacks it
        at(next, to) |= one(block);
      }
      held = next;
    }
    for (int pe = 0; pe < n; ++pe) EXPECT_EQ(at(held, pe), all_of(n)) << n;
  }
}

// Pairwise alltoall (alltoall/pairwise.cpp): at step k the PE a PE sends to must be awaiting a
// block from it at the same step (otherwise both wait), and over the n - 1 steps every PE sends
// to every other exactly once.
TEST(Tree, PairwiseStepsMatchAndCoverEveryPair) {
  for (int n = 1; n <= kMaxPes; ++n) {
    std::set<std::pair<int, int>> pairs;
    for (int k = 1; k < n; ++k)
      for (int pe = 0; pe < n; ++pe) {
        const int to = tree::pairwise_to(pe, k, n), from = tree::pairwise_from(pe, k, n);
        ASSERT_TRUE(to >= 0 && to < n && from >= 0 && from < n) << n << " " << pe << " " << k;
        EXPECT_NE(to, pe);
        EXPECT_EQ(tree::pairwise_from(to, k, n), pe) << "n " << n << " pe " << pe << " k " << k;
        EXPECT_EQ(tree::pairwise_to(from, k, n), pe) << "n " << n << " pe " << pe << " k " << k;
        EXPECT_TRUE(pairs.insert({pe, to}).second);
      }
    EXPECT_EQ(pairs.size(), static_cast<std::size_t>(n * (n - 1))) << n;
  }
}

// Hillis-Steele scan (scan/recursive_doubling.cpp): in round r (d = 2^r) PE i >= d combines
// the window of PE i-d into its own, [lo, i]. The received window must end right below the own
// one (no gap, no overlap), and after ceil(log2 n) rounds every window starts at PE 0. The
// exscan window, made of received windows only, grows downwards from i the same way.
TEST(Tree, ScanWindowsDoubleWithoutGapsOrOverlaps) {
  for (int n = 1; n <= kMaxPes; ++n) {
    const auto un = static_cast<std::size_t>(n);
    std::vector<int> lo(un), ex_lo(un);  // PE i: inscan window [lo, i], exscan [ex_lo, i)
    for (std::size_t i = 0; i < un; ++i) lo[i] = ex_lo[i] = static_cast<int>(i);
    for (int r = 0, d = 1; r < tree::ceil_log2(n); ++r, d *= 2) {
      const std::vector<int> before = lo;
      for (int i = d; i < n; ++i) {
        EXPECT_EQ(at(before, i), i - d + 1) << "n " << n << " pe " << i << " d " << d;
        EXPECT_EQ(at(ex_lo, i), i - d + 1) << "n " << n << " pe " << i << " d " << d;
        at(lo, i) = at(ex_lo, i) = at(before, i - d);
      }
    }
    for (std::size_t i = 0; i < un; ++i) {
      EXPECT_EQ(lo[i], 0) << "n " << n << " pe " << i;
      EXPECT_EQ(ex_lo[i], 0) << "n " << n << " pe " << i;
    }
  }
}

}  // namespace
