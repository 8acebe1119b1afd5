#include "rma/store_message.hpp"

#include <fmt/format.h>

#include <cstring>

#include "log/log.hpp"
#include "rma/incoming.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"
#include "transport/progress_thread.hpp"

namespace shoal::rma {
namespace {

// The active message id; UCX ids are per worker and Shoal sends no other.
constexpr unsigned kStoreMessageId = 1;

// Places are symmetric: a segment and an offset in it, the same on every PE. A dest_segment
// with kToStash set: the data goes into the receiver's stash buffer of that place (stash.hpp).
constexpr std::uint32_t kToStash = 0x80000000u;
struct Header {
  std::uint64_t dest_offset, word_offset, value;
  std::uint32_t dest_segment, word_segment;
};

std::uint64_t offset_in(const Runtime &rt, const void *addr, int segment) noexcept {
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  return a - (segment == kHeapSegment ? rt.heap_base : rt.data_base);
}

std::uint64_t stash_key(std::uint32_t segment, std::uint64_t offset) noexcept {
  return offset << 1 | (segment == kHeapSegment ? 0 : 1);
}

ucs_status_t on_store_message(void *arg, const void *header, std::size_t header_bytes, void *data,
                              std::size_t bytes, const ucp_am_recv_param_t *param) {
  auto &rt = *static_cast<Runtime *>(arg);
  Header h;
  std::byte *dest = nullptr;
  std::byte *word = nullptr;
  const bool whole = header_bytes == sizeof h && !(param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV);
  if (whole) {
    std::memcpy(&h, header, sizeof h);
    word = local_range(rt, h.word_segment, h.word_offset, sizeof h.value);
    const std::uint32_t segment = h.dest_segment & ~kToStash;
    if (segment == h.dest_segment)
      dest = local_range(rt, segment, h.dest_offset, bytes);
    else if (bytes <= kStashMaxBytes && local_range(rt, segment, h.dest_offset, 1) != nullptr)
      dest = rt.stash.buffer_for(stash_key(segment, h.dest_offset));
  }
  if (!whole || (bytes != 0 && dest == nullptr) || word == nullptr) {
    // Only a peer running another build of Shoal could send this.
    SMA_LOG_ERROR("rma",
                  "pe {}: dropped a malformed signal message ({} header bytes, {} data "
                  "bytes)",
                  rt.my_pe, header_bytes, bytes);
    return UCS_OK;
  }
  if (bytes != 0) copy_for_peer(dest, data, bytes);
  __atomic_store_n(reinterpret_cast<std::uint64_t *>(word), h.value, __ATOMIC_RELEASE);
  return UCS_OK;
}

}  // namespace

bool store_messages_bypass_default_worker() noexcept {
  return ucx::ProgressThread::running() != nullptr;
}

Status accept_store_messages(ucx::UcxWorker &receiver, Runtime &runtime) noexcept {
  return receiver.set_am_handler(kStoreMessageId, on_store_message, &runtime);
}

namespace {

void send_store_message(Header &h, const void *source, std::size_t bytes, std::uint64_t *word,
                        std::uint64_t value, int pe, const char *routine, bool stream) noexcept {
  const Target w = resolve(word, sizeof value, pe, routine);
  h.word_segment = static_cast<std::uint32_t>(w.segment);
  h.word_offset = offset_in(*g_runtime, word, w.segment);
  h.value = value;
  // With a progress thread, from this PE's receiving worker to the peer's: both directions of
  // an exchange then share one connection (over TCP the acknowledgements ride on the replies;
  // a 2-PE barrier across hosts took 13 us on two connections, 10 on one).
  // A stream's messages flow one way, nothing to share a connection with; its sender would
  // contend with its progress thread for the receiving worker.
  ucx::InboundLease lease;
  ucx::UcxWorker &sender =
      !stream && lease.hold() ? g_runtime->target_worker : *shoal_ctx_default.worker;
  // Keeps two messages in a row in order, and on the default worker orders what was issued
  // to pe before.
  if (sender.fence() != Status::ok ||
      sender.am_send(pe, kStoreMessageId, &h, sizeof h, source, bytes) != Status::ok)
    fatal(fmt::format("{}: the signal message to PE {} failed in UCX (see the message above)",
                      routine, pe));
}

}  // namespace

void put_then_store(void *dest, const void *source, std::size_t bytes, std::uint64_t *word,
                    std::uint64_t value, int pe, const char *routine, bool stream) noexcept {
  Header h{};
  if (bytes != 0) {
    const Target d = resolve(dest, bytes, pe, routine);
    h.dest_segment = static_cast<std::uint32_t>(d.segment);
    h.dest_offset = offset_in(*g_runtime, dest, d.segment);
  }
  send_store_message(h, source, bytes, word, value, pe, routine, stream);
}

void stash_then_store(const void *place, const void *source, std::size_t bytes, std::uint64_t *word,
                      std::uint64_t value, int pe, const char *routine, bool stream) noexcept {
  Header h{};
  const Target p = resolve(place, 1, pe, routine);
  h.dest_segment = static_cast<std::uint32_t>(p.segment) | kToStash;
  h.dest_offset = offset_in(*g_runtime, place, p.segment);
  send_store_message(h, source, bytes, word, value, pe, routine, stream);
}

const std::byte *stashed(const void *place) noexcept {
  const Runtime &rt = *g_runtime;
  const auto a = reinterpret_cast<std::uintptr_t>(place);
  const int segment =
      a >= rt.heap_base && a - rt.heap_base < rt.heap_size ? kHeapSegment : kDataSegment;
  return rt.stash.find(
      stash_key(static_cast<std::uint32_t>(segment), offset_in(rt, place, segment)));
}

}  // namespace shoal::rma
