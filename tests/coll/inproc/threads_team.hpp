// The threads backend of the collectives' channel (collectives/channel.hpp): N threads of one
// process play the N PEs of a team, so every algorithm runs without UCX, PMIx or a launcher.
//
// Each PE has a symmetric region of its own: the slot's counters, mailboxes and cache lines, the
// team's scratch and a small heap for the calls' dest and source. A symmetric address is an
// address in the calling PE's region; the same offset in another PE's region is that PE's
// object. Four modes:
//   * mapped: mapped() gives the peer's address, as on one node with shared memory; puts and
//     signals are stores into the peer's region;
//   * remote: mapped() is null for every peer, as across nodes, so the algorithms take their
//     put/notify/stash paths. Puts are held back until the next signal (of any peer), as UCX
//     may deliver them no sooner: an algorithm that reads data it was not notified of sees the
//     old contents;
//   * nodes: two nodes, team PEs placed on them round-robin (as mpirun places PEs on the hosts
//     of the namespace test bed): PEs of one node are mapped, the others remote;
//   * nodes3: the same on three nodes (algorithms that relay between nodes along a tree);
//   * nodes4: the same on four nodes (collect's counted exchange, whose leaders exchange by
//     recursive doubling over 4 nodes; not among every algorithm's modes).
// Every word a peer waits on is stored with release and loaded with acquire, so the data put
// before it is visible to the waiter. Waits yield (16 PEs on 2 cores) or, beside processes that
// compute, sleep on a futex (threads_team.cpp), and give up with a message naming the PE and the
// word after a few seconds, so a broken algorithm fails instead of hanging.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "collectives/channel.hpp"
#include "collectives/slot_state.hpp"

namespace shoal::coll::inproc {

enum class Mode { mapped, remote, nodes, nodes3, nodes4 };
const char *mode_name(Mode mode) noexcept;

class Team;

class ThreadsChannel final : public Channel {
 public:
  ThreadsChannel(Team &team, int rank, Slot &slot) noexcept;

  std::byte *mapped(const void *symmetric, int peer) const noexcept override;
  int memory_group(int peer) const noexcept override;
  // More PE threads than the machine has hardware threads (as the library counts PEs and CPUs).
  bool crowded() const noexcept override;
  void put(void *dest, const void *source, std::size_t bytes, int peer) noexcept override;
  void put_strided(void *dest, const void *source, std::ptrdiff_t dest_stride,
                   std::ptrdiff_t source_stride, std::size_t nelems, std::size_t elem_size,
                   int peer) noexcept override;
  void signal(std::uint64_t *word_here, std::uint64_t value, int peer, void *dest,
              const void *source, std::size_t bytes, bool stream = false) noexcept override;
  void signal_stashed(std::uint64_t *word_here, std::uint64_t value, int peer, const void *place,
                      const void *source, std::size_t bytes, bool stream = false) noexcept override;
  const std::byte *stashed(const void *place) const noexcept override;
  void wait(const std::uint64_t *word, std::uint64_t value) noexcept override;
  // To a remote peer as in the library: held back until the next signal to that peer, or
  // stored once `slack` past the last value stored.
  void acknowledge(std::uint64_t *word_here, std::uint64_t value, int peer,
                   std::uint64_t slack) noexcept override;

  // Puts still held back (remote mode): an algorithm that returns with some put data it never
  // signalled.
  std::size_t pending_puts() const noexcept { return pending_.size(); }

 private:
  // Makes the held-back puts visible (remote mode), as the runtime completes them before a
  // signal.
  void flush() noexcept;
  // Stores the acknowledgement held back for peer, if any (before a signal to it).
  void send_acknowledgement(int peer) noexcept;

  struct Pending {
    std::byte *at;  // in the peer's region
    std::vector<std::byte> data;
  };
  struct Acknowledgement {
    std::uint64_t *word = nullptr;  // in the peer's region; null: none held back
    std::uint64_t value = 0, sent = 0;
  };
  Team &team_;
  std::vector<Pending> pending_;
  std::vector<Acknowledgement> acknowledgements_;  // by peer
};

class Team {
 public:
  // n PEs, each with scratch_bytes of scratch and heap_bytes of heap, with mailboxes sized as
  // in a job of job_pes PEs (0: n; more PEs, smaller boxes).
  Team(int n, Mode mode, std::size_t scratch_bytes, std::size_t heap_bytes, int job_pes = 0);
  ~Team();
  Team(const Team &) = delete;
  Team &operator=(const Team &) = delete;

  int size() const noexcept { return n_; }
  Mode mode() const noexcept { return mode_; }
  // The node of PE pe (memory_group): PEs of one node map each other's regions.
  int node_of(int pe) const noexcept {
    switch (mode_) {
      case Mode::mapped:
        return 0;
      case Mode::remote:
        return pe;
      case Mode::nodes:
        return pe % 2;
      case Mode::nodes3:
        return pe % 3;
      case Mode::nodes4:
        return pe % 4;
    }
    return pe;
  }
  ThreadsChannel &channel(int pe) noexcept { return *channels_[static_cast<std::size_t>(pe)]; }
  // PE pe's heap: heap_bytes, the same offsets symmetric on every PE.
  std::byte *heap(int pe) const noexcept;
  std::size_t heap_bytes() const noexcept { return heap_bytes_; }

  // The address in `to`'s region of the symmetric address p of `from`'s region; aborts with a
  // message when p is not in from's region (an algorithm handed the backend a local address).
  std::byte *translate(const void *p, int from, int to) const noexcept;
  std::size_t offset(const void *p, int pe) const noexcept;

  // Runs body(pe) on one thread per PE and returns once all are done.
  void run(const std::function<void(int pe)> &body);

  // Each PE's stash buffers (signal_stashed), by offset of the place in the region.
  struct Stash {
    std::mutex mutex;
    std::unordered_map<std::size_t, std::vector<std::byte>> buffers;
  };
  Stash &stash(int pe) noexcept { return *stashes_[static_cast<std::size_t>(pe)]; }

 private:
  int n_;
  Mode mode_;
  std::size_t region_bytes_ = 0, heap_offset_ = 0, heap_bytes_;
  std::vector<std::byte *> regions_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<std::unique_ptr<ThreadsChannel>> channels_;
  std::vector<std::unique_ptr<Stash>> stashes_;
};

}  // namespace shoal::coll::inproc
