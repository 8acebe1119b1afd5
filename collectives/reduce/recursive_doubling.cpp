// Recursive-doubling reduction (allreduce). With p the largest power of two <= n, the n - p
// extra PEs p..n-1 first fold their vector into partner PE e - p; then in round r every PE
// below p exchanges its whole partial vector with PE me ^ 2^r and combines, so after log2(p)
// rounds all of them hold the result, which the partners finally push into the extras' dest.
//
// Bit-identical results: both partners of a round compute (lower PE's data) OP (higher PE's
// data) with the lower PE's data as the left operand, so they end with the same bytes even for
// floating point and NaNs.
//
// Buffers: each PE works in its own dest; partners' vectors arrive in the scratch, which holds
// a fold region plus K round regions, and the vector goes through in chunks of one region.
// Step s (chunk s / R, round s % R) lands in region s % K; a PE grants the partner of step s + K
// as soon as it has combined step s out of that region, so partners rarely wait for credits.
// The fold's credits are fold.hpp's.
//
// Round 0 straight into the dests: where dest is not the source and no PE folds, a PE's dest
// holds nothing it needs before round 0 is combined, so round-0 partners grant each other
// their dest on entry and send the whole vector there in one message, not in chunks of the
// scratch with a credit each. With 2 PEs that is the whole call: one message each way (across
// 2 namespace hosts, a 1 MiB sum took 0.53-0.56 ms this way against 0.81-0.95 through the
// 128 KiB scratch, OSHMEM 0.53). The rounds after it go through the scratch as above.
#include <algorithm>
#include <cstring>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/reduce/chunking.hpp"
#include "collectives/reduce/fold.hpp"
#include "collectives/tree.hpp"

namespace shoal::coll {
namespace {

// Round 0 through the dests (above): this PE's source into partner's dest, the partner's into
// this PE's, then dest = lower PE's vector OP higher PE's.
void land_round_zero(Channel &ch, const Args &a, int partner) {
  ch.grant(partner);
  ch.await_grant(partner);
  ch.send(a.dest, a.source, a.bytes(), partner);
  ch.await(partner);
  if (partner < ch.rank()) {
    a.combine(a.dest, a.source, a.nelems);
    return;
  }
  // This PE's data is the left operand: combine a piece at a time in a buffer on the stack.
  alignas(64) std::byte left[4096];
  const std::size_t es = a.elem_size, piece = sizeof left / es;
  for (std::size_t first = 0; first < a.nelems; first += piece) {
    const std::size_t len = std::min(piece, a.nelems - first);
    std::byte *out = chunking::at(a.dest, first, es);
    std::memcpy(left, chunking::at(a.source, first, es), len * es);
    a.combine(left, out, len);
    std::memcpy(out, left, len * es);
  }
}

void run(Channel &ch, const Args &a) {
  using chunking::at;
  const int n = ch.size(), me = ch.rank();
  const std::size_t es = a.elem_size;
  const int p = tree::floor_power_of_two(n);
  const bool folding = p != n;
  // dest and source are symmetric: every PE of the team decides alike.
  const bool landing = !folding && p > 1 && a.source != a.dest;
  // The rounds through the scratch, from round `first` on.
  const int first = landing ? 1 : 0, rounds = tree::ceil_log2(p) - first;

  // Scratch: [fold region if folding][K round regions], each `chunk` elements.
  const std::size_t budget = chunking::scratch_elems(ch, a);
  std::size_t regions = static_cast<std::size_t>(std::max(rounds, 1));
  std::size_t chunk = budget / (regions + folding);
  if (chunk == 0) regions = 1, chunk = budget / (1 + folding);
  const chunking::Chunks chunks(a.nelems, chunk);
  std::byte *fold_region = ch.scratch();
  std::byte *round_base = ch.scratch() + (folding ? chunk * es : 0);
  auto region = [&](std::size_t s) { return round_base + (s % regions) * chunk * es; };

  if (tree::is_extra(me, p))
    return fold::run_extra(ch, a, chunks, fold_region, tree::fold_partner(me, p));

  if (landing) {
    land_round_zero(ch, a, tree::doubling_partner(me, 1));
    if (rounds == 0) return;
  } else {
    chunking::copy_source(a);
  }
  fold::Partner extra(ch, p);
  const std::size_t steps = chunks.count * static_cast<std::size_t>(rounds);
  auto partner = [&](std::size_t s) {
    return tree::doubling_partner(
        me, 1 << (first + static_cast<int>(s % static_cast<std::size_t>(rounds))));
  };
  extra.enter();
  for (std::size_t s = 0; s < std::min(regions, steps); ++s) ch.grant(partner(s));

  for (std::size_t c = 0; c < chunks.count; ++c) {
    std::byte *mine = at(a.dest, chunks.first(c), es);
    const std::size_t len = chunks.len(c), bytes = len * es;
    extra.fold_in(a, chunks, c, mine, fold_region);
    for (int r = 0; r < rounds; ++r) {
      const std::size_t s = c * static_cast<std::size_t>(rounds) + static_cast<std::size_t>(r);
      const int peer = partner(s);
      std::byte *theirs = region(s);
      ch.await_grant(peer);
      ch.send(theirs, mine, bytes, peer);
      ch.await(peer);
      if (me < peer) {
        a.combine(mine, theirs, len);
      } else {
        a.combine(theirs, mine, len);
        std::memcpy(mine, theirs, bytes);
      }
      if (s + regions < steps) ch.grant(partner(s + regions));
    }
    extra.push_result(a, chunks, c, mine);
  }
}

}  // namespace

extern const Algorithm reduce_recursive_doubling;
const Algorithm reduce_recursive_doubling = {"recursive_doubling", Collective::reduce, nullptr,
                                             run};

}  // namespace shoal::coll
