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
#include <cstring>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/reduce/chunking.hpp"
#include "collectives/reduce/fold.hpp"
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
  std::byte *fold_region = ch.scratch();
  std::byte *round_base = ch.scratch() + (folding ? chunk * es : 0);
  auto region = [&](std::size_t s) { return round_base + (s % regions) * chunk * es; };

  if (tree::is_extra(me, p))
    return fold::run_extra(ch, a, chunks, fold_region, tree::fold_partner(me, p));

  chunking::copy_source(a);
  fold::Partner extra(ch, p);
  const std::size_t steps = chunks.count * static_cast<std::size_t>(rounds);
  auto partner = [&](std::size_t s) {
    return tree::doubling_partner(me, 1 << (s % static_cast<std::size_t>(rounds)));
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
