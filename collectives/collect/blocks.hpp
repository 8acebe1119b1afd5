// What the collect/fcollect algorithms share: blocks lo..hi-1, in team-PE order, lie
// contiguously in dest at displs[lo], the same place on every PE; every algorithm starts by
// placing this PE's own block there (place_own), and bruck and recursive doubling move runs of
// blocks (send).
#pragma once

#include <cstddef>
#include <utility>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"

namespace shoal::coll::blocks {

struct Span {
  std::byte *at = nullptr;
  std::size_t bytes = 0;
};

// Blocks [lo, hi) of this PE's dest; empty when lo >= hi or the blocks hold nothing.
inline Span of(const Args &args, int lo, int hi) noexcept {
  if (lo >= hi) return {};
  const std::size_t es = args.elem_size;
  const std::size_t begin = args.displs[lo];
  const std::size_t end = args.displs[hi - 1] + args.counts[hi - 1];
  return {static_cast<std::byte *>(args.dest) + begin * es, (end - begin) * es};
}

// Copies this PE's block from source to its place in this PE's dest (nothing for an empty one).
inline void place_own(Channel &channel, const Args &args) noexcept {
  const int me = channel.rank();
  channel.put(static_cast<std::byte *>(args.dest) + args.displs[me] * args.elem_size, args.source,
              args.counts[me] * args.elem_size, me);
}

// Blocks [lo1, hi1) and then [lo2, hi2) of this PE's dest into the same places of peer's dest,
// then peer's notification. Across nodes the last run that holds data travels in the
// notification's message (Channel::send), so a step with one run is one message.
inline void send(Channel &channel, const Args &args, int peer, int lo1, int hi1, int lo2 = 0,
                 int hi2 = 0) noexcept {
  Span first = of(args, lo1, hi1), last = of(args, lo2, hi2);
  if (last.bytes == 0) std::swap(first, last);
  if (first.bytes != 0) channel.put(first.at, first.at, first.bytes, peer);
  channel.send(last.at, last.at, last.bytes, peer);
}

}  // namespace shoal::coll::blocks
