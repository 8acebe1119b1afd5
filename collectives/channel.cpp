// The channel protocol (notifications, credits, mailboxes), the same for every backend: each is
// a counter in the receiver's slot bumped by Channel::signal and awaited with Channel::wait.
#include "collectives/channel.hpp"

#include <atomic>

#include "collectives/slot_state.hpp"

namespace shoal::coll {

std::byte *Channel::scratch() const noexcept { return slot_.scratch; }
std::size_t Channel::scratch_bytes() const noexcept { return slot_.scratch_bytes; }

void Channel::send(void *dest, const void *source, std::size_t bytes, int peer) noexcept {
  const int to = slot_index(peer);
  signal(&slot_.arrived[slot_index(rank_)], ++slot_.sent[static_cast<std::size_t>(to)], peer, dest,
         source, bytes);
}

void Channel::send_stashed(const void *place, const void *source, std::size_t bytes,
                           int peer) noexcept {
  const int to = slot_index(peer);
  signal_stashed(&slot_.arrived[slot_index(rank_)], ++slot_.sent[static_cast<std::size_t>(to)],
                 peer, place, source, bytes);
}

void Channel::await(int peer) noexcept {
  const auto from = static_cast<std::size_t>(slot_index(peer));
  wait(&slot_.arrived[from], ++slot_.received[from]);
}

bool Channel::arrived(int peer) const noexcept {
  const auto from = static_cast<std::size_t>(slot_index(peer));
  return __atomic_load_n(&slot_.arrived[from], __ATOMIC_ACQUIRE) > slot_.received[from];
}

bool Channel::has_mailboxes() const noexcept {
  for (int pe = 0; pe < size_; ++pe)
    if (slot_index(pe) >= slot_.box_peers) return false;
  return true;
}

std::size_t Channel::box_bytes() const noexcept { return slot_.box_bytes; }

std::byte *Channel::next_outbox(int peer) noexcept {
  const std::uint64_t parity = slot_.boxes_out[static_cast<std::size_t>(slot_index(peer))]++ & 1;
  const auto mine = static_cast<std::size_t>(slot_index(rank_));
  return slot_.boxes + (mine * 2 + parity) * slot_.box_bytes;
}

const std::byte *Channel::next_inbox(int peer) noexcept {
  const auto from = static_cast<std::size_t>(slot_index(peer));
  const std::uint64_t parity = slot_.boxes_in[from]++ & 1;
  return slot_.boxes + (from * 2 + parity) * slot_.box_bytes;
}

void Channel::grant(int peer) noexcept {
  // Our reads of the buffer being released are done: they happened before this store.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  const int to = slot_index(peer);
  signal(&slot_.granted[slot_index(rank_)], ++slot_.grants_out[static_cast<std::size_t>(to)], peer,
         nullptr, nullptr, 0);
}

void Channel::await_grant(int peer) noexcept {
  const auto from = static_cast<std::size_t>(slot_index(peer));
  wait(&slot_.granted[from], ++slot_.grants_in[from]);
}

}  // namespace shoal::coll
