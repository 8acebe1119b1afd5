#include "collectives/runtime_channel.hpp"

#include <atomic>
#include <cstring>

#include "collectives/cache_lines.hpp"
#include "collectives/slot.hpp"
#include "ctx/context.hpp"
#include "rma/raised_word.hpp"
#include "rma/rma.hpp"
#include "rma/stash.hpp"
#include "rma/store_message.hpp"
#include "runtime.hpp"
#include "team/team.hpp"
#include "wait.hpp"

namespace shoal::coll {

// The algorithms' limit must fit the runtime's stash buffers.
static_assert(kStashMaxBytes <= rma::kStashMaxBytes);

namespace {
// Whether signal_stashed() ever sent a message to a counter this PE also reaches with stores
// (see RuntimeChannel::signal).
std::atomic<bool> stashed_to_mapped_peers{false};
}  // namespace

RuntimeChannel::RuntimeChannel(shoal_team &team, const char *routine) noexcept
    : Channel(team.my_pe, team.n_pes, channel_slot(team),
              team.active_set ? team.members.data() : nullptr),
      team_(team),
      routine_(routine) {}

int RuntimeChannel::world_pe(int team_pe) const noexcept { return team_.world_pe(team_pe); }

int RuntimeChannel::memory_group(int peer) const noexcept {
  return g_runtime->peers[static_cast<std::size_t>(world_pe(peer))].memory_group;
}

std::byte *RuntimeChannel::mapped(const void *symmetric, int peer) const noexcept {
  return rma::mapped_memory(&shoal_ctx_default, symmetric, 0, world_pe(peer));
}

bool RuntimeChannel::crowded() const noexcept { return machine_crowded(); }

void RuntimeChannel::put(void *dest, const void *source, std::size_t bytes, int peer) noexcept {
  if (bytes == 0) return;
  if (peer == rank()) {
    if (dest != source) std::memmove(dest, source, bytes);
    return;
  }
  if (mapped(dest, peer) == nullptr) note_ucx_data(peer);
  rma::put(&shoal_ctx_default, dest, source, bytes, world_pe(peer), routine_);
}

void RuntimeChannel::put_strided(void *dest, const void *source, std::ptrdiff_t dest_stride,
                                 std::ptrdiff_t source_stride, std::size_t nelems,
                                 std::size_t elem_size, int peer) noexcept {
  if (nelems == 0) return;
  if (dest_stride == 1 && source_stride == 1) return put(dest, source, nelems * elem_size, peer);
  if (peer == rank()) {
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

void RuntimeChannel::signal(std::uint64_t *counter_here, std::uint64_t value, int peer, void *dest,
                            const void *source, std::size_t bytes, bool stream) noexcept {
  const int pe = world_pe(peer);
  rma::Target counter = rma::resolve(counter_here, sizeof value, pe, routine_);
  // A counter of a mapped peer may still have a message on its way to it: signal_stashed()
  // always sends one, and the peer's receiving worker sets the counter when it gets to it. A
  // direct store now would overtake that message: the peer would take the newer value, read
  // the stash before the data arrived, and the late message would then move the counter back.
  // Only this PE writes the counter, one step per signal (Channel's counters), so a value more
  // than one step behind means a message in flight: then this signal follows it as a message.
  // Only teams that span nodes stash (mailbox reductions, cache_line broadcasts): elsewhere
  // the look, a cache line from the peer's core, is skipped (it made a 2-PE barrier on one
  // node 0.46 us instead of 0.28).
  if (counter.direct != nullptr && stashed_to_mapped_peers.load(std::memory_order_relaxed) &&
      __atomic_load_n(reinterpret_cast<const std::uint64_t *>(counter.direct), __ATOMIC_ACQUIRE) +
              1 <
          value)
    counter.direct = nullptr;
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

void RuntimeChannel::order_before_message(int peer, bool counter_mapped, bool stream) noexcept {
  if (ucx_data_to_ != kNoUcxData && (ucx_data_to_ != peer || counter_mapped ||
                                     (!stream && rma::store_messages_bypass_default_worker())))
    rma::quiet(&shoal_ctx_default, routine_);
  ucx_data_to_ = kNoUcxData;
}

void RuntimeChannel::signal_stashed(std::uint64_t *word_here, std::uint64_t value, int peer,
                                    const void *place, const void *source, std::size_t bytes,
                                    bool stream) noexcept {
  if (!stashed_to_mapped_peers.load(std::memory_order_relaxed) &&
      mapped(word_here, peer) != nullptr)
    stashed_to_mapped_peers.store(true, std::memory_order_relaxed);
  order_before_message(peer, /*counter_mapped=*/false, stream);
  rma::stash_then_store(place, source, bytes, word_here, value, world_pe(peer), routine_, stream);
}

const std::byte *RuntimeChannel::stashed(const void *place) const noexcept {
  return rma::stashed(place);
}

// The acknowledgement words' format is the runtime's raised word's.
static_assert(lines::kAckCountBits == rma::kRaiseCountBits);

void RuntimeChannel::acknowledge(std::uint64_t *word_here, std::uint64_t value, int peer,
                                 std::uint64_t slack) noexcept {
  rma::raise_eventually(word_here, value, world_pe(peer), slack, routine_);
}

void RuntimeChannel::wait(const std::uint64_t *word, std::uint64_t value) noexcept {
  wait_until(g_runtime->worker, [&] { return __atomic_load_n(word, __ATOMIC_ACQUIRE) >= value; });
}

}  // namespace shoal::coll
