#include "collectives/channel.hpp"

#include <spdlog/fmt/fmt.h>

#include <atomic>
#include <cstring>

#include "collectives/slot.hpp"
#include "ctx/context.hpp"
#include "rma/rma.hpp"
#include "rma/store_message.hpp"
#include "runtime.hpp"
#include "team/team.hpp"
#include "wait.hpp"

namespace shoal::coll {

Channel::Channel(shoal_team &team, const char *routine) noexcept
    : team_(team), routine_(routine), rank_(team.my_pe), size_(team.n_pes) {}

int Channel::world_pe(int team_pe) const noexcept { return team_.world_pe(team_pe); }

std::byte *Channel::scratch() const noexcept { return channel_slot(team_).scratch; }
std::size_t Channel::scratch_bytes() const noexcept { return channel_slot(team_).scratch_bytes; }

Slot &Channel::slot() const noexcept { return channel_slot(team_); }
int Channel::slot_index(int pe) const noexcept { return coll::slot_index(team_, pe); }

std::byte *Channel::mapped(const void *symmetric, int peer) const noexcept {
  return rma::mapped_memory(&shoal_ctx_default, symmetric, 0, world_pe(peer));
}

void Channel::put(void *dest, const void *source, std::size_t bytes, int peer) noexcept {
  if (bytes == 0) return;
  if (peer == rank_) {
    if (dest != source) std::memmove(dest, source, bytes);
    return;
  }
  if (mapped(dest, peer) == nullptr) note_ucx_data(peer);
  rma::put(&shoal_ctx_default, dest, source, bytes, world_pe(peer), routine_);
}

void Channel::put_strided(void *dest, const void *source, std::ptrdiff_t dest_stride,
                          std::ptrdiff_t source_stride, std::size_t nelems, std::size_t elem_size,
                          int peer) noexcept {
  if (nelems == 0) return;
  if (dest_stride == 1 && source_stride == 1) return put(dest, source, nelems * elem_size, peer);
  if (peer == rank_) {
    auto *d = static_cast<std::byte *>(dest);
    const auto *s = static_cast<const std::byte *>(source);
    for (std::size_t i = 0; i < nelems; ++i)
      std::memmove(d + i * static_cast<std::size_t>(dest_stride) * elem_size,
                   s + i * static_cast<std::size_t>(source_stride) * elem_size, elem_size);
    return;
  }
  if (mapped(dest, peer) == nullptr) note_ucx_data(peer);
  rma::put_strided(&shoal_ctx_default, dest, source, dest_stride, source_stride, 1, nelems,
                   elem_size, world_pe(peer), routine_);
}

void Channel::signal(std::uint64_t *counter_here, std::uint64_t value, int peer, void *dest,
                     const void *source, std::size_t bytes, bool stream) noexcept {
  const int pe = world_pe(peer);
  const rma::Target counter = rma::resolve(counter_here, sizeof value, pe, routine_);
  // Small data for a peer reached through UCX travels in the counter's own message.
  const bool in_message = bytes != 0 && counter.direct == nullptr &&
                          bytes <= rma::kStoreMessageMaxBytes && mapped(dest, peer) == nullptr;
  if (bytes != 0 && !in_message) put(dest, source, bytes, peer);
  // Everything put to peer before must be visible there before the counter moves. Mapped
  // copies are ordered by the release store. Transfers handed to UCX for peer alone are
  // ordered by the fence before the counter's message when it goes on the same endpoint (UCP
  // performs what was issued on an endpoint before a fence before what is issued after it).
  // Otherwise they are completed first: transfers to other PEs as well (a PE notified later
  // through a third one must find them in place), anything handed to UCX before a counter
  // stored directly, and everything when the message leaves from the receiving worker.
  order_before_message(peer, counter.direct != nullptr, stream);
  if (counter.direct != nullptr) {
    __atomic_store_n(reinterpret_cast<std::uint64_t *>(counter.direct), value, __ATOMIC_RELEASE);
    return;
  }
  // One active message sets the counter (after copying the data it carries): no reply, where a
  // put over TCP would be acknowledged.
  rma::put_then_store(in_message ? dest : nullptr, source, in_message ? bytes : 0, counter_here,
                      value, pe, routine_, stream);
}

void Channel::order_before_message(int peer, bool counter_mapped, bool stream) noexcept {
  if (ucx_data_to_ != kNoUcxData && (ucx_data_to_ != peer || counter_mapped ||
                                     (!stream && rma::store_messages_bypass_default_worker())))
    rma::quiet(&shoal_ctx_default, routine_);
  ucx_data_to_ = kNoUcxData;
}

void Channel::signal_stashed(std::uint64_t *word_here, std::uint64_t value, int peer,
                             const void *place, const void *source, std::size_t bytes,
                             bool stream) noexcept {
  order_before_message(peer, /*counter_mapped=*/false, stream);
  rma::stash_then_store(place, source, bytes, word_here, value, world_pe(peer), routine_, stream);
}

const std::byte *Channel::stashed(const void *place) const noexcept { return rma::stashed(place); }

void Channel::wait_counter(const std::uint64_t *counter, std::uint64_t value) noexcept {
  wait_until(g_runtime->worker,
             [&] { return __atomic_load_n(counter, __ATOMIC_ACQUIRE) >= value; });
}

void Channel::notify(int peer) noexcept { send(nullptr, nullptr, 0, peer); }

void Channel::send(void *dest, const void *source, std::size_t bytes, int peer) noexcept {
  Slot &s = channel_slot(team_);
  const int to = coll::slot_index(team_, peer);
  signal(&s.arrived[coll::slot_index(team_, rank_)], ++s.sent[to], peer, dest, source, bytes);
}

void Channel::send_stashed(const void *place, const void *source, std::size_t bytes,
                           int peer) noexcept {
  Slot &s = channel_slot(team_);
  const int to = coll::slot_index(team_, peer);
  signal_stashed(&s.arrived[coll::slot_index(team_, rank_)], ++s.sent[to], peer, place, source,
                 bytes);
}

void Channel::await(int peer) noexcept {
  Slot &s = channel_slot(team_);
  const int from = coll::slot_index(team_, peer);
  wait_counter(&s.arrived[from], ++s.received[from]);
}

bool Channel::has_mailboxes() const noexcept {
  const Slot &s = channel_slot(team_);
  for (int pe = 0; pe < size_; ++pe)
    if (coll::slot_index(team_, pe) >= s.box_peers) return false;
  return true;
}

std::byte *Channel::next_outbox(int peer) noexcept {
  Slot &s = channel_slot(team_);
  const std::uint64_t parity = s.boxes_out[coll::slot_index(team_, peer)]++ & 1;
  const auto mine = static_cast<std::size_t>(coll::slot_index(team_, rank_));
  return s.boxes + (mine * 2 + parity) * kBoxBytes;
}

const std::byte *Channel::next_inbox(int peer) noexcept {
  Slot &s = channel_slot(team_);
  const int from = coll::slot_index(team_, peer);
  const std::uint64_t parity = s.boxes_in[from]++ & 1;
  return s.boxes + (static_cast<std::size_t>(from) * 2 + parity) * kBoxBytes;
}

void Channel::grant(int peer) noexcept {
  Slot &s = channel_slot(team_);
  // Our reads of the buffer being released are done: they happened before this store.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  const int to = coll::slot_index(team_, peer);
  signal(&s.granted[coll::slot_index(team_, rank_)], ++s.grants_out[to], peer, nullptr, nullptr, 0);
}

void Channel::await_grant(int peer) noexcept {
  Slot &s = channel_slot(team_);
  const int from = coll::slot_index(team_, peer);
  wait_counter(&s.granted[from], ++s.grants_in[from]);
}

}  // namespace shoal::coll
