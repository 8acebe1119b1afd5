// Linear scan: team PE i waits for the inclusive prefix x0 OP ... OP x(i-1) from PE i-1,
// combines its own vector into it (prefix as the left operand) and passes the new prefix on to
// PE i+1. Inscan stores the new prefix in dest, exscan the received one (PE 0: zeros).
//
// Buffers: prefixes arrive in one of two scratch regions (alternating per chunk, so the next
// chunk can arrive while this one is used); exscan also uses a third, private region to build the
// outgoing prefix, which lets dest and source be the same buffer. A PE grants its predecessor a
// region again once it has passed the prefix in it on.
#include <cstring>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/reduce/chunking.hpp"

namespace shoal::coll {
namespace {

void run(Channel &ch, const Args &a) {
  using chunking::at;
  const int n = ch.size(), me = ch.rank();
  const std::size_t es = a.elem_size;
  const chunking::Chunks chunks(a.nelems, chunking::scratch_elems(ch, a) / (a.exclusive ? 3 : 2));
  auto region = [&](std::size_t i) { return ch.scratch() + i * chunks.size * es; };
  std::byte *outgoing = region(2);  // exscan only; never written by peers
  const bool first = me == 0, last = me == n - 1;

  if (!first)
    for (std::size_t c = 0; c < std::min<std::size_t>(2, chunks.count); ++c) ch.grant(me - 1);

  for (std::size_t c = 0; c < chunks.count; ++c) {
    const std::byte *src = at(a.source, chunks.first(c), es);
    std::byte *dst = at(a.dest, chunks.first(c), es);
    const std::size_t len = chunks.len(c), bytes = len * es;
    std::byte *in = region(c % 2);
    const std::byte *out = nullptr;  // the prefix to pass on
    if (first) {
      if (a.exclusive) {
        out = src;  // sent before dest (maybe the same buffer) is zeroed
      } else {
        if (dst != src) std::memcpy(dst, src, bytes);
        out = dst;
      }
    } else {
      ch.await(me - 1);
      if (a.exclusive) {
        if (!last) {
          std::memcpy(outgoing, in, bytes);
          a.combine(outgoing, src, len);
          out = outgoing;
        }
        std::memcpy(dst, in, bytes);
      } else {
        a.combine(in, src, len);
        std::memcpy(dst, in, bytes);
        out = in;
      }
    }
    if (!last) {
      ch.await_grant(me + 1);
      ch.send(in, out, bytes, me + 1);  // same region at the successor
    }
    if (first && a.exclusive) std::memset(dst, 0, bytes);
    if (!first && c + 2 < chunks.count) ch.grant(me - 1);
  }
}

}  // namespace

extern const Algorithm scan_linear;
const Algorithm scan_linear = {"linear", Collective::scan, nullptr, run};

}  // namespace shoal::coll
