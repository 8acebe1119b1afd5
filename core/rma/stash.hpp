// Private receive buffers for store messages whose data has no symmetric destination yet: the
// sender names a 64-bit symmetric word of the receiver, the receiving worker copies the data
// into the buffer this PE keeps for that word, then sets the word (release). A reader that
// acquires the word's new value finds the data in buffer(word). The senders' protocol (a ring
// with acknowledgements, as the broadcast's lines) keeps a buffer from being written while its
// reader still copies out of it.
//
// Buffers are allocated on a word's first message, kStashMaxBytes each, and live until the
// runtime stops: only the words a protocol uses get one.
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
  // The buffer of the word at `key` (segment and offset, see store_message.cpp), created
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
