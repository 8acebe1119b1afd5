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
// The extras grant their dest once, on entry, for the result.
#include <cstring>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/reduce/chunking.hpp"
#include "collectives/tree.hpp"

namespace shoal::coll {
namespace {

void run(Channel &ch, const Args &a) {
  using chunking::at;
  const int n = ch.size(), me = ch.rank();
  const std::size_t es = a.elem_size;
  const int p = tree::floor_power_of_two(n), rounds = tree::ceil_log2(p);
  const bool folding = p != n;

  // Scratch: [fold region if folding][K round regions], each `chunk` elements.
  const std::size_t budget = chunking::scratch_elems(ch, a);
  std::size_t regions = static_cast<std::size_t>(rounds);
  std::size_t chunk = budget / (regions + folding);
  if (chunk == 0) regions = 1, chunk = budget / (1 + folding);
  const chunking::Chunks chunks(a.nelems, chunk);
  std::byte *fold = ch.scratch();
  std::byte *round_base = ch.scratch() + (folding ? chunk * es : 0);
  auto region = [&](std::size_t s) { return round_base + (s % regions) * chunk * es; };

  if (tree::is_extra(me, p)) {  // an extra PE: fold into me - p, then receive the result
    const int q = tree::fold_partner(me, p);
    ch.grant(q);  // q may write the result into dest
    for (std::size_t c = 0; c < chunks.count; ++c) {
      ch.await_grant(q);
      ch.send(fold, at(a.source, chunks.first(c), es), chunks.len(c) * es, q);
    }
    for (std::size_t c = 0; c < chunks.count; ++c) ch.await(q);
    return;
  }

  chunking::copy_source(a);
  const int extra = tree::fold_partner(me, p);
  const bool has_extra = extra < n;
  const std::size_t steps = chunks.count * static_cast<std::size_t>(rounds);
  auto partner = [&](std::size_t s) {
    return tree::doubling_partner(me, 1 << (s % static_cast<std::size_t>(rounds)));
  };
  if (has_extra) ch.grant(extra);  // the fold region, chunk 0
  for (std::size_t s = 0; s < std::min(regions, steps); ++s) ch.grant(partner(s));

  for (std::size_t c = 0; c < chunks.count; ++c) {
    std::byte *mine = at(a.dest, chunks.first(c), es);
    const std::size_t len = chunks.len(c), bytes = len * es;
    if (has_extra) {
      ch.await(extra);
      a.combine(mine, fold, len);  // me < extra: my data is the left operand
      if (c + 1 < chunks.count) ch.grant(extra);
    }
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
    if (has_extra) {
      if (c == 0) ch.await_grant(extra);  // its dest, granted once on entry
      ch.send(mine, mine, bytes, extra);
    }
  }
}

}  // namespace

extern const Algorithm reduce_recursive_doubling;
const Algorithm reduce_recursive_doubling = {"recursive_doubling", Collective::reduce, nullptr,
                                             run};

}  // namespace shoal::coll
