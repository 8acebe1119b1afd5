// Recursive doubling for short vectors through mailboxes: in round r every PE sends its partial
// result (at most kBoxBytes) to PE me ^ 2^r's mailbox and combines the partner's. Because each
// round is an exchange, the alternating mailboxes need no credit, so a round costs one one-way
// message instead of a credit and a message: on one node, about half the latency of
// recursive_doubling for a few elements. Teams whose size is a power of two only.
//
// Both partners compute (lower PE's data) OP (higher PE's data), so every PE ends with the same
// bytes, floating point included.
#include <cstring>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/slot.hpp"

namespace shoal::coll {

extern const Algorithm reduce_recursive_doubling;

namespace {

bool applies(int n_pes, const Args &a) {
  return a.bytes() <= kBoxBytes && (n_pes & (n_pes - 1)) == 0;
}

void run(Channel &ch, const Args &a) {
  // In jobs above kBoxPeers PEs, some teams have no mailboxes (the same answer on every PE).
  if (!ch.has_mailboxes()) return reduce_recursive_doubling.run(ch, a);
  const std::size_t bytes = a.bytes();
  alignas(16) std::byte mine[kBoxBytes], theirs[kBoxBytes];
  std::memcpy(mine, a.source, bytes);
  for (int distance = 1; distance < ch.size(); distance <<= 1) {
    const int peer = ch.rank() ^ distance;
    ch.send(ch.next_outbox(peer), mine, bytes, peer);
    ch.await(peer);
    std::memcpy(theirs, ch.next_inbox(peer), bytes);
    if (ch.rank() < peer) {
      a.combine(mine, theirs, a.nelems);
    } else {
      a.combine(theirs, mine, a.nelems);
      std::memcpy(mine, theirs, bytes);
    }
  }
  std::memcpy(a.dest, mine, bytes);
}

}  // namespace

extern const Algorithm reduce_mailbox;
const Algorithm reduce_mailbox = {
    "mailbox", Collective::reduce,
    "recursive doubling of vectors up to 128 B through alternating mailboxes, no credits "
    "(power-of-two teams)",
    applies, run};

}  // namespace shoal::coll
