// Raises of a 64-bit word at another PE that need not travel at once: a broadcast reader's
// acknowledgements, which its writer needs only a few messages later. Each waits for the next
// store message this PE sends to that PE and rides in it (no message, no system call of its
// own); one goes alone only once it is `slack` or more past the value last sent for its word.
// The receiver keeps the maximum of what arrives for such a word's user (raised_word.hpp), so
// a raise that rides on another connection may overtake an earlier one harmlessly.
//
// Bookkeeping only; store_message.cpp sends. Thread-safe: several threads may send store
// messages (collectives on different teams under SHMEM_THREAD_MULTIPLE).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>

namespace shoal::rma {

class PendingRaises {
 public:
  struct Raise {
    int pe;
    std::uint64_t *word;  // symmetric address
    std::uint64_t value;
  };
  // Words tracked at once; a further one is raised at once, in a message of its own.
  static constexpr std::size_t kWords = 8;

  // Notes that `word` of pe must reach at least `value` (raised_word.hpp: larger than any value
  // noted for the word's user before; a value for another user starts the count again). Returns
  // the raise when it must go now, in a message of its own: `value` is `slack` or more past the
  // last one sent for the word and user, or the word finds no room.
  std::optional<Raise> note(std::uint64_t *word, std::uint64_t value, int pe,
                            std::uint64_t slack) noexcept;
  // The raise waiting for pe, if any, now counted as sent: it rides in the message about to
  // go there. Costs one atomic load while nothing waits.
  std::optional<Raise> take(int pe) noexcept;
  // Forgets the words in [begin, begin + bytes): the memory was given back (a team's slot), and
  // a late raise would move a word of its next user.
  void forget(const void *begin, std::size_t bytes) noexcept;
  void clear() noexcept;

 private:
  struct Entry {
    int pe = -1;  // -1: free
    std::uint64_t *word = nullptr;
    std::uint64_t value = 0, sent = 0;
    bool waiting() const noexcept { return value > sent; }
  };
  std::mutex mutex_;
  std::array<Entry, kWords> entries_{};
  std::atomic<int> waiting_{0};  // entries with a raise not yet sent
};

// This PE's raises (cleared when the runtime stops).
PendingRaises &pending_raises() noexcept;

// Drops this PE's raises not yet sent for words in [begin, begin + bytes): that memory is given
// back (a team's slot), and a late raise would move a word of its next user.
inline void forget_raises(const void *begin, std::size_t bytes) noexcept {
  pending_raises().forget(begin, bytes);
}

}  // namespace shoal::rma
