// A collect whose counts nobody knows yet, in one exchange between nodes, for teams spread over
// a few nodes: the messages carry the counts and, while they fit kCountedMessageMaxBytes, the
// blocks. Where every block came along, each PE's dest gets them all and the call is over;
// otherwise every PE now knows every count, and all of them go on with a collect whose counts
// are known (the same decision on every PE, see the end).
//
// Only one PE per node crosses the network, its node's leader (collectives/leaders.hpp):
//   1. each other PE of a node copies its block to the start of its dest, where the leader
//      loads it, and tells the leader its count in a mailbox (stores on the node);
//   2. the leaders exchange their nodes' counts and blocks: by recursive doubling where the
//      nodes are a power of two (log2 nodes rounds, each message carrying every node the sender
//      holds so far), otherwise one message from each leader to every other;
//   3. each leader places every block in its dest, copies that into the dest of its node's
//      other PEs and tells them so in a mailbox (stores again); where some block stayed
//      behind, it tells them every count instead, in a second message (into the stash buffer
//      where the counts outgrow a mailbox: teams of more than 16 PEs in jobs of 256 PEs or more).
// With one PE per node the leaders' exchange is all there is.
//
// The records of dispatch.cpp do the same in one fcollect of fixed 128-byte records, so blocks
// above 120 bytes took a second exchange: across two namespace hosts a 2-PE collect of 128 B
// took 17.8 us, two messages each way in a row (OSHMEM: 17.0); with 2 PEs on each host, 1 KiB
// took 39 us where this takes 17 (medians of 12 jobs; OSHMEM 64-82).
//
// A leaders' message has its blocks in node order, each node's in team order (with PEs placed
// round-robin over nodes, team order would interleave the nodes), behind a flag and their PEs'
// counts in the same order. It goes into the stash buffer of the next mailbox to its peer
// (Channel::send_stashed): one message whatever its length, which the reader learns from the
// counts in front. On a node everything is a load or a store: a stashed message is one through
// UCX, which the reader's worker must get to (4 PEs on 2 hosts, 8 B: 26 us where the records
// took 13). The mailboxes' alternation needs no credit: every message to a peer is part of an
// exchange with it (a PE's count to its leader is answered by the leader's message back). The
// count also tells the leader the PE has entered the call, so its dest is free to write.
//
// Every leader tells alike whether the blocks all came: each message says whether it carries
// its blocks, a run of the doubling carries them only if every run merged into it did, and each
// leader's last messages hold every node's. Its node's PEs learn it from the leader.
#pragma once

#include <cstddef>
#include <vector>

#include "collectives/channel.hpp"
#include "collectives/leaders.hpp"

namespace shoal::coll {

// The longest message: its counts and the blocks it carries. Above it the copies (into the
// message, out of the stash) cost more than the round trip they save (across two namespace
// hosts, 2 PEs: 131064-byte blocks 40 us where they took 52, 128 KiB ones 75 where they took 51).
inline constexpr std::size_t kCountedMessageMaxBytes = std::size_t{128} << 10;
class CountedExchange {
 public:
  // Whether the exchange serves collects on this team (every PE decides the same): teams of up
  // to kLeadersMaxPes PEs, with mailboxes, on 2 or more nodes. One PE on each of 4, 6, 8 and
  // 16 namespace hosts (on 2 CPUs), a collect of 128 B to 32 KiB blocks took 0.4-0.7 of the
  // time of the records and then node_leaders (16 hosts, 1 KiB: 616 us against 1261; OSHMEM
  // 1108); 8 B, which the records carry, the same.
  static bool applies(const Channel &ch) noexcept;

  explicit CountedExchange(const Channel &ch);

  // Sends this PE's count (nelems elements of elem_size bytes) and block. True when every block
  // came along: then total() is the elements of every block, and place() finishes the call,
  // which on a PE that is not its node's leader has nothing left to do (its leader filled its
  // dest before this returned; counts holds only this PE's). False: counts[p] is the count of
  // every team PE p.
  bool exchange(Channel &ch, void *dest, const void *source, std::size_t nelems,
                std::size_t elem_size, std::size_t *counts);
  std::size_t total() const noexcept { return total_; }
  // After exchange() returned true: copies every block into dest in team order; a leader then
  // fills its node's other PEs' dest and lets them return from exchange().
  void place(Channel &ch, void *dest, std::size_t elem_size, const std::size_t *counts);

 private:
  // The blocks of nodes first .. first + nodes - 1, one after the other at `at`, where they
  // came along.
  struct Run {
    int first = 0;
    int nodes = 0;
    const std::byte *at = nullptr;
    bool came = false;
  };
  // The bytes of the blocks of nodes first .. first + nodes - 1; the largest size_t on overflow.
  std::size_t run_bytes(const std::size_t *counts, int first, int nodes,
                        std::size_t elem_size) const noexcept;
  // The bytes a message has for blocks, beside the flag and every PE's count.
  std::size_t room() const noexcept;
  // Whether node's blocks travel between the leaders (where each of its PEs' came).
  bool carries(const std::size_t *counts, int node, std::size_t elem_size) const noexcept;
  // Whether a member of `node` hands its block of `count` elements to the leader.
  bool member_sends(std::size_t count, std::size_t elem_size, int node) const noexcept;

  // Sends peer the counts of the PEs of a run's nodes and, when it has them, their blocks.
  void send(Channel &ch, int peer, const Run &run, std::size_t elem_size,
            const std::size_t *counts);
  // Takes the next message from peer, which holds the nodes first .. first + nodes - 1: their
  // PEs' counts into counts, and the run of their blocks.
  Run receive(Channel &ch, int peer, int first, int nodes, std::size_t *counts);
  // Step 1 at a leader: this node's run (its members' blocks copied after the leader's own),
  // without blocks where they do not fit or some member's did not come.
  Run gather_node(Channel &ch, void *dest, const void *source, std::size_t elem_size,
                  std::size_t *counts);
  void exchange_doubling(Channel &ch, const Run &own, std::size_t elem_size, std::size_t *counts);
  void exchange_direct(Channel &ch, const Run &own, std::size_t elem_size, std::size_t *counts);
  // Step 3 at a leader: tells each other PE of the node that it is done and the total, or else
  // every count.
  void answer_members(Channel &ch, bool complete, const std::size_t *counts);

  Leaders leaders_;
  int node_ = 0;                 // this PE's node (its leader's index)
  int longest_ = 1;              // nodes in the exchange's longest messages
  std::vector<int> order_;       // team PEs by node, each node's in team order
  std::vector<int> node_start_;  // by node: where its PEs begin in order_ (one past the last too)
  std::vector<Run> runs_;        // what place() copies
  std::size_t total_ = 0;        // elements of every block, after a complete exchange()
  std::vector<std::byte> message_, held_, merged_;
};

}  // namespace shoal::coll
