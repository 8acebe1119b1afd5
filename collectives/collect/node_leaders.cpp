// Collect/fcollect by node for a team spread over nodes, every message at most kStashMaxBytes:
//   1. each PE hands its block to its node's leader (collectives/leaders.hpp) through a mailbox
//      (a store on the node), or, when larger than a mailbox, into the leader's stash buffer of
//      it (Channel::send_stashed);
//   2. the leaders exchange their nodes' blocks, one message per pair of leaders, or, for a
//      power-of-two number of nodes, by recursive doubling: log2(nodes) messages per leader,
//      each carrying every node's blocks it holds so far, larger ones into the stash again;
//   3. each leader copies the blocks into its node's other PEs' dest (stores) and notifies them.
// Only leaders' messages cross the network: 8 PEs on 4 hosts send 8 messages between hosts
// where mailbox sends 48, each a system call at both ends over TCP. The PEs of a node leave
// together, right after their leader.
//
// No credits: a PE's block reaching its leader says it has entered the call, so its dest is
// free for the leader to write (the one write into a peer's dest without a grant, see
// docs/collectives.md); the leaders' messages are exchanges through alternating mailboxes
// (channel.hpp). Each ordered pair carries at most one message per call.
#include <cstddef>
#include <algorithm>
#include <cstring>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/collect/blocks.hpp"
#include "collectives/leaders.hpp"
#include "collectives/slot_state.hpp"

namespace shoal::coll {

namespace {

bool is_power_of_two(int v) { return (v & (v - 1)) == 0; }

// The bytes of each leader's node, by leader index.
std::vector<std::size_t> node_bytes(const Channel &ch, const Args &a, const Leaders &leaders) {
  std::vector<std::size_t> bytes(static_cast<std::size_t>(leaders.count), 0);
  for (int p = 0; p < ch.size(); ++p)
    bytes[static_cast<std::size_t>(leaders.index_of(ch.memory_group(p)))] +=
        a.counts[p] * a.elem_size;
  return bytes;
}

// The largest message of a call: a PE's block to its leader, or one of the leaders' exchange (a
// node's blocks; in round d of the doubling the d nodes a leader holds).
std::size_t largest_message(const Channel &ch, const Args &a, const Leaders &leaders) {
  std::size_t largest = 0;
  for (int p = 0; p < ch.size(); ++p) largest = std::max(largest, a.counts[p] * a.elem_size);
  const std::vector<std::size_t> nodes = node_bytes(ch, a, leaders);
  const int k = leaders.count;
  for (int d = 1; d == 1 || (is_power_of_two(k) && d < k); d *= 2)
    for (int held = 0; held + d <= k; held += d) {
      std::size_t sum = 0;
      for (int i = held; i < held + d; ++i) sum += nodes[static_cast<std::size_t>(i)];
      largest = std::max(largest, sum);
    }
  return largest;
}

// Where every node has one PE, the largest message: above it the copy out of the stash costs
// more than ring's puts straight into dest (2 PEs on 2 hosts, fcollect of 128 KiB blocks 50.5
// us against ring's 53.5; 256 KiB 94 against 89, 512 KiB 182 against 160).
constexpr std::size_t kOnePerNodeMaxBytes = std::size_t{128} << 10;

// Teams of up to kLeadersMaxPes PEs, with mailboxes, over several nodes, whose every message
// fits a stash buffer (4 PEs on 2 hosts, fcollect of 256 KiB blocks: 229 us against ring's 684-
// 959, OSHMEM 358). Where every node has one PE the leaders' exchange is all there is: taken
// when the nodes are a power of two, whose doubling sends fewer messages than mailbox, with 2
// PEs for blocks larger than a mailbox (auto leaves 2 PEs with small blocks to mailbox: the same
// one message each, 0.1 us faster), up to kOnePerNodeMaxBytes.
bool applies(const Channel &ch, const Args &a) {
  const int n = ch.size();
  if (n > kLeadersMaxPes || !ch.has_mailboxes()) return false;
  const Leaders leaders(ch);
  if (leaders.count < 2 || (leaders.count == n && !is_power_of_two(n))) return false;
  return largest_message(ch, a, leaders) <=
         (leaders.count == n ? kOnePerNodeMaxBytes : kStashMaxBytes);
}

// The blocks of leader index `first` up to `last` (excluded), in leader order, each node's in
// team order: what the leaders send each other.
class NodeBlocks {
 public:
  NodeBlocks(const Channel &ch, const Args &a, const Leaders &leaders)
      : ch_(ch), a_(a), leaders_(leaders), starts_(leaders.count + 1, 0) {
    const std::vector<std::size_t> nodes = node_bytes(ch, a, leaders);
    for (int i = 0; i < leaders.count; ++i)
      starts_[i + 1] = starts_[i] + nodes[static_cast<std::size_t>(i)];
    bytes_.resize(starts_[leaders.count]);
  }
  std::size_t bytes(int first, int last) const { return starts_[last] - starts_[first]; }
  std::byte *at(int first) { return bytes_.data() + starts_[first]; }

  // Copies node i's blocks from dest (out: into this buffer) or into dest.
  void copy(int i, bool out) {
    std::byte *here = at(i);
    const std::size_t es = a_.elem_size;
    for (int p = 0; p < ch_.size(); ++p) {
      if (ch_.memory_group(p) != leaders_.group[i]) continue;
      std::byte *there = static_cast<std::byte *>(a_.dest) + a_.displs[p] * es;
      const std::size_t block = a_.counts[p] * es;
      if (block != 0) std::memcpy(out ? here : there, out ? there : here, block);
      here += block;
    }
  }

 private:
  const Channel &ch_;
  const Args &a_;
  const Leaders &leaders_;
  std::vector<std::size_t> starts_;
  std::vector<std::byte> bytes_;
};

// One message to `peer` (a member's block, or the leaders' exchange): into its mailbox, or into
// the mailbox's stash buffer when larger.
void send_boxed(Channel &ch, const std::byte *data, std::size_t bytes, int peer) {
  std::byte *box = ch.next_outbox(peer);
  if (bytes > kBoxBytes)
    ch.send_stashed(box, data, bytes, peer);
  else
    ch.send(box, data, bytes, peer);
}
// The next message from `peer`, `bytes` long, into `into`.
void receive_boxed(Channel &ch, std::byte *into, std::size_t bytes, int peer) {
  ch.await(peer);
  const std::byte *box = ch.next_inbox(peer);
  if (bytes != 0) std::memcpy(into, bytes > kBoxBytes ? ch.stashed(box) : box, bytes);
}

// Every leader sends its node's blocks to every other leader.
void exchange_direct(Channel &ch, const Leaders &leaders, int mine, NodeBlocks &nodes) {
  const int k = leaders.count;
  for (int d = 1; d < k; ++d) {  // starting after this leader, so not all send to leader 0 first
    const int other = (mine + d) % k;
    send_boxed(ch, nodes.at(mine), nodes.bytes(mine, mine + 1), leaders.rank[other]);
  }
  for (int d = 1; d < k; ++d) {
    const int other = (mine + k - d) % k;
    receive_boxed(ch, nodes.at(other), nodes.bytes(other, other + 1), leaders.rank[other]);
  }
}

// In the round of distance d, leader i holds the nodes [i & ~(d-1), + d) and exchanges them with
// leader i ^ d.
void exchange_doubling(Channel &ch, const Leaders &leaders, int mine, NodeBlocks &nodes) {
  for (int d = 1; d < leaders.count; d *= 2) {
    const int held = mine & ~(d - 1), partner = mine ^ d, theirs = partner & ~(d - 1);
    send_boxed(ch, nodes.at(held), nodes.bytes(held, held + d), leaders.rank[partner]);
    receive_boxed(ch, nodes.at(theirs), nodes.bytes(theirs, theirs + d), leaders.rank[partner]);
  }
}

void run(Channel &ch, const Args &a) {
  const int n = ch.size(), me = ch.rank();
  const int group = ch.memory_group(me);
  const Leaders leaders(ch);
  const int mine = leaders.index_of(group);
  const int leader = leaders.rank[mine];
  const std::size_t es = a.elem_size;
  auto *dest = static_cast<std::byte *>(a.dest);
  blocks::place_own(ch, a);
  if (leader != me) {
    send_boxed(ch, static_cast<const std::byte *>(a.source), a.counts[me] * es, leader);
    ch.await(leader);  // the leader has filled this PE's dest
    return;
  }
  for (int p = me + 1; p < n; ++p) {
    if (ch.memory_group(p) != group) continue;
    receive_boxed(ch, dest + a.displs[p] * es, a.counts[p] * es, p);
  }
  NodeBlocks nodes(ch, a, leaders);
  nodes.copy(mine, /*out=*/true);
  if (is_power_of_two(leaders.count))
    exchange_doubling(ch, leaders, mine, nodes);
  else
    exchange_direct(ch, leaders, mine, nodes);
  for (int i = 0; i < leaders.count; ++i)
    if (i != mine) nodes.copy(i, /*out=*/false);
  for (int p = me + 1; p < n; ++p)  // every block but p's own, which p placed
    if (ch.memory_group(p) == group) blocks::send(ch, a, p, 0, p, p + 1, n);
}

}  // namespace

extern const Algorithm collect_node_leaders, fcollect_node_leaders;
const Algorithm collect_node_leaders = {"node_leaders", Collective::collect, applies, run};
const Algorithm fcollect_node_leaders = {"node_leaders", Collective::fcollect, applies, run};

}  // namespace shoal::coll
