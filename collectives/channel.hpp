// The point-to-point layer every collective algorithm is built on: ordered notifications and
// flow-control credits between the PEs of one team, plus puts into symmetric memory.
//
// Channel is what an algorithm sees, and all it sees: the team's view (rank, size, the slot),
// a handful of transfer primitives that a backend implements (put, strided put, a word written
// after the data before it, waiting for a word, which peers are mapped), and the protocol built
// on them here, once for every backend (notifications, credits, mailboxes). The library's
// backend moves data through shared memory and UCX (runtime_channel.hpp); the in-process tests
// have one where threads play the PEs (tests/coll/inproc/). Algorithms include no runtime,
// transport or RMA header.
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

namespace shoal::coll {

struct Slot;

// The largest message signal_stashed() carries (the backends' stash buffers grow to hold this
// much, a place's buffer as large as the longest message it received).
inline constexpr std::size_t kStashMaxBytes = std::size_t{1} << 20;

class Channel {
 public:
  Channel(const Channel &) = delete;
  Channel &operator=(const Channel &) = delete;

  int rank() const noexcept { return rank_; }  // this PE's team PE number
  int size() const noexcept { return size_; }  // team PEs

  // Symmetric scratch of this team: same address on every member, scratch_bytes() long.
  std::byte *scratch() const noexcept;
  std::size_t scratch_bytes() const noexcept;

  // The team's slot and the index of team PE `pe` in its per-PE arrays, for on-node algorithms
  // that keep their own state there (broadcast/cache_line, reduce/cache_line).
  Slot &slot() const noexcept { return slot_; }
  int slot_index(int pe) const noexcept {
    return slot_indices_ == nullptr ? pe : slot_indices_[pe];
  }

  // ---- what a backend implements --------------------------------------------------------------

  // Where the symmetric object `symmetric` (heap or globals) of team PE `peer` is mapped in
  // this process (loads and stores reach that PE's memory), or null when it is not: the peer
  // is on another node, shared memory is off, or the address is not in mapped memory.
  virtual std::byte *mapped(const void *symmetric, int peer) const noexcept = 0;
  // The memory group of team PE `peer`: PEs of one group map each other's heaps (the PEs of a
  // node, with shared memory; otherwise each PE is a group of its own). Every PE of the team
  // sees the same groups, so algorithms may plan around them (broadcast/cache_line serves a
  // node through one of its PEs).
  virtual int memory_group(int peer) const noexcept = 0;
  // Whether the team's PEs take turns on fewer CPUs than there are PEs on their machine (the
  // same answer on every PE of a memory group): a wait then often waits for a PE that is off
  // its CPU, and a chain of waits costs more than one (barrier/node_leaders on one node).
  virtual bool crowded() const noexcept = 0;

  // Copies bytes from local memory to the symmetric address `dest` of team PE `peer` (or, for
  // peer == rank(), locally). Complete at the source on return; visible at the peer after the
  // next notify(peer).
  virtual void put(void *dest, const void *source, std::size_t bytes, int peer) noexcept = 0;
  // The strided form: nelems elements of elem_size bytes, consecutive elements dest_stride and
  // source_stride elements apart (both >= 1).
  virtual void put_strided(void *dest, const void *source, std::ptrdiff_t dest_stride,
                           std::ptrdiff_t source_stride, std::size_t nelems, std::size_t elem_size,
                           int peer) noexcept = 0;

  // Copies `bytes` from source (possibly none) to the symmetric address dest of peer, then
  // sets the 64-bit symmetric word at word_here there to value with release order, after
  // everything put before (to peer or to any other PE) is visible. Across nodes, small data
  // and the word travel in one message. `stream`: the word is one of a stream of messages to
  // peer that need no ordering with other traffic (the cache_line broadcast's lines and acks).
  virtual void signal(std::uint64_t *word_here, std::uint64_t value, int peer, void *dest,
                      const void *source, std::size_t bytes, bool stream = false) noexcept = 0;
  // The same with the data (at most kStashMaxBytes) going into peer's stash buffer of the
  // symmetric address `place` instead of to `place`: always one message, mapped peer or not.
  // The reader finds the data at stashed(place) once it has acquired `value`; the caller's
  // protocol keeps the sender from writing a buffer again before its reader is done with it.
  virtual void signal_stashed(std::uint64_t *word_here, std::uint64_t value, int peer,
                              const void *place, const void *source, std::size_t bytes,
                              bool stream = false) noexcept = 0;
  virtual const std::byte *stashed(const void *place) const noexcept = 0;

  // Tells peer, not necessarily now, that this PE got as far as `value`: raises peer's
  // symmetric 64-bit word at word_here to value, a raised word's value (rma/raised_word.hpp:
  // its top bits name the team's generation, and peer's word takes it only while it names the
  // same one; a generation's values for a word only grow). The raise rides in the next message
  // this PE sends peer (any team, any collective) and goes alone only once it is `slack` or
  // more past the value last sent. So after the call peer has been sent at least
  // value - slack + 1, and it sees what was sent in time -- for acknowledgements that a peer on
  // another node needs only a few messages later (broadcast/cache_line), which then cost no
  // message of their own where traffic goes back. (A peer on the node is better told with a
  // store into this PE's own memory, which it loads.)
  virtual void acknowledge(std::uint64_t *word_here, std::uint64_t value, int peer,
                           std::uint64_t slack) noexcept = 0;

  // Waits until the symmetric word at `word` (this PE's) is at least value, with acquire order;
  // waiters leave the core to the PEs they wait for when PEs outnumber cores.
  virtual void wait(const std::uint64_t *word, std::uint64_t value) noexcept = 0;

  // ---- the protocol, on the primitives above (channel.cpp) ------------------------------------

  // Makes every put so far to peer visible there, then bumps peer's notification counter.
  void notify(int peer) noexcept { send(nullptr, nullptr, 0, peer); }
  // put + notify; across nodes, small data and the counter go in one message.
  void send(void *dest, const void *source, std::size_t bytes, int peer) noexcept;
  // Waits for the next notification from peer; the data put before it is then visible here.
  void await(int peer) noexcept;
  // Whether the next notification from peer has arrived, without consuming it or progressing
  // anything: for algorithms on one node, whose notifications are stores (then await(peer)
  // returns at once).
  bool arrived(int peer) const noexcept;

  // Mailboxes for small messages of exchanges (box_bytes(), at least kBoxBytes): every PE has
  // two boxes per sender and a sender uses them in alternation, so no credit is needed as long
  // as each message to a peer is part of an exchange -- the sender awaits a message from that
  // peer before its next one. has_mailboxes(): whether every PE of the team has boxes here
  // (large jobs have them only for the first kBoxPeers PEs).
  bool has_mailboxes() const noexcept;
  std::size_t box_bytes() const noexcept;
  // Where on `peer` (a symmetric address) the next message to it goes.
  std::byte *next_outbox(int peer) noexcept;
  // This PE's box holding the next message from `peer` (after await(peer)).
  const std::byte *next_inbox(int peer) noexcept;

  // Flow control, see above.
  void grant(int peer) noexcept;
  void await_grant(int peer) noexcept;

  // send() with the data into the stash buffer of `place` (a mailbox of an exchange).
  void send_stashed(const void *place, const void *source, std::size_t bytes, int peer) noexcept;

 protected:
  // The team's view: this PE's team PE number, the team's size, its slot (bound, counters
  // sized for the team) and the slot index of every team PE (null: the team PE number itself).
  Channel(int rank, int size, Slot &slot, const int *slot_indices) noexcept
      : rank_(rank), size_(size), slot_(slot), slot_indices_(slot_indices) {}
  ~Channel() = default;

 private:
  int rank_, size_;
  Slot &slot_;
  const int *slot_indices_;
};

}  // namespace shoal::coll
