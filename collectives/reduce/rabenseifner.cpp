// Rabenseifner's reduction for large vectors: a reduce-scatter by recursive halving followed by
// an allgather by recursive doubling, so each PE sends and combines about 2 (n-1)/n of the vector
// instead of log2(n) whole vectors.
//
// With p the largest power of two <= n, the extras p..n-1 first fold their vector into PE e - p
// and get the result pushed into their dest at the end. Among the first p PEs, at level r
// (mask = p / 2^(r+1)) a PE and its partner me ^ mask split their common segment in two: the
// PE without the mask bit keeps the lower half, the other the upper; each sends the half it
// gives up into the partner's scratch region r and combines what it receives into the half it
// keeps, lower PE's data as the left operand. After log2(p) levels each PE owns one fully reduced
// piece, computed once, so every PE ends with the same bytes. The allgather retraces the levels
// backwards, each PE putting its pieces straight into the partner's dest.
//
// Buffers: the vector goes through in chunks sized so that the fold region (one chunk) and the
// level regions (half a chunk, a quarter, ...) fit in the scratch. A level region is granted to
// its partner again after it has been combined from. Each PE also grants each level partner its
// dest once per call, on entry, right after the credit for chunk 0's level region; partners
// consume the credits in that same order (chunk 0's reduce-scatter, then the allgather).
#include <cstring>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/reduce/chunking.hpp"
#include "collectives/reduce/fold.hpp"
#include "collectives/reduce/halving.hpp"
#include "collectives/tree.hpp"

namespace shoal::coll {
namespace {

void run(Channel &ch, const Args &a) {
  using chunking::at;
  const int n = ch.size(), me = ch.rank();
  const std::size_t es = a.elem_size;
  const int p = tree::floor_power_of_two(n), levels = tree::ceil_log2(p);
  const bool folding = p != n;

  // Scratch: [fold: chunk][level 0: ceil(chunk/2)][level 1: ceil(.../2)]...
  const std::size_t chunk = halving::chunk_for(chunking::scratch_elems(ch, a), levels, folding);
  const chunking::Chunks chunks(a.nelems, chunk);
  std::byte *fold_region = ch.scratch();
  std::vector<std::byte *> region(static_cast<std::size_t>(levels));
  {
    std::byte *next = ch.scratch() + (folding ? chunk * es : 0);
    for (int r = 0; r < levels; ++r) {
      region[static_cast<std::size_t>(r)] = next;
      next += halving::level_region(chunk, r) * es;
    }
  }

  if (tree::is_extra(me, p))
    return fold::run_extra(ch, a, chunks, fold_region, tree::fold_partner(me, p));

  chunking::copy_source(a);
  fold::Partner extra(ch, p);
  auto partner = [&](int r) { return tree::doubling_partner(me, p >> (r + 1)); };
  extra.enter();
  for (int r = 0; r < levels; ++r) {
    ch.grant(partner(r));  // level region, chunk 0
    ch.grant(partner(r));  // dest, for the allgather
  }

  std::vector<halving::Segment> before(static_cast<std::size_t>(levels));
  for (std::size_t c = 0; c < chunks.count; ++c) {
    std::byte *base = at(a.dest, chunks.first(c), es);
    const std::size_t len = chunks.len(c);
    const bool more = c + 1 < chunks.count;
    extra.fold_in(a, chunks, c, base, fold_region);
    halving::Segment seg{0, len};
    for (int r = 0; r < levels; ++r) {  // reduce-scatter
      const int peer = partner(r);
      const auto [keep, give] = halving::split(seg, (me & (p >> (r + 1))) == 0);
      before[static_cast<std::size_t>(r)] = seg;
      ch.await_grant(peer);
      ch.send(region[static_cast<std::size_t>(r)], base + give.lo * es, (give.hi - give.lo) * es,
              peer);
      ch.await(peer);
      std::byte *mine = base + keep.lo * es, *theirs = region[static_cast<std::size_t>(r)];
      const std::size_t n_keep = keep.hi - keep.lo;
      if (me < peer) {
        a.combine(mine, theirs, n_keep);
      } else {
        a.combine(theirs, mine, n_keep);
        std::memcpy(mine, theirs, n_keep * es);
      }
      if (more) ch.grant(peer);
      seg = keep;
    }
    for (int r = levels - 1; r >= 0; --r) {  // allgather
      const int peer = partner(r);
      if (c == 0) ch.await_grant(peer);  // its dest
      ch.send(base + seg.lo * es, base + seg.lo * es, (seg.hi - seg.lo) * es, peer);
      ch.await(peer);
      seg = before[static_cast<std::size_t>(r)];
    }
    extra.push_result(a, chunks, c, base);
  }
}

}  // namespace

extern const Algorithm reduce_rabenseifner;
const Algorithm reduce_rabenseifner = {"rabenseifner", Collective::reduce, nullptr, run};

}  // namespace shoal::coll
