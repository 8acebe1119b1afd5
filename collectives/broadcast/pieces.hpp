// The pieces of the scatter-allgather broadcast (scatter_allgather.cpp): how the message is cut
// among the ring of every PE but the root, and where each PE sits in that ring, apart from the
// data movement so that tests/unit can check that the pieces tile the message and that the
// ring passes every piece to every PE once.
#pragma once

#include <algorithm>
#include <cstddef>

namespace shoal::coll::pieces {

struct Piece {
  std::size_t offset, bytes;
};

// Piece j of a `total`-byte message cut into m nearly equal pieces: the first total mod m are
// one byte longer; pieces are empty when total < m.
constexpr Piece piece(std::size_t j, std::size_t m, std::size_t total) noexcept {
  const std::size_t base = total / m, longer = total % m;
  return {j * base + std::min(j, longer), base + (j < longer ? 1 : 0)};
}

// Ring position p (0..n-2) is the team PE p + 1 places after the root, and back.
constexpr int team_pe(int position, int root, int n) noexcept { return (root + 1 + position) % n; }
constexpr int position(int pe, int root, int n) noexcept { return (pe - root - 1 + n) % n; }

// The piece the PE at `position` passes to the next position of the ring of m at `step`
// (0..m-2): its own first, then the one it received at the step before.
constexpr int forwarded(int position, int step, int m) noexcept {
  return (position - step + m) % m;
}

}  // namespace shoal::coll::pieces
