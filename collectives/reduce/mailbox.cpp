// Recursive doubling for short vectors through mailboxes: in round r every PE sends its partial
// result (at most kBoxBytes) to PE me ^ 2^r's mailbox and combines the partner's. Because each
// round is an exchange, the alternating mailboxes need no credit, so a round costs one one-way
// message instead of a credit and a message: on one node, about half the latency of
// recursive_doubling for a few elements. Teams whose size is a power of two only.
//
// Across nodes (teams whose heaps are not all mapped) vectors up to kMaxStashed go the same way:
// the message carries the data into the partner's stash buffer of the mailbox
// (Channel::send_stashed), so a round is still one message where recursive_doubling waits for
// a credit first (a 256 B - 1 KiB sum across two hosts: 20-24 -> 10.5-13 us; OSHMEM 9.6).
// Above 16 KiB the copies out of the stash cost more than the credit saves (64 KiB: 51 -> 70).
//
// Both partners compute (lower PE's data) OP (higher PE's data), so every PE ends with the same
// bytes, floating point included.
#include <cstring>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/slot_state.hpp"

namespace shoal::coll {

namespace {

constexpr std::size_t kMaxStashed = std::size_t{16} << 10;
static_assert(kMaxStashed <= kStashMaxBytes);

// Whether the messages go into the partners' stash buffers rather than into their mailboxes.
bool stashed(std::size_t bytes) { return bytes > kBoxBytes; }

// In jobs above kBoxPeers PEs, some teams have no mailboxes (the same answer on every PE).
bool applies(const Channel &ch, const Args &a) {
  const int n_pes = ch.size();
  if ((n_pes & (n_pes - 1)) != 0 || !ch.has_mailboxes()) return false;
  return !stashed(a.bytes()) || (!a.direct && a.bytes() <= kMaxStashed);
}

void run(Channel &ch, const Args &a) {
  const std::size_t bytes = a.bytes();
  alignas(16) std::byte box_mine[kBoxBytes], box_theirs[kBoxBytes];
  std::vector<std::byte> big;
  if (stashed(bytes)) big.resize(2 * bytes);
  std::byte *const mine = stashed(bytes) ? big.data() : box_mine;
  std::byte *const theirs = stashed(bytes) ? big.data() + bytes : box_theirs;
  std::memcpy(mine, a.source, bytes);
  for (int distance = 1; distance < ch.size(); distance <<= 1) {
    const int peer = ch.rank() ^ distance;
    std::byte *outbox = ch.next_outbox(peer);
    if (stashed(bytes))
      ch.send_stashed(outbox, mine, bytes, peer);
    else
      ch.send(outbox, mine, bytes, peer);
    ch.await(peer);
    const std::byte *inbox = ch.next_inbox(peer);
    std::memcpy(theirs, stashed(bytes) ? ch.stashed(inbox) : inbox, bytes);
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
const Algorithm reduce_mailbox = {"mailbox", Collective::reduce, applies, run};

}  // namespace shoal::coll
