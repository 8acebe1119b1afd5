// A collect whose counts nobody knows yet, in one exchange, for small teams in which no PE maps
// another's memory (one PE per node): the messages carry the counts and, while they fit
// kCountedMessageMaxBytes, the blocks. Where every block came along, each PE copies them into
// its dest and the call is over; otherwise every PE now knows every count, and all of them go on
// with a collect whose counts are known (the same decision on every PE: each can tell from the
// counts which messages were too long).
//
// A power-of-two team exchanges by recursive doubling (log2 n rounds, each message carrying the
// counts and blocks its sender holds so far); any other sends each PE's one message to every
// other PE. The records of dispatch.cpp do the same in one fcollect of fixed 128-byte records,
// so blocks above 120 bytes took a second exchange: across two namespace hosts a 2-PE collect of
// 128 B took 17.8 us, two messages each way in a row (OSHMEM: 17.0).
//
// Each message goes into the stash buffer of the next mailbox to its peer (Channel::
// send_stashed): one message whatever its length, which the reader learns from the counts in
// front. The mailboxes' alternation needs no credit: every message to a peer is part of an
// exchange with it.
#pragma once

#include <cstddef>
#include <vector>

#include "collectives/channel.hpp"

namespace shoal::coll {

// The longest message: its counts and the blocks it carries. Above it the copies (into the
// message, out of the stash) cost more than the round trip they save (across two namespace
// hosts, 2 PEs: 131064-byte blocks 40 us where they took 52, 128 KiB ones 75 where they took 51).
inline constexpr std::size_t kCountedMessageMaxBytes = std::size_t{128} << 10;
// Teams of up to this many PEs. With 4 PEs on 4 namespace hosts (on 2 CPUs) a collect of 128 B
// to 32 KiB blocks took 0.5-0.7 of the time of the records and then node_leaders.
inline constexpr int kCountedMaxPes = 4;

class CountedExchange {
 public:
  // Whether the exchange serves collects on this team: every PE decides the same.
  static bool applies(const Channel &ch) noexcept;

  // Sends this PE's count (nelems elements of elem_size bytes) and block, receives every other
  // PE's: counts[p] for every team PE p. True when every block came along; then place()
  // finishes the call.
  bool exchange(Channel &ch, const void *source, std::size_t nelems, std::size_t elem_size,
                std::size_t *counts);
  // Copies every block into dest in team order.
  void place(void *dest, std::size_t elem_size, const std::size_t *counts) const noexcept;

 private:
  // The blocks of team PEs first .. first + pes - 1, one after the other at `at`.
  struct Run {
    int first = 0;
    int pes = 0;
    const std::byte *at = nullptr;
  };
  // Sends peer the counts of PEs first .. first + pes - 1 and, when `with_blocks`, their blocks.
  void send(Channel &ch, int peer, const Run &run, bool with_blocks, std::size_t elem_size,
            const std::size_t *counts);
  // Takes the next message from peer, which holds pes PEs from `first` on: their counts into
  // counts, and the run of their blocks; null `at` when the blocks did not come along.
  Run receive(Channel &ch, int peer, int first, int pes, std::size_t *counts);
  void exchange_doubling(Channel &ch, const Run &own, std::size_t elem_size, std::size_t *counts);
  void exchange_direct(Channel &ch, const Run &own, std::size_t elem_size, std::size_t *counts);

  std::vector<Run> runs_;  // what place() copies
  std::vector<std::byte> message_, held_, merged_;
};

}  // namespace shoal::coll
