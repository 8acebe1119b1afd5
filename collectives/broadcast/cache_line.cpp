// Broadcast through cache lines (cache_lines.hpp) with no credits and no round trips: the root
// stores the message and its sequence number into one line per reader, in the reader's slot,
// and returns; each reader waits for the sequence number in its own line and copies the message
// out. A message of up to kLinePayload (56) bytes lives in the line itself: one cache-line
// transfer from root to reader on the node; to every other node one message (Channel::signal)
// into the line of one reader there, down a tree of the nodes, which relays it to its child
// nodes and into the lines of its node's other readers (NodeTree). A larger one goes, in a team
// on one node, into the reader's broadcast entry of the same ring position (up to
// Slot::bcast_entry_bytes: 4 KiB with 4 PEs; cache_lines.hpp) with the sequence number after
// it, so the root still returns without waiting for its readers, where direct waits until every
// reader has copied from its source (4 PEs on 2 CPUs, 256 B: 0.2 us against 1.07). In teams
// whose heaps are not all mapped (up to kMaxStashedBytes) it travels the same way as a small one,
// in the line's message into each reader's stash buffer of the line (Channel::signal_stashed),
// where the reader copies it from: one message per reader where the binomial tree needs a
// credit back before each step.
//
// A broadcast is one-directional, so the root must know a reader is done with a line before it
// writes that line again: readers acknowledge messages in an acknowledgement word per pair
// (lines::ack_word). The root's lines per reader form a ring of kBcastLines, so it needs to
// know only that the reader has read the message kBcastLines before; it reads the
// acknowledgements after its stores, once every few calls, and learns then about every message
// read so far, so it almost never waits for one and never on the readers' critical path. A
// reader on the root's node acknowledges every message, a store into its own word, which the
// root loads; one on another node through Channel::acknowledge into the root's word, since a
// network message of its own costs the reader a system call (several microseconds over TCP):
// the acknowledgement rides in the reader's next message to the root (a barrier's, say) and
// goes alone only kAckSlack messages after the last one that went. Whatever message the root
// waits for to be read, the reader has sent at least the acknowledgement of the message
// kAckSlack - 1 before the last one the root wrote, and kAckSlack <= kBcastLines. Neither kind
// can move a word of the slot's next team: a reader still in its last broadcast of a destroyed
// team stores into its own slot, which it has not given back yet, and a raise that arrives late
// names the old team's generation (cache_lines.hpp).
//
// A PE sends up to n - 1 messages, so across nodes it serves teams of up to kMaxNetworkTeam PEs
// (on the node, where a message is a store, any team); teams with PEs of slot index kBoxPeers
// and above (only in larger jobs) have no lines and run binomial.
#include <cstring>

#include "collectives/algorithm.hpp"
#include "collectives/cache_lines.hpp"
#include "collectives/channel.hpp"
#include "collectives/slot_state.hpp"

namespace shoal::coll {

namespace {

constexpr int kMaxNetworkTeam = 8;
// The largest broadcast that travels across nodes in the readers' stash buffers; binomial and
// scatter_allgather take larger ones. Across 2 namespace hosts, medians of 3-4 interleaved runs,
// us, this / binomial / OSHMEM: 2 PEs, 128 KiB 78 / 167 / 115, 512 KiB 257 / 317 / 315, 1 MiB
// 527 / 474 / 423; 4 PEs (2 per host), 256 KiB 173 / 459 / 415, 1 MiB 938 / 950 / 1213.
// (binomial waits for a credit, a round trip, before each step, and from 64 to 128 KiB its time
// grew by twice this one's.) A reader's buffer per line grows to the longest message: up to
// kBcastLines x 512 KiB per root it reads from, allocated only by broadcasts that large.
constexpr std::size_t kMaxStashedBytes = std::size_t{512} << 10;
static_assert(kMaxStashedBytes <= kStashMaxBytes);
constexpr std::uint64_t kAckSlack = kBcastLines / 2;
static_assert(kAckSlack >= 1 && kAckSlack <= kBcastLines);

// Where a message goes: into the reader's line, into its broadcast entry (a team on one
// node), or in a message into its stash buffer of the line (a team across nodes).
enum class Way { line, entry, stash };
Way way_of(const Args &a) {
  if (a.bytes() <= kLinePayload) return Way::line;
  return a.direct ? Way::entry : Way::stash;
}

bool applies(const Channel &ch, const Args &a) {
  if (!lines::available(ch)) return false;
  switch (way_of(a)) {
    case Way::line:
      return a.direct || ch.size() <= kMaxNetworkTeam;
    case Way::entry:
      return a.bytes() <= ch.slot().bcast_entry_bytes;
    case Way::stash:
      return ch.size() <= kMaxNetworkTeam && a.bytes() <= kMaxStashedBytes;
  }
  return false;
}

// Who writes reader r's line for a broadcast from `root`. Across nodes a message costs the
// sender a system call where a store into a mapped line costs nothing, so a message crosses to
// every other node once, down a binomial tree of the nodes: the first PE of each node in team
// order from the root (its head; the root heads its own) receives it from the head of its parent
// node and writes the lines of its child nodes' heads and of its own node's other readers (a
// store each; a message each for a stashed one, which does not fit the line). The root of 4
// nodes sends 2 messages where it sent 3. Every PE computes the same (memory groups are the
// same everywhere), so every reader waits on the line its writer fills, and writer and reader
// count the same stream.
class NodeTree {
 public:
  // Teams across nodes have at most kMaxNetworkTeam PEs (applies); a larger one is on one node.
  NodeTree(const Channel &ch, int root) : n_(ch.size()), root_(root) {
    if (n_ > kMaxNetworkTeam) return;  // one node: the root writes every line
    int group[kMaxNetworkTeam];
    for (int k = 0; k < n_; ++k) {  // positions in team order from the root
      group[k] = ch.memory_group(at(k));
      int first = 0;
      while (group[first] != group[k]) ++first;
      head_pos_[k] = first;
      if (first == k) {  // k heads a node of its own
        node_[k] = nodes_;
        head_of_node_[nodes_++] = k;
      } else {
        node_[k] = node_[first];
      }
    }
  }

  // For a reader: r != root.
  int writer_of(int r) const {
    if (nodes_ == 0) return root_;
    const int k = pos(r);
    if (head_pos_[k] != k) return at(head_pos_[k]);  // the root's node included: the root heads it
    const int node = node_[k];
    return at(head_of_node_[node - highest_bit(node)]);  // the head of the parent node
  }
  // Whether this PE heads a node other than the root's, and so relays what it receives.
  bool relays(int p) const {
    if (nodes_ == 0) return false;
    const int k = pos(p);
    return k != 0 && head_pos_[k] == k;
  }

 private:
  int at(int k) const { return (root_ + k) % n_; }
  int pos(int p) const { return (p - root_ + n_) % n_; }
  static int highest_bit(int v) {
    int b = 1;
    while (b * 2 <= v) b *= 2;
    return b;
  }
  int n_, root_;
  int nodes_ = 0;                           // 0: a team on one node, larger than kMaxNetworkTeam
  int head_pos_[kMaxNetworkTeam] = {};      // by position: the position of its node's head
  int node_[kMaxNetworkTeam] = {};          // by position: its node, counted from the root's (0)
  int head_of_node_[kMaxNetworkTeam] = {};  // by node: the position of its head
};

// The word where reader r acknowledges this PE's broadcasts to it: its own when it is on this
// node (this PE loads it there), else this PE's (its messages raise it).
const std::uint64_t *acknowledgements_of(const Channel &ch, const Slot &s, int r) {
  const std::uint64_t *at_reader = lines::ack_word(s, ch.slot_index(ch.rank()));
  if (const std::byte *mapped = ch.mapped(at_reader, r))
    return reinterpret_cast<const std::uint64_t *>(mapped);
  return lines::ack_word(s, ch.slot_index(r));
}

// Tells the writer of this PE's lines that it has read `count` of its broadcasts.
void acknowledge(Channel &ch, const Slot &s, int writer, std::uint64_t count) {
  const std::uint64_t value = lines::ack_value(s, count);
  std::uint64_t *mine = lines::ack_word(s, ch.slot_index(writer));
  if (ch.mapped(mine, writer) != nullptr)
    __atomic_store_n(mine, value, __ATOMIC_RELEASE);
  else
    ch.acknowledge(lines::ack_word(s, ch.slot_index(ch.rank())), value, writer, kAckSlack);
}

// Writes `source` into the line of every reader this PE writes (the root's, or a relay's).
// Those of this node first when that is a store each, which the other nodes' readers need not
// wait behind; last when it is a message each (stashed). Other nodes' heads in team order from
// the root, which puts the largest subtree first (node 1 heads nodes 1, 3, 5 and 7 of 8).
void write_lines(Channel &ch, const Args &a, const NodeTree &tree, const void *source) {
  Slot &s = ch.slot();
  const int n = ch.size(), me = ch.rank(), mine = ch.slot_index(me);
  const std::size_t bytes = a.bytes();
  const Way way = way_of(a);
  const bool node_first = way != Way::stash;
  for (const bool on_node : {node_first, !node_first})
    for (int k = 1; k < n; ++k) {
      const int r = (a.root + k) % n;
      if (tree.writer_of(r) != me) continue;
      const auto ri = static_cast<std::size_t>(ch.slot_index(r));
      std::byte *const line_here = lines::bcast(s, mine, s.bcasts_out[ri] + 1);
      std::byte *const mapped = ch.mapped(line_here, r);
      if ((mapped != nullptr) != on_node) continue;
      const std::uint64_t seq = ++s.bcasts_out[ri];
      if (seq > s.bcasts_acked[ri] + kBcastLines) {  // r may still read message seq - kBcastLines
        const std::uint64_t *ack = acknowledgements_of(ch, s, r);
        lines::wait_for(ch, ack, lines::ack_value(s, seq - kBcastLines));
        s.bcasts_acked[ri] = lines::ack_count(lines::load(ack));
      }
      if (way == Way::stash) {
        ch.signal_stashed(lines::seq_of(line_here), seq, r, line_here, source, bytes,
                          /*stream=*/true);
      } else if (way == Way::entry) {  // a team on one node: every reader is mapped
        std::byte *entry = ch.mapped(lines::bcast_entry(s, mine, seq), r);
        std::memcpy(entry, source, bytes);
        __atomic_store_n(lines::entry_seq(s, entry), seq, __ATOMIC_RELEASE);
      } else if (mapped != nullptr) {
        lines::write(mapped, source, bytes, seq);
      } else {
        ch.signal(lines::seq_of(line_here), seq, r, line_here, source, bytes, /*stream=*/true);
      }
    }
  // Look ahead, off the readers' path: when the next message would reuse a line whose reading
  // is not yet known, learn how far each reader has got (usually the message before this one).
  for (int k = 1; k < n; ++k) {
    const int r = (me + k) % n;
    const auto ri = static_cast<std::size_t>(ch.slot_index(r));
    if (s.bcasts_out[ri] + 1 > s.bcasts_acked[ri] + kBcastLines)
      s.bcasts_acked[ri] = lines::ack_count(lines::load(acknowledgements_of(ch, s, r)));
  }
}

void run(Channel &ch, const Args &a) {
  Slot &s = ch.slot();
  const int me = ch.rank();
  const std::size_t bytes = a.bytes();
  const NodeTree tree(ch, a.root);

  if (me == a.root) {
    write_lines(ch, a, tree, a.source);
    broadcast_to_root_dest(a);
    return;
  }
  const int writer = tree.writer_of(me);
  const int from = ch.slot_index(writer);
  const std::uint64_t seq = ++s.bcasts_in[static_cast<std::size_t>(from)];
  const Way way = way_of(a);
  const std::byte *line =
      way == Way::entry ? lines::bcast_entry(s, from, seq) : lines::bcast(s, from, seq);
  lines::wait_for(ch, way == Way::entry ? lines::entry_seq(s, line) : lines::seq_of(line), seq);
  std::memcpy(a.dest, way == Way::stash ? ch.stashed(line) : line, bytes);
  // Done with the line: its writer may write it again.
  acknowledge(ch, s, writer, seq);
  // A relay passes the message on to its child nodes and the rest of its node.
  if (tree.relays(me)) write_lines(ch, a, tree, a.dest);
}

}  // namespace

extern const Algorithm broadcast_cache_line;
const Algorithm broadcast_cache_line = {"cache_line", Collective::broadcast, applies, run};

}  // namespace shoal::coll
