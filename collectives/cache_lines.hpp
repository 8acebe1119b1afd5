// Cache-line messages of the on-node algorithms (broadcast/cache_line, reduce/cache_line): a
// message of up to kLinePayload bytes and its sequence number share one 64-byte line of the
// receiver's slot, so the load that sees the sequence number brings the data along -- one
// cache-line transfer per message. The writer stores the data, then the sequence number with
// release; the reader acquires the sequence number, then reads the data.
//
// The lines of the slot on a PE, per sender (slot index, see Slot::lines):
//   [0, kExchangeLines)                 exchanges (reductions): two messages of
//                                       kExchangeMsgLines lines used in alternation, so they
//                                       need no credit while every message is answered;
//   [kExchangeLines, + kBcastLines)     broadcasts from that sender, a ring of one-line messages;
//   kAck                                acknowledgements of broadcasts between the two (how
//                                       many the reader has read): on the node, this PE's of
//                                       that PE's, stored here by this PE and loaded by that
//                                       one, so none can land after this PE gave the slot to
//                                       another team; across nodes, that PE's of this PE's,
//                                       raised here by its messages. The word names the
//                                       team's generation on the slot in its top bits (the
//                                       runtime's raised words, rma/raised_word.hpp), so a
//                                       raise that arrives after the slot changed teams is
//                                       dropped; acknowledgements on the node carry it too.
// Every line of a message carries the message's sequence number.
// Sequence numbers count per pair of PEs (by slot index, like the channels' counters), so the
// active sets sharing one slot use them consistently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "collectives/channel.hpp"
#include "collectives/slot_state.hpp"

namespace shoal::coll::lines {

constexpr int kAck = kExchangeLines + kBcastLines;

// Line `which` of sender (slot index) `from` in this PE's copy of the slot.
inline std::byte *local(const Slot &s, int from, int which) noexcept {
  return s.lines +
         (static_cast<std::size_t>(from) * kLinesPerPeer + static_cast<std::size_t>(which)) *
             kLineBytes;
}
// The first line of the exchange message `seq` from `from`.
inline std::byte *exchange(const Slot &s, int from, std::uint64_t seq) noexcept {
  return local(s, from, static_cast<int>(seq % 2) * kExchangeMsgLines);
}
inline std::byte *bcast(const Slot &s, int from, std::uint64_t seq) noexcept {
  return local(s, from, kExchangeLines + static_cast<int>(seq % kBcastLines));
}
// The entry of broadcast `seq` from `from` that does not fit a line (slot_state.hpp): its data,
// and the word after the data where its sequence number goes.
inline std::byte *bcast_entry(const Slot &s, int from, std::uint64_t seq) noexcept {
  const std::size_t stride = s.bcast_entry_bytes + kLineBytes;
  return s.bcast_entries +
         (static_cast<std::size_t>(from) * kBcastLines + seq % kBcastLines) * stride;
}
inline std::uint64_t *entry_seq(const Slot &s, std::byte *entry) noexcept {
  return reinterpret_cast<std::uint64_t *>(entry + s.bcast_entry_bytes);
}
inline const std::uint64_t *entry_seq(const Slot &s, const std::byte *entry) noexcept {
  return reinterpret_cast<const std::uint64_t *>(entry + s.bcast_entry_bytes);
}

inline std::uint64_t *seq_of(std::byte *line) noexcept {
  return reinterpret_cast<std::uint64_t *>(line + kLinePayload);
}
inline const std::uint64_t *seq_of(const std::byte *line) noexcept {
  return reinterpret_cast<const std::uint64_t *>(line + kLinePayload);
}

// The acknowledgement word between this PE and slot index `other` (kAck), in this PE's copy.
inline std::uint64_t *ack_word(const Slot &s, int other) noexcept {
  return seq_of(local(s, other, kAck));
}
// The word's value for `count` broadcasts read, in the slot's team: its generation above
// kAckCountBits, the count below.
constexpr int kAckCountBits = 64 - kGenerationBits;
constexpr std::uint64_t kAckCountMask = (std::uint64_t{1} << kAckCountBits) - 1;
inline std::uint64_t ack_value(const Slot &s, std::uint64_t count) noexcept {
  return s.generation << kAckCountBits | (count & kAckCountMask);
}
inline std::uint64_t ack_count(std::uint64_t value) noexcept { return value & kAckCountMask; }

// Whether every PE of the team has lines in the slot (the same answer on every PE).
inline bool available(const Channel &ch) noexcept {
  const Slot &s = ch.slot();
  if (s.lines == nullptr) return false;
  for (int pe = 0; pe < ch.size(); ++pe)
    if (ch.slot_index(pe) >= s.line_peers) return false;
  return true;
}

// Stores a message into `line` (mapped here, usually another PE's).
inline void write(std::byte *line, const void *data, std::size_t bytes,
                  std::uint64_t seq) noexcept {
  std::memcpy(line, data, bytes);
  __atomic_store_n(seq_of(line), seq, __ATOMIC_RELEASE);
}

inline std::uint64_t load(const std::uint64_t *word) noexcept {
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

// Waits until *word >= value with the channel's wait (in the library: a short spin on the line
// alone, then UCX progress, yields and naps), so waiters leave the core to the PE they wait for
// when PEs outnumber cores.
inline void wait_for(Channel &ch, const std::uint64_t *word, std::uint64_t value) noexcept {
  ch.wait(word, value);
}

}  // namespace shoal::coll::lines
