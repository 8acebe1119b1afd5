// Broadcast through cache lines (cache_lines.hpp) with no credits and no round trips: the root
// stores the message and its sequence number into one line per reader, in the reader's slot,
// and returns; each reader waits for the sequence number in its own line and copies the message
// out. A message of up to kLinePayload (56) bytes lives in the line itself: one cache-line
// transfer from root to reader on the node; to every other node one message (Channel::signal)
// into the line of one reader there, which relays it into the lines of its node's other readers
// (writer_of). A larger one (up to kStashMaxBytes, teams whose heaps are not all mapped)
// travels in the line's message into the reader's stash buffer of the line
// (Channel::signal_stashed), where the reader copies it from: one message per reader where
// the binomial tree needs a credit back before each step.
//
// A broadcast is one-directional, so the root must know a reader is done with a line before it
// writes that line again: readers acknowledge messages in a line of their own in the root's
// slot. The root's lines per reader form a ring of kBcastLines, so it needs to know only that
// the reader has read the message kBcastLines before; it reads the acknowledgements after its
// stores, once every few calls, and learns then about every message read so far, so it almost
// never waits for one and never on the readers' critical path. A reader on the root's node
// acknowledges every message (a store); one on another node every kAckEvery-th only, since
// each acknowledgement is a network message whose sending costs the reader a system call
// (several microseconds over TCP): whatever message the root waits for to be read, a multiple
// of kAckEvery lies between it and the last message sent, so the reader reaches one.
//
// The root sends up to n - 1 messages, so across nodes it serves teams of up to kMaxNetworkTeam PEs
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
constexpr std::uint64_t kAckEvery = kBcastLines / 2;
static_assert(kAckEvery >= 1 && kAckEvery <= kBcastLines);

// Whether the message goes into the reader's stash rather than into its line.
bool stashed(std::size_t bytes) { return bytes > kLinePayload; }

bool applies(const Channel &ch, const Args &a) {
  if (!lines::available(ch)) return false;
  if (!stashed(a.bytes())) return a.direct || ch.size() <= kMaxNetworkTeam;
  return !a.direct && ch.size() <= kMaxNetworkTeam && a.bytes() <= kStashMaxBytes;
}

// Who writes reader r's line for a broadcast from `root`. Across nodes a message costs the
// sender a system call where a store into a mapped line costs nothing, so a message of a line's
// payload crosses to every other node once: the root writes the lines of its own node's readers
// and of one reader per other node (its lowest team PE), which relays it into its node's other
// lines. Every PE computes the same (memory groups are the same everywhere), so every reader
// waits on the line its writer fills, and writer and reader count the same stream.
int writer_of(const Channel &ch, int root, int r, bool relay) {
  if (!relay) return root;
  const int group = ch.memory_group(r);
  if (group == ch.memory_group(root)) return root;
  for (int p = 0; p < ch.size(); ++p)
    if (ch.memory_group(p) == group) return p == r ? root : p;
  return root;
}

// Writes `source` into the line of every reader this PE writes (the root's, or a relay's),
// those of this node first: a store each, where a reader on another node costs a system call
// that the node's readers need not wait behind.
void write_lines(Channel &ch, const Args &a, const void *source, bool relay) {
  Slot &s = ch.slot();
  const int n = ch.size(), me = ch.rank(), mine = ch.slot_index(me);
  const std::size_t bytes = a.bytes();
  for (const bool on_node : {true, false})
    for (int k = 1; k < n; ++k) {
      const int r = (me + k) % n;
      if (r == a.root || writer_of(ch, a.root, r, relay) != me) continue;
      const auto ri = static_cast<std::size_t>(ch.slot_index(r));
      std::byte *const line_here = lines::bcast(s, mine, s.bcasts_out[ri] + 1);
      std::byte *const mapped = ch.mapped(line_here, r);
      if ((mapped != nullptr) != on_node) continue;
      const std::uint64_t seq = ++s.bcasts_out[ri];
      if (seq > s.bcasts_acked[ri] + kBcastLines) {  // r may still read message seq - kBcastLines
        const std::uint64_t *ack =
            lines::seq_of(lines::local(s, static_cast<int>(ri), lines::kAck));
        lines::wait_for(ch, ack, seq - kBcastLines);
        s.bcasts_acked[ri] = lines::load(ack);
      }
      if (stashed(bytes))
        ch.signal_stashed(lines::seq_of(line_here), seq, r, line_here, source, bytes,
                          /*stream=*/true);
      else if (mapped != nullptr)
        lines::write(mapped, source, bytes, seq);
      else
        ch.signal(lines::seq_of(line_here), seq, r, line_here, source, bytes, /*stream=*/true);
    }
  // Look ahead, off the readers' path: when the next message would reuse a line whose reading
  // is not yet known, learn how far each reader has got (usually the message before this one).
  for (int k = 1; k < n; ++k) {
    const auto ri = static_cast<std::size_t>(ch.slot_index((me + k) % n));
    if (s.bcasts_out[ri] + 1 > s.bcasts_acked[ri] + kBcastLines)
      s.bcasts_acked[ri] =
          lines::load(lines::seq_of(lines::local(s, static_cast<int>(ri), lines::kAck)));
  }
}

void run(Channel &ch, const Args &a) {
  Slot &s = ch.slot();
  const int me = ch.rank(), mine = ch.slot_index(me);
  const std::size_t bytes = a.bytes();
  // Stashed messages are one network message per reader either way: no relays for them.
  const bool relay = !stashed(bytes);

  if (me == a.root) {
    write_lines(ch, a, a.source, relay);
    if (a.dest != a.source) std::memmove(a.dest, a.source, bytes);
    return;
  }
  const int writer = writer_of(ch, a.root, me, relay);
  const int from = ch.slot_index(writer);
  const std::uint64_t seq = ++s.bcasts_in[static_cast<std::size_t>(from)];
  const std::byte *line = lines::bcast(s, from, seq);
  lines::wait_for(ch, lines::seq_of(line), seq);
  std::memcpy(a.dest, stashed(bytes) ? ch.stashed(line) : line, bytes);
  // Done with the line: its writer may write it again.
  std::byte *ack = lines::local(s, mine, lines::kAck);
  if (std::byte *mapped = ch.mapped(ack, writer))
    __atomic_store_n(lines::seq_of(mapped), seq, __ATOMIC_RELEASE);
  else if (seq % kAckEvery == 0)
    ch.signal(lines::seq_of(ack), seq, writer, nullptr, nullptr, 0, /*stream=*/true);
  // A relay passes the message on to the rest of its node.
  if (relay && writer == a.root && ch.memory_group(me) != ch.memory_group(a.root))
    write_lines(ch, a, a.dest, relay);
}

}  // namespace

extern const Algorithm broadcast_cache_line;
const Algorithm broadcast_cache_line = {"cache_line", Collective::broadcast, applies, run};

}  // namespace shoal::coll
