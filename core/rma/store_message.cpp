#include "rma/store_message.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "log/log.hpp"
#include "rma/incoming.hpp"
#include "rma/pending_raises.hpp"
#include "rma/raised_word.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"
#include "transport/progress_thread.hpp"

namespace shoal::rma {
namespace {

// The active message id; UCX ids are per worker and Shoal sends no other.
constexpr unsigned kStoreMessageId = 1;

// Places are symmetric: a segment and an offset in it, the same on every PE. A dest_segment
// with kToStash set: the data goes into the receiver's stash buffer of that place (stash.hpp).
// A word_segment with kRaise set: the word takes the value only if that raises it for the same
// user (raised_word.hpp: a pending raise, pending_raises.hpp, sent alone). One with kPiece set:
// a piece of a larger message's data and no word; word_offset is where in the message's data
// the piece goes, and value the size of that data (see send_pieces).
constexpr std::uint32_t kToStash = 0x80000000u;
constexpr std::uint32_t kRaise = 0x80000000u;
constexpr std::uint32_t kPiece = 0x40000000u;
struct Header {
  std::uint64_t dest_offset, word_offset, value;
  std::uint32_t dest_segment, word_segment;
};
// A pending raise riding in a message to its PE, after the header.
struct Rider {
  std::uint64_t word_offset, value;
  std::uint32_t word_segment, unused;
};
struct HeaderWithRider {
  Header header;
  Rider rider;
};

std::uint64_t offset_in(const Runtime &rt, const void *addr, int segment) noexcept {
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  return a - (segment == kHeapSegment ? rt.heap_base : rt.data_base);
}

std::uint64_t stash_key(std::uint32_t segment, std::uint64_t offset) noexcept {
  return offset << 1 | (segment == kHeapSegment ? 0 : 1);
}

// A raise (raised_word.hpp), which messages on different connections may bring out of order,
// or late: after the word's team was destroyed and its slot given to the next one. Only the
// receiving worker raises such a word.
void apply_raise(const Runtime &rt, std::byte *word, std::uint64_t value) noexcept {
  auto *w = reinterpret_cast<std::uint64_t *>(word);
  if (!raise_word(w, value) &&
      raise_user(__atomic_load_n(w, __ATOMIC_RELAXED)) != raise_user(value))
    SMA_LOG_DEBUG("rma",
                  "pe {}: dropped a raise of the word at {} for its previous user (team "
                  "generation {}): it arrived after the word changed hands",
                  rt.my_pe, static_cast<const void *>(word), raise_user(value));
}

// The stash buffer of a place for a message of `bytes`: null when the message names no place of
// this PE or is too large for a stash (a malformed one).
std::byte *stash_buffer(Runtime &rt, std::uint32_t segment, std::uint64_t place_offset,
                        std::size_t bytes) noexcept {
  if (bytes > kStashMaxBytes || local_range(rt, segment, place_offset, 1) == nullptr)
    return nullptr;
  std::byte *buffer = rt.stash.buffer_for(stash_key(segment, place_offset), bytes);
  // Dropping the message would leave its reader waiting for the word forever.
  if (buffer == nullptr)
    fatal(fmt::format(
        "pe {}: out of memory for a receive buffer of {} bytes (a collective's message from "
        "another node)",
        rt.my_pe, bytes));
  return buffer;
}

// Where a piece (kPiece) goes: into place at its offset in the message's data, or into the
// stash buffer of the place, sized for the whole message (the message's last part, which
// carries its first bytes, then finds the buffer large enough). Null for a malformed one.
std::byte *piece_destination(Runtime &rt, const Header &h, std::size_t bytes) noexcept {
  const std::uint64_t offset = h.word_offset, total = h.value;
  if (offset > total || bytes > total - offset) return nullptr;
  const std::uint32_t segment = h.dest_segment & ~kToStash;
  if (segment == h.dest_segment) return local_range(rt, segment, h.dest_offset + offset, bytes);
  std::byte *buffer = stash_buffer(rt, segment, h.dest_offset, total);
  return buffer == nullptr ? nullptr : buffer + offset;
}

ucs_status_t on_store_message(void *arg, const void *header, std::size_t header_bytes, void *data,
                              std::size_t bytes, const ucp_am_recv_param_t *param) {
  auto &rt = *static_cast<Runtime *>(arg);
  if (header_bytes == sizeof(Header) && !(param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV)) {
    Header piece;
    std::memcpy(&piece, header, sizeof piece);
    if (piece.word_segment & kPiece) {
      if (std::byte *dest = piece_destination(rt, piece, bytes); dest != nullptr)
        copy_for_peer(dest, data, bytes);
      else
        SMA_LOG_ERROR("rma", "pe {}: dropped a malformed piece of a message ({} bytes)", rt.my_pe,
                      bytes);
      return UCS_OK;
    }
  }
  HeaderWithRider hr{};
  Header &h = hr.header;
  std::byte *dest = nullptr;
  std::byte *word = nullptr, *rider_word = nullptr;
  const bool with_rider = header_bytes == sizeof hr;
  const bool whole =
      (header_bytes == sizeof h || with_rider) && !(param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV);
  if (whole) {
    std::memcpy(&hr, header, header_bytes);
    if (with_rider)
      rider_word = local_range(rt, hr.rider.word_segment, hr.rider.word_offset, sizeof h.value);
    word = local_range(rt, h.word_segment & ~kRaise, h.word_offset, sizeof h.value);
    const std::uint32_t segment = h.dest_segment & ~kToStash;
    if (segment == h.dest_segment)
      dest = local_range(rt, segment, h.dest_offset, bytes);
    else
      dest = stash_buffer(rt, segment, h.dest_offset, bytes);
  }
  if (!whole || (bytes != 0 && dest == nullptr) || word == nullptr ||
      (with_rider && rider_word == nullptr)) {
    // Only a peer running another build of Shoal could send this.
    SMA_LOG_ERROR("rma",
                  "pe {}: dropped a malformed signal message ({} header bytes, {} data "
                  "bytes)",
                  rt.my_pe, header_bytes, bytes);
    return UCS_OK;
  }
  if (with_rider) apply_raise(rt, rider_word, hr.rider.value);
  if (bytes != 0) copy_for_peer(dest, data, bytes);
  if (h.word_segment & kRaise)
    apply_raise(rt, word, h.value);
  else
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

// Where the symmetric word `word` of pe is, as a header names it.
void locate_word(std::uint64_t *word, int pe, const char *routine, std::uint64_t &offset,
                 std::uint32_t &segment) noexcept {
  const Target w = resolve(word, sizeof *word, pe, routine);
  segment = static_cast<std::uint32_t>(w.segment);
  offset = offset_in(*g_runtime, word, w.segment);
}

[[noreturn]] void message_failed(int pe, const char *routine) noexcept {
  fatal(fmt::format("{}: the signal message to PE {} failed in UCX (see the message above)",
                    routine, pe));
}

// Sends the data of a message beyond its first kStorePieceBytes ahead of it, as pieces of up
// to kStorePieceBytes (kPiece): the message with the word then carries only the first piece.
// A connection's messages are handled in order, so the word still moves after all of its data
// is in place. Returns how many bytes the message itself carries.
std::size_t send_pieces(ucx::UcxWorker &sender, const Header &h, const void *source,
                        std::size_t bytes, int pe, const char *routine) noexcept {
  if (bytes <= kStorePieceBytes) return bytes;
  Header piece = h;
  piece.word_segment = kPiece;
  piece.value = bytes;
  for (std::size_t offset = kStorePieceBytes; offset < bytes; offset += kStorePieceBytes) {
    const std::size_t n = std::min(kStorePieceBytes, bytes - offset);
    piece.word_offset = offset;
    if (sender.am_send(pe, kStoreMessageId, &piece, sizeof piece,
                       static_cast<const std::byte *>(source) + offset, n) != Status::ok)
      message_failed(pe, routine);
  }
  return kStorePieceBytes;
}

void send_store_message(HeaderWithRider &hr, const void *source, std::size_t bytes,
                        std::uint64_t *word, std::uint64_t value, int pe, const char *routine,
                        bool stream, bool only_raise = false) noexcept {
  Header &h = hr.header;
  locate_word(word, pe, routine, h.word_offset, h.word_segment);
  if (only_raise) h.word_segment |= kRaise;
  h.value = value;
  std::size_t header_bytes = sizeof h;
  if (const auto pending = pending_raises().take(pe)) {  // it rides along
    locate_word(pending->word, pe, routine, hr.rider.word_offset, hr.rider.word_segment);
    hr.rider.value = pending->value;
    header_bytes = sizeof hr;
  }
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
  if (sender.fence() != Status::ok) message_failed(pe, routine);
  bytes = send_pieces(sender, h, source, bytes, pe, routine);
  if (sender.am_send(pe, kStoreMessageId, &hr, header_bytes, source, bytes) != Status::ok)
    message_failed(pe, routine);
}

}  // namespace

void put_then_store(void *dest, const void *source, std::size_t bytes, std::uint64_t *word,
                    std::uint64_t value, int pe, const char *routine, bool stream) noexcept {
  HeaderWithRider hr{};
  if (bytes != 0) {
    const Target d = resolve(dest, bytes, pe, routine);
    hr.header.dest_segment = static_cast<std::uint32_t>(d.segment);
    hr.header.dest_offset = offset_in(*g_runtime, dest, d.segment);
  }
  send_store_message(hr, source, bytes, word, value, pe, routine, stream);
}

void stash_then_store(const void *place, const void *source, std::size_t bytes, std::uint64_t *word,
                      std::uint64_t value, int pe, const char *routine, bool stream) noexcept {
  // The receiver would drop a larger one, in part once it goes in pieces, and set the word.
  if (bytes > kStashMaxBytes)
    fatal(fmt::format("{}: internal error: a message of {} bytes for PE {}'s stash, which holds {}",
                      routine, bytes, pe, kStashMaxBytes));
  HeaderWithRider hr{};
  const Target p = resolve(place, 1, pe, routine);
  hr.header.dest_segment = static_cast<std::uint32_t>(p.segment) | kToStash;
  hr.header.dest_offset = offset_in(*g_runtime, place, p.segment);
  send_store_message(hr, source, bytes, word, value, pe, routine, stream);
}

void raise_eventually(std::uint64_t *word, std::uint64_t value, int pe, std::uint64_t slack,
                      const char *routine) noexcept {
  const auto now = pending_raises().note(word, value, pe, slack);
  if (!now) return;
  HeaderWithRider hr{};
  send_store_message(hr, nullptr, 0, now->word, now->value, now->pe, routine, /*stream=*/true,
                     /*only_raise=*/true);
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
