// Recursive-doubling (Hillis-Steele) scan in ceil(log2 n) rounds. Each PE keeps t, the sum of a
// window of contributions ending at its own: before round r the window is the 2^r PEs up to
// itself. In round r (d = 2^r) PE i sends t to PE i+d and combines the t of PE i-d into its own,
// doubling the window, so after the last round t = x0 OP ... OP xi (inscan).
//
// Exscan keeps a second window e, the same one without the PE's own contribution: it starts
// empty and takes the first t received as is, then combines every later one, so it ends as
// x0 OP ... OP x(i-1); PE 0 never receives anything and gets zeros.
//
// Operand order: the received window is combined into the PE's own (own as the left operand);
// scans only sum, which is commutative bit for bit.
//
// Buffers: round r's windows arrive in scratch region r, granted to PE i-d again once combined
// from; exscan keeps t in one more, private region (so dest and source may be the same buffer).
// The vector goes through in chunks of one region.
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
  const int rounds = tree::ceil_log2(n);
  const chunking::Chunks chunks(
      a.nelems,
      chunking::scratch_elems(ch, a) / (static_cast<std::size_t>(rounds) + (a.exclusive ? 1 : 0)));
  auto region = [&](int r) {
    return ch.scratch() + static_cast<std::size_t>(r) * chunks.size * es;
  };

  for (int d = 1; d < n; d <<= 1)
    if (me - d >= 0) ch.grant(me - d);

  for (std::size_t c = 0; c < chunks.count; ++c) {
    const std::byte *src = at(a.source, chunks.first(c), es);
    std::byte *dst = at(a.dest, chunks.first(c), es);
    const std::size_t len = chunks.len(c), bytes = len * es;
    std::byte *t = dst;
    if (a.exclusive) {
      t = region(rounds);
      std::memcpy(t, src, bytes);
    } else if (dst != src) {
      std::memcpy(dst, src, bytes);
    }
    bool e_empty = true;  // exscan: nothing received yet
    for (int r = 0, d = 1; r < rounds; ++r, d <<= 1) {
      if (me + d < n) {
        ch.await_grant(me + d);
        ch.send(region(r), t, bytes, me + d);
      }
      if (me - d >= 0) {
        std::byte *window = region(r);
        ch.await(me - d);
        if (a.exclusive) {
          if (e_empty)
            std::memcpy(dst, window, bytes);
          else
            a.combine(dst, window, len);
          e_empty = false;
        }
        if (me + 2 * d < n || !a.exclusive) a.combine(t, window, len);  // t still needed
        if (c + 1 < chunks.count) ch.grant(me - d);
      }
    }
    if (a.exclusive && e_empty) std::memset(dst, 0, bytes);
  }
}

}  // namespace

extern const Algorithm scan_recursive_doubling;
const Algorithm scan_recursive_doubling = {"recursive_doubling", Collective::scan, nullptr, run};

}  // namespace shoal::coll
