// On-node reduction of short vectors through cache lines (cache_lines.hpp): every PE stores its
// vector into every other PE's slot, in up to kExchangeMsgLines (8) lines that each carry a
// piece and the sequence number of the message, then waits for the others' lines in its own
// slot and folds them all in team order. One cache-line transfer per line and pair, all in
// parallel: on two PEs a reduction of up to a few hundred bytes costs one one-way trip.
//
// Each piece holds a whole number of elements (56 bytes or less). Each pair uses two messages
// in alternation (by its sequence number). No credit is needed: a PE writes a message again two
// messages later, and by then it has read the peer's next message, which the peer wrote only
// after reading everything of this call.
//
// Every PE computes ((v0 OP v1) OP v2) ... in team order, so all end with the same bytes,
// floating point included. Needs args.direct; teams with PEs of slot index kBoxPeers and above
// (only in larger jobs) have no lines and run recursive_doubling.
#include <algorithm>
#include <cstring>

#include "collectives/algorithm.hpp"
#include "collectives/cache_lines.hpp"
#include "collectives/channel.hpp"
#include "collectives/slot_state.hpp"

namespace shoal::coll {

namespace {

// Bytes of whole elements one line carries.
std::size_t piece_bytes(const Args &a) { return kLinePayload / a.elem_size * a.elem_size; }

// Teams with PEs of slot index kBoxPeers and above (only in larger jobs) have no lines.
bool applies(const Channel &ch, const Args &a) {
  return a.direct && a.elem_size <= kLinePayload &&
         a.bytes() <= kExchangeMsgLines * piece_bytes(a) && lines::available(ch);
}

void run(Channel &ch, const Args &a) {
  Slot &s = ch.slot();
  const int n = ch.size(), me = ch.rank(), mine = ch.slot_index(me);
  const std::size_t bytes = a.bytes(), piece = piece_bytes(a);
  const auto *source = static_cast<const std::byte *>(a.source);

  for (int k = 1; k < n; ++k) {
    const int peer = (me + k) % n;
    const std::uint64_t seq = ++s.exchanges[static_cast<std::size_t>(ch.slot_index(peer))];
    std::byte *line = ch.mapped(lines::exchange(s, mine, seq), peer);
    for (std::size_t at = 0; at < bytes; at += piece, line += kLineBytes)
      lines::write(line, source + at, std::min(piece, bytes - at), seq);
  }
  alignas(64) std::byte acc[kExchangeMsgLines * kLinePayload];
  for (int pe = 0; pe < n; ++pe) {
    if (pe == me) {
      if (pe == 0)
        std::memcpy(acc, source, bytes);
      else
        a.combine(acc, source, a.nelems);
      continue;
    }
    const int from = ch.slot_index(pe);
    const std::uint64_t seq = s.exchanges[static_cast<std::size_t>(from)];
    const std::byte *line = lines::exchange(s, from, seq);
    for (std::size_t at = 0; at < bytes; at += piece, line += kLineBytes) {
      lines::wait_for(ch, lines::seq_of(line), seq);
      const std::size_t len = std::min(piece, bytes - at);
      if (pe == 0)
        std::memcpy(acc + at, line, len);
      else
        a.combine(acc + at, line, len / a.elem_size);
    }
  }
  std::memcpy(a.dest, acc, bytes);
}

}  // namespace

extern const Algorithm reduce_cache_line;
const Algorithm reduce_cache_line = {"cache_line", Collective::reduce, applies, run};

}  // namespace shoal::coll
