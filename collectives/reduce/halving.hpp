// The recursive halving of Rabenseifner's reduction (rabenseifner.cpp): how partners split a
// chunk level by level, and the scratch it takes, apart from the data movement so that
// tests/unit can check that the pieces tile every chunk and fit their scratch regions.
#pragma once

#include <cstddef>

namespace shoal::coll::halving {

// Elements [lo, hi) of a chunk.
struct Segment {
  std::size_t lo, hi;
};
struct Split {
  Segment keep, give;
};

// At each level a PE and its partner split the segment they share: the PE without the level's
// mask bit (`low`) keeps the lower half and gives the upper, the other the reverse. The upper
// half is the longer one when the length is odd.
constexpr Split split(Segment seg, bool low) noexcept {
  const std::size_t mid = seg.lo + (seg.hi - seg.lo) / 2;
  return low ? Split{{seg.lo, mid}, {mid, seg.hi}} : Split{{mid, seg.hi}, {seg.lo, mid}};
}

// Elements of the scratch region of `level` (0 first) for chunks of `chunk` elements: the
// largest half given at that level, ceil(chunk / 2^(level+1)).
constexpr std::size_t level_region(std::size_t chunk, int level) noexcept {
  for (int r = 0; r <= level; ++r) chunk = (chunk + 1) / 2;
  return chunk;
}

// The scratch one chunk takes: a fold region of a whole chunk when extra PEs fold in, then
// every level's region.
constexpr std::size_t footprint(std::size_t chunk, int levels, bool folding) noexcept {
  std::size_t total = folding ? chunk : 0;
  for (int r = 0; r < levels; ++r) total += level_region(chunk, r);
  return total;
}

// A chunk size whose footprint fits in `budget` elements: the regions sum to at most the
// fold region plus chunk plus `levels` (one for each rounding up), so the first guess
// nearly always fits. 1 when the budget is that small (the scratch's minimum of 1 KiB keeps
// budgets far above the levels of any team).
constexpr std::size_t chunk_for(std::size_t budget, int levels, bool folding) noexcept {
  const auto rounding = static_cast<std::size_t>(levels);
  std::size_t chunk = budget > rounding ? (budget - rounding) / (1 + folding) : 1;
  while (chunk > 1 && footprint(chunk, levels, folding) > budget) --chunk;
  return chunk;
}

}  // namespace shoal::coll::halving
