// Who exchanges with whom in the collective algorithms: the index arithmetic of the binomial
// tree, the ring and dissemination distances, recursive doubling with its fold of a
// non-power-of-two team, Bruck and the pairwise alltoall, over team PE numbers 0..n-1. Kept
// apart from the algorithms (which add the data movement) so that tests/unit can check, for
// every team size and root, that trees reach every PE once and that partners agree.
#pragma once

namespace shoal::coll::tree {

// ---- powers of two -----------------------------------------------------------------------

constexpr int lowest_set_bit(int v) noexcept { return v & -v; }

// The largest power of two <= n (n >= 1).
constexpr int floor_power_of_two(int n) noexcept {
  int p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

// The largest power of two below n; 1 for n <= 2.
constexpr int highest_power_of_two_below(int n) noexcept {
  int p = 1;
  while (p * 2 < n) p *= 2;
  return p;
}

// Rounds of a doubling schedule over n PEs: the smallest r with 2^r >= n.
constexpr int ceil_log2(int n) noexcept {
  int rounds = 0;
  while ((1 << rounds) < n) ++rounds;
  return rounds;
}

// ---- the ring: distances modulo n (0 <= d <= n) ------------------------------------------

constexpr int ahead(int pe, int d, int n) noexcept { return (pe + d) % n; }
constexpr int behind(int pe, int d, int n) noexcept { return (pe + n - d) % n; }

// ---- binomial tree, over PE numbers relative to the root (relative 0 is the root) --------
// The parent of relative PE v is v with its lowest set bit cleared; its children are v + 2^k
// for every 2^k below that bit (every 2^k for the root) that is still a team PE.

constexpr int to_relative(int pe, int root, int n) noexcept { return behind(pe, root, n); }
constexpr int from_relative(int relative, int root, int n) noexcept {
  return ahead(relative, root, n);
}

constexpr int binomial_parent(int relative) noexcept { return relative - lowest_set_bit(relative); }

// Whether relative + distance (distance a power of two) is a child of relative.
constexpr bool binomial_child(int relative, int distance, int n) noexcept {
  const int bound = relative == 0 ? n : lowest_set_bit(relative);
  return distance < bound && relative + distance < n;
}

// ---- recursive doubling, and the fold that makes a team a power of two --------------------
// With p = floor_power_of_two(n), PEs 0..p-1 are the core and run log2 p rounds with partner
// pe ^ mask; the r = n - p extra PEs p..n-1 fold into core PE e - p before the rounds and get
// the result from it after them.

constexpr bool is_extra(int pe, int p) noexcept { return pe >= p; }
// The core PE an extra folds into, or the extra that folds into a core PE (pe < n - p).
constexpr int fold_partner(int pe, int p) noexcept { return pe >= p ? pe - p : pe + p; }
constexpr int doubling_partner(int pe, int mask) noexcept { return pe ^ mask; }

// The blocks (one per team PE, as collect gathers them) core PE `pe` holds before the round of
// `mask`: those of the core PEs of its group of `mask` PEs, [lo1, hi1), and of their extras,
// [lo2, hi2) (empty when none of them has one).
struct Holdings {
  int lo1, hi1, lo2, hi2;
};
constexpr Holdings doubling_holdings(int pe, int mask, int p, int n) noexcept {
  const int r = n - p, base = pe & ~(mask - 1);
  return {base, base + mask, base + p, (base + mask < r ? base + mask : r) + p};
}

// ---- Bruck: in the round of distance d (1, 2, 4, ... < n), PE pe holds the blocks pe ..
// pe+d-1 (mod n) and sends the first bruck_count of them to behind(pe, d, n), receiving as
// many from ahead(pe, d, n).
constexpr int bruck_count(int d, int n) noexcept { return d < n - d ? d : n - d; }

// ---- pairwise alltoall: the PE to send to and the PE to receive from at step k (1..n-1) --
// For powers of two the partners are pe XOR k, so that every step is a true exchange.

constexpr int pairwise_to(int pe, int k, int n) noexcept {
  return (n & (n - 1)) == 0 ? pe ^ k : ahead(pe, k, n);
}
constexpr int pairwise_from(int pe, int k, int n) noexcept {
  return (n & (n - 1)) == 0 ? pe ^ k : behind(pe, k, n);
}

}  // namespace shoal::coll::tree
