// Private receive buffers for store messages whose destination the receiver may still be using:
// the sender names a symmetric place of the receiver (a broadcast line, a mailbox), the
// receiving worker copies the data into the buffer this PE keeps for that place, then sets the
// message's word (release). A reader that acquires the word's new value finds the data in the
// place's buffer. The senders' protocol (a ring with acknowledgements, alternating mailboxes of
// an exchange) keeps a buffer from being written while its reader still copies out of it.
//
// Buffers are allocated on a place's first message, kStashMaxBytes each, and live until the
// runtime stops: only the places a protocol uses get one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace shoal::rma {

// The largest message a stash buffer holds.
inline constexpr std::size_t kStashMaxBytes = std::size_t{64} << 10;

class Stash {
 public:
  // The buffer of the place `key` (segment and offset, see store_message.cpp), created
  // if it has none; null only when memory is exhausted.
  std::byte *buffer_for(std::uint64_t key) noexcept;
  // The buffer of `key`, or null when no message for it arrived yet.
  const std::byte *find(std::uint64_t key) const noexcept;
  void clear() noexcept;

 private:
  mutable std::mutex mutex_;  // the receiving worker's thread inserts while the PE reads
  std::unordered_map<std::uint64_t, std::unique_ptr<std::byte[]>> buffers_;
};

}  // namespace shoal::rma
