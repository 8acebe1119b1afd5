// The point-to-point layer every collective algorithm is built on: ordered notifications and
// flow-control credits between the PEs of one team, plus puts into symmetric memory.
//
// Between every ordered pair of team PEs there are two monotonic counters in the receiver's
// symmetric slot, each written only by the sender:
//   * notifications: send()/notify() bump it after the data put before it is visible, and
//     await(peer) consumes the next one;
//   * credits: grant(peer) tells peer it may write into this PE's buffers (dest or scratch) for
//     the next step, and await_grant(peer) consumes one.
// Both sides count locally, so a counter never needs resetting and back-to-back collectives
// (even with different algorithms) cannot confuse each other as long as every PE runs the same
// algorithm for a call -- which the registry guarantees.
//
// The rule that keeps buffer reuse safe: write into a peer's dest or scratch only after a credit
// from that peer for this step; the peer grants it once it no longer needs the old contents
// (at the latest, on entry to the call, after the previous call has returned).
#pragma once

#include <cstddef>
#include <cstdint>

#include "collectives/algorithm.hpp"

struct shoal_team;

namespace shoal::coll {

struct Slot;

class Channel {
 public:
  Channel(shoal_team &team, const char *routine) noexcept;

  int rank() const noexcept { return rank_; }  // this PE's team PE number
  int size() const noexcept { return size_; }  // team PEs
  int world_pe(int team_pe) const noexcept;
  const char *routine() const noexcept { return routine_; }

  // Symmetric scratch of this team: same address on every member, scratch_bytes() long.
  std::byte *scratch() const noexcept;
  std::size_t scratch_bytes() const noexcept;

  // Where the symmetric object `symmetric` (heap or globals) of team PE `peer` is mapped in
  // this process (loads and stores reach that PE's memory), or null when it is not: the peer
  // is on another node, shared memory is off, or the address is not in mapped memory.
  std::byte *mapped(const void *symmetric, int peer) const noexcept;

  // The team's slot and the index of team PE `pe` in its per-PE arrays, for on-node algorithms
  // that keep their own state there (broadcast/cache_line, reduce/cache_line).
  Slot &slot() const noexcept;
  int slot_index(int pe) const noexcept;

  // Copies bytes from local memory to the symmetric address `dest` of team PE `peer` (or, for
  // peer == rank(), locally). Complete at the source on return; visible at the peer after the
  // next notify(peer).
  void put(void *dest, const void *source, std::size_t bytes, int peer) noexcept;
  // The strided form: nelems elements of elem_size bytes, consecutive elements dest_stride and
  // source_stride elements apart (both >= 1).
  void put_strided(void *dest, const void *source, std::ptrdiff_t dest_stride,
                   std::ptrdiff_t source_stride, std::size_t nelems, std::size_t elem_size,
                   int peer) noexcept;
  // Makes every put so far to peer visible there, then bumps peer's notification counter.
  // When the data that went through UCX since the last notify went to peer alone, the
  // endpoint fence before the counter orders it (one message, no round trip); otherwise the
  // data is completed first (a quiet).
  void notify(int peer) noexcept;
  // put + notify; across nodes, up to rma::kStoreMessageMaxBytes of data and the counter go
  // in one message.
  void send(void *dest, const void *source, std::size_t bytes, int peer) noexcept;
  // Waits for the next notification from peer; the data put before it is then visible here.
  void await(int peer) noexcept;

  // Mailboxes for small messages of exchanges (kBoxBytes): every PE has two boxes per sender and
  // a sender uses them in alternation, so no credit is needed as long as each message to a peer
  // is part of an exchange -- the sender awaits a message from that peer before its next one.
  // has_mailboxes(): whether every PE of the team has boxes here (large jobs have them only
  // for the first kBoxPeers PEs).
  bool has_mailboxes() const noexcept;
  // Where on `peer` (a symmetric address) the next message to it goes.
  std::byte *next_outbox(int peer) noexcept;
  // This PE's box holding the next message from `peer` (after await(peer)).
  const std::byte *next_inbox(int peer) noexcept;

  // Flow control, see above.
  void grant(int peer) noexcept;
  void await_grant(int peer) noexcept;

  // The general form of send(): copies `bytes` from source (possibly none) to the symmetric
  // address dest of peer, then sets the 64-bit symmetric word at word_here there to value
  // with release order, after everything put to peer before is visible there. Across nodes,
  // data up to rma::kStoreMessageMaxBytes and the word travel in one message.
  // `stream`: see rma::put_then_store (the cache_line broadcast's lines and acks).
  void signal(std::uint64_t *word_here, std::uint64_t value, int peer, void *dest,
              const void *source, std::size_t bytes, bool stream = false) noexcept;
  // The same with the data (at most rma::kStashMaxBytes) going into peer's stash buffer of
  // the symmetric address `place` instead of to `place` (rma/stash.hpp): always one message
  // through UCX, mapped peer or not. The reader finds the data at stashed(place) once it has
  // acquired `value`; the caller's protocol keeps the sender from writing a buffer again
  // before its reader is done with it.
  void signal_stashed(std::uint64_t *word_here, std::uint64_t value, int peer, const void *place,
                      const void *source, std::size_t bytes, bool stream = false) noexcept;
  const std::byte *stashed(const void *place) const noexcept;
  // send() with the data into the stash buffer of `place` (a mailbox of an exchange).
  void send_stashed(const void *place, const void *source, std::size_t bytes, int peer) noexcept;

 private:
  void wait_counter(const std::uint64_t *counter, std::uint64_t value) noexcept;
  // Completes what went to UCX before a message to peer when the message alone cannot order
  // it (see signal()).
  void order_before_message(int peer, bool counter_mapped, bool stream) noexcept;

  // Which team PE the puts handed to UCX since the last notify went to: kNoUcxData, one PE,
  // or kUcxDataToSeveral.
  static constexpr int kNoUcxData = -1, kUcxDataToSeveral = -2;
  void note_ucx_data(int peer) noexcept {
    ucx_data_to_ = ucx_data_to_ == kNoUcxData || ucx_data_to_ == peer ? peer : kUcxDataToSeveral;
  }

  shoal_team &team_;
  const char *routine_;
  int rank_, size_;
  int ucx_data_to_ = kNoUcxData;
};

}  // namespace shoal::coll
