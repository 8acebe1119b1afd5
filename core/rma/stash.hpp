// Private receive buffers for store messages whose destination the receiver may still be using:
// the sender names a symmetric place of the receiver (a broadcast line, a mailbox), the
// receiving worker copies the data into the buffer this PE keeps for that place, then sets the
// message's word (release). A reader that acquires the word's new value finds the data in the
// place's buffer. The senders' protocol (a ring with acknowledgements, alternating mailboxes of
// an exchange) keeps a buffer from being written while its reader still copies out of it.
//
// Buffers are allocated on a place's first message, at least kStashFirstBytes, grown to the next
// power of two when a longer message comes for the place (the protocol that keeps a buffer from
// being written while its reader copies out of it keeps it from being moved then too), and live
// until the runtime stops: only the places a protocol uses get one, as large as it needs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace shoal::rma {

// The largest message a stash buffer holds.
inline constexpr std::size_t kStashMaxBytes = std::size_t{1} << 20;
// The size of a place's buffer at its first message, unless that is longer.
inline constexpr std::size_t kStashFirstBytes = std::size_t{64} << 10;

class Stash {
 public:
  // The buffer of the place `key` (segment and offset, see store_message.cpp) for a message of
  // `bytes` (at most kStashMaxBytes), created or grown as needed; null only when memory is
  // exhausted.
  std::byte *buffer_for(std::uint64_t key, std::size_t bytes) noexcept;
  // The buffer of `key`, or null when no message for it arrived yet.
  const std::byte *find(std::uint64_t key) const noexcept;
  void clear() noexcept;

 private:
  mutable std::mutex mutex_;  // the receiving worker's thread inserts while the PE reads
  struct Buffer {
    std::unique_ptr<std::byte[]> data;
    std::size_t bytes = 0;
  };
  std::unordered_map<std::uint64_t, Buffer> buffers_;
};

}  // namespace shoal::rma
