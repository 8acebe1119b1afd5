// Mailbox collect/fcollect, for blocks that fit a mailbox on every PE (Channel::box_bytes: 128 B
// in the largest jobs, 8 KiB with 4 PEs, 4 KiB with 8): each PE sends
// its block to every peer's mailbox (Channel::next_outbox) with one notification, then copies
// each peer's block from its own mailboxes into dest. Every ordered pair carries exactly one
// message per call in each direction, so the calls are exchanges and the alternating mailboxes
// need no credit (channel.hpp): one one-way message per pair and no second round, where the
// other algorithms need a credit before each write into a peer's dest. Works on any team; on
// one node a message is a copy into the peer's mapped box.
//
// Empty blocks are sent as empty messages, which keeps the exchange symmetric. In jobs above
// kBoxPeers PEs some teams have no mailboxes (the same answer on every PE): those calls run
// recursive_doubling.
#include <cstddef>
#include <cstring>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/collect/blocks.hpp"
#include "collectives/slot_state.hpp"

namespace shoal::coll {

namespace {

// In jobs above kBoxPeers PEs, some teams have no mailboxes (the same answer on every PE).
bool applies(const Channel &channel, const Args &args) {
  if (!channel.has_mailboxes()) return false;
  for (int j = 0; j < channel.size(); ++j)
    if (args.counts[j] * args.elem_size > channel.box_bytes()) return false;
  return true;
}

void run(Channel &channel, const Args &args) {
  const int n = channel.size(), me = channel.rank();
  const std::size_t es = args.elem_size;
  auto *dest = static_cast<std::byte *>(args.dest);
  // Peers are visited starting after this PE, so the PEs do not all hit PE 0 first.
  for (int k = 1; k < n; ++k) {
    const int peer = (me + k) % n;
    channel.send(channel.next_outbox(peer), args.source, args.counts[me] * es, peer);
  }
  blocks::place_own(channel, args);
  for (int k = 1; k < n; ++k) {
    const int peer = (me + n - k) % n;
    channel.await(peer);
    const std::byte *box = channel.next_inbox(peer);
    if (args.counts[peer] > 0)
      std::memcpy(dest + args.displs[peer] * es, box, args.counts[peer] * es);
  }
}

}  // namespace

extern const Algorithm collect_mailbox, fcollect_mailbox;
const Algorithm collect_mailbox = {"mailbox", Collective::collect, applies, run};
const Algorithm fcollect_mailbox = {"mailbox", Collective::fcollect, applies, run};

}  // namespace shoal::coll
