// A team's slot as the algorithms see it: where in the symmetric collective area its counters,
// mailboxes, cache lines and scratch are (the same addresses on every PE of the team), and this
// PE's side of every channel. The library binds a slot to its area (slots.cpp, slot.hpp); the
// in-process tests bind one to memory of their own (tests/coll/inproc/). Nothing here knows
// the runtime.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace shoal::coll {

// Words of a bit set with one bit per slot (SMA_TEAMS_MAX is at most 1024).
constexpr int kMaskWords = 16;
// Mailboxes: two boxes per sending PE (slot index below kBoxPeers), used in alternation, so a
// message of an exchange needs no credit (Channel::next_outbox). A box holds at least kBoxBytes;
// a job of fewer PEs gives its boxes the area a job of kBoxPeers PEs has (kBoxArea per slot),
// so each holds more: box_bytes_for(world PEs), 8 KiB with 4 PEs, 4 KiB with 8.
constexpr std::size_t kBoxBytes = 128;
constexpr int kBoxPeers = 256;
constexpr std::size_t kBoxArea = kBoxPeers * 2 * kBoxBytes;
constexpr std::size_t box_bytes_for(int world_pes) {
  const int senders = world_pes < 1 ? 1 : world_pes < kBoxPeers ? world_pes : kBoxPeers;
  return kBoxArea / (2 * static_cast<std::size_t>(senders)) / 64 * 64;  // whole cache lines
}
static_assert(box_bytes_for(kBoxPeers) == kBoxBytes && box_bytes_for(1 << 20) == kBoxBytes);
// Cache lines of the on-node algorithms (broadcast/cache_line, reduce/cache_line): each line
// holds kLinePayload bytes of a message and the message's sequence number, so a reader that sees
// the sequence number has that part of the data too (one cache-line transfer). Per sending PE
// (slot index below kBoxPeers) every PE holds two messages of kExchangeMsgLines lines for
// exchanges (reductions), kBcastLines single-line messages for broadcasts from that PE, and
// one line where that PE acknowledges this PE's broadcasts.
constexpr std::size_t kLineBytes = 64;
constexpr std::size_t kLinePayload = kLineBytes - sizeof(std::uint64_t);
constexpr int kExchangeMsgLines = 8;
constexpr int kExchangeLines = 2 * kExchangeMsgLines;
constexpr int kBcastLines = 8;
constexpr int kLinesPerPeer = kExchangeLines + kBcastLines + 1;
// Broadcasts on one node too large for a line: per sending PE a ring of kBcastLines entries in
// the reader's slot (used in step with the line ring: message seq takes entry seq % kBcastLines),
// each bcast_entry_bytes_for(world PEs) of data and then a line whose first word is the
// message's sequence number. Jobs share kBcastEntryArea among their PEs (4 KiB entries with 4
// PEs, 2 KiB with 8); above 64 PEs an entry would hold too little to matter and there are none.
constexpr std::size_t kBcastEntryArea = std::size_t{128} << 10;
constexpr std::size_t kBcastEntryMin = 256;
constexpr std::size_t bcast_entry_bytes_for(int world_pes) {
  const int senders = world_pes < 1 ? 1 : world_pes;
  const std::size_t bytes =
      kBcastEntryArea / static_cast<std::size_t>(senders) / kBcastLines / kLineBytes * kLineBytes;
  return bytes < kBcastEntryMin ? 0 : bytes;
}
// collect's records (collectives/dispatch.cpp): per team PE below kBoxPeers, its element count
// and, when it fits, its block, so that one fcollect of records gathers a small collect.
constexpr std::size_t kRecordBytes = 128;
constexpr std::size_t kRecordData = kRecordBytes - sizeof(std::uint64_t);
// The collective-mismatch check's part of a slot: two words on lines of their own, then the
// record.
constexpr std::size_t kCheckSequence = 0, kCheckAck = 8;  // indices of Slot::check
constexpr std::size_t kCheckRecordBytes = 128;
constexpr std::size_t kCheckBytes = 2 * kLineBytes + kCheckRecordBytes;

// A team's generation on its slot (Slot::generation) counts modulo 2^kGenerationBits: it
// fills the top bits of the words that other PEs' messages raise (cache_lines.hpp).
constexpr int kGenerationBits = 16;

struct Slot {
  Slot() = default;
  Slot(const Slot &) = delete;
  Slot &operator=(const Slot &) = delete;

  int index = -1;  // which slot of the area; -1: none (not a member)
  // The team's generation on the slot, the same on every member and different from that of
  // the slot's earlier teams on each (team_split.cpp); it names the team in the words other PEs
  // raise (acknowledgements, cache_lines.hpp), so a raise meant for an earlier team is dropped.
  std::uint64_t generation = 0;
  std::uint64_t *arrived = nullptr;   // [team PE i]: notifications team PE i has sent this PE
  std::uint64_t *granted = nullptr;   // [team PE i]: credits team PE i has granted this PE
  std::uint64_t *counts = nullptr;    // [team PE i]: collect's element count of team PE i
  std::uint64_t *masks = nullptr;     // kMaskWords: OR of members' slots in use (team splits)
  std::byte *boxes = nullptr;         // [sender][2] mailboxes of box_bytes
  int box_peers = 0;                  // senders with mailboxes (slot indices below this)
  std::size_t box_bytes = kBoxBytes;  // what a box holds (box_bytes_for the job's PEs)
  std::byte *lines = nullptr;         // [sender][kLinesPerPeer] lines of kLineBytes
  int line_peers = 0;                 // senders with lines (slot indices below this)
  std::byte *records = nullptr;       // [team PE i] collect's records of kRecordBytes
  int record_peers = 0;               // team PEs with records (those below this)
  // [sender][kBcastLines] broadcast entries of bcast_entry_bytes data and a line holding the
  // sequence number (cache_lines.hpp); none when bcast_entry_bytes is 0.
  std::byte *bcast_entries = nullptr;
  std::size_t bcast_entry_bytes = 0;
  std::byte *scratch = nullptr;  // symmetric scratch of the team
  std::size_t scratch_bytes = 0;
  // SHMEM_DEBUG's check that every PE entered the same collective (call_check.cpp): words
  // [kCheckSequence] (set by the team predecessor) and [kCheckAck] (raised by the successor,
  // a raised word of the team's generation like the acknowledgements of cache_lines.hpp), and
  // the record of the predecessor's call (kCheckRecordBytes).
  std::uint64_t *check = nullptr;
  std::byte *check_record = nullptr;
  std::uint64_t checks = 0;  // checked calls on this team so far (local)
  // The scratch of plug-in algorithms (plugins.hpp), their own: no built-in algorithm touches
  // it; none when SMA_COLL_PLUGINS is empty. plugin_calls counts the team's plug-in calls.
  std::byte *plugin_scratch = nullptr;
  std::size_t plugin_scratch_bytes = 0;
  std::uint64_t plugin_calls = 0;
  // This PE's side of every channel, one entry per team PE (local memory, never remote).
  std::vector<std::uint64_t> sent;        // notifications sent to team PE i
  std::vector<std::uint64_t> received;    // notifications of team PE i consumed here
  std::vector<std::uint64_t> grants_out;  // credits granted to team PE i
  std::vector<std::uint64_t> grants_in;   // credits of team PE i consumed here
  std::vector<std::uint64_t> boxes_out;   // mailbox messages sent to team PE i
  std::vector<std::uint64_t> boxes_in;    // mailbox messages of team PE i read here
  // Cache-line messages (indexed like the counters: by slot index).
  std::vector<std::uint64_t> exchanges;     // exchange lines sent to (= read from) slot index i
  std::vector<std::uint64_t> bcasts_out;    // broadcast lines sent to slot index i
  std::vector<std::uint64_t> bcasts_in;     // broadcast lines of slot index i read here
  std::vector<std::uint64_t> bcasts_acked;  // broadcast lines slot index i is known to have read

  // Sizes this PE's side for n entries, all zero (a fresh or recycled slot).
  void reset_local(std::size_t n) {
    for (auto *v : {&sent, &received, &grants_out, &grants_in, &boxes_out, &boxes_in, &exchanges,
                    &bcasts_out, &bcasts_in, &bcasts_acked})
      v->assign(n, 0);
    checks = 0;
    plugin_calls = 0;
  }
};

}  // namespace shoal::coll
