#include "rma/put_batch.hpp"

#include <fmt/format.h>

#include <cstring>

#include "ctx/context.hpp"
#include "log/log.hpp"
#include "rma/incoming.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"
#include "transport/ucx_worker.hpp"
#include "wait.hpp"

namespace shoal::rma {
namespace {

// One put of a batch: where it goes (a segment and an offset in it, the same on every PE),
// then its bytes, padded to a multiple of 8 so the next record is aligned. A get is a record
// alone, its segment marked with kGetRecord: the bytes to copy into the answer. A non-fetching
// AMO is a record of its word (bytes: 4 or 8), its segment marked with kUpdateRecord, then an
// Update.
struct Record {
  std::uint64_t offset;
  std::uint32_t bytes;
  std::uint32_t segment;
};
constexpr std::uint32_t kGetRecord = 0x80000000u;
constexpr std::uint32_t kUpdateRecord = 0x40000000u;
struct Update {
  std::uint64_t value;
  std::uint32_t update;  // a WordUpdate
  std::uint32_t unused;
};
constexpr std::size_t padded(std::size_t bytes) noexcept { return (bytes + 7) & ~std::size_t{7}; }

// The header of a put with signal, or of a non-fetching AMO: the data's record (none for an
// AMO), then the word and its update.
struct SignalRecord {
  Record data;
  std::uint64_t offset;
  std::uint64_t value;
  std::uint32_t segment;
  std::uint32_t update;  // a WordUpdate, | kWord32 for a 4-byte word
};
constexpr std::uint32_t kWord32 = 0x100;

// The header of an answer: the PE that answers (its messages are answered in order, and the
// sender counts answers per PE), and for a batch with gets its number (0 otherwise), whose
// bytes the answer carries.
struct Answer {
  std::uint32_t pe;
  std::uint32_t unused;
  std::uint64_t number;
};

// The header of a get answered by rendezvous (PutBatches::get_rendezvous): its record, then its
// number, which the answer carries as a batch's does.
struct RendezvousGet {
  Record record;
  std::uint64_t number;
};
static_assert(sizeof(RendezvousGet) != sizeof(Record) &&
              sizeof(RendezvousGet) != sizeof(SignalRecord) &&
              sizeof(RendezvousGet) != sizeof(std::uint64_t));

template <typename Word>
void apply(Word *word, Word value, WordUpdate update) noexcept {
  constexpr int order = __ATOMIC_SEQ_CST;
  switch (update) {
    case WordUpdate::set:
      return __atomic_store_n(word, value, order);
    case WordUpdate::add:
      return static_cast<void>(__atomic_fetch_add(word, value, order));
    case WordUpdate::bit_and:
      return static_cast<void>(__atomic_fetch_and(word, value, order));
    case WordUpdate::bit_or:
      return static_cast<void>(__atomic_fetch_or(word, value, order));
    case WordUpdate::bit_xor:
      return static_cast<void>(__atomic_fetch_xor(word, value, order));
  }
}

// Copies a put with signal into place, then updates the word with a CPU atomic (atomic with the
// AMOs UCX executes here in software and with the node's CPU atomics); false when the header
// names memory this PE does not have, or an update this build does not know.
bool place_put_signal(const Runtime &rt, const SignalRecord &s, const std::byte *data,
                      std::size_t bytes) noexcept {
  const bool word32 = (s.update & kWord32) != 0;
  const std::uint32_t code = s.update & ~kWord32;
  if (code > static_cast<std::uint32_t>(WordUpdate::bit_xor)) return false;
  const auto update = static_cast<WordUpdate>(code);
  std::byte *dest = bytes == 0 ? nullptr : local_range(rt, s.data.segment, s.data.offset, bytes);
  std::byte *word = local_range(rt, s.segment, s.offset, word32 ? 4 : 8);
  if ((bytes != 0 && (dest == nullptr || s.data.bytes != bytes)) || word == nullptr) return false;
  if (bytes != 0) copy_for_peer(dest, data, bytes);
  const UnrecordedPeerAccess unrecorded;  // the program's word, as UCX's AMOs leave it
  if (word32)
    apply(reinterpret_cast<std::uint32_t *>(word), static_cast<std::uint32_t>(s.value), update);
  else
    apply(reinterpret_cast<std::uint64_t *>(word), s.value, update);
  return true;
}

// Where the messages of other PEs' batches arrive (accept_put_batches).
struct BatchReceiver {
  Runtime *runtime = nullptr;
  ucx::UcxWorker *worker = nullptr;
};
BatchReceiver batch_receiver;

// The bytes of a put sent by rendezvous (PutBatches::put_rendezvous) are in place: the sender
// waits for this answer before it issues anything else.
void answer_rendezvous_put(void *arg, ucp_ep_h reply_ep) {
  const auto &rt = *static_cast<const Runtime *>(arg);
  const Answer answer{static_cast<std::uint32_t>(rt.my_pe), 0, 0};
  if (ucx::UcxWorker::reply_to(reply_ep, ucx::UcxWorker::kPutBatchAckMessageId, &answer,
                               sizeof answer) != Status::ok)
    SMA_LOG_ERROR("rma", "pe {}: cannot answer a put; its sender will wait for it", rt.my_pe);
}

// A put sent by rendezvous: its record in the header, its bytes received straight into place.
void receive_rendezvous_put(const void *header, std::size_t header_bytes, void *descriptor,
                            std::size_t bytes, const ucp_am_recv_param_t *param) {
  Runtime &rt = *batch_receiver.runtime;
  Record r{};
  if (header_bytes == sizeof r) std::memcpy(&r, header, sizeof r);
  std::byte *dest =
      header_bytes == sizeof r ? local_range(rt, r.segment, r.offset, r.bytes) : nullptr;
  if (dest == nullptr || r.bytes != bytes) {  // only a peer running another build of Shoal
    SMA_LOG_ERROR("rma", "pe {}: dropped a malformed put of {} bytes sent by rendezvous", rt.my_pe,
                  bytes);
    return;
  }
  if (batch_receiver.worker->receive_rendezvous(descriptor, param, dest, bytes,
                                                answer_rendezvous_put, &rt) != Status::ok)
    fatal(
        fmt::format("pe {}: cannot receive a put of {} bytes from another PE (see the message "
                    "above)",
                    rt.my_pe, bytes));
}

// A get answered by rendezvous: the answer's data goes from this PE's memory straight into
// the getter's destination.
void answer_rendezvous_get(const Runtime &rt, const void *header,
                           const ucp_am_recv_param_t *param) {
  RendezvousGet g;
  std::memcpy(&g, header, sizeof g);
  const std::byte *source =
      local_range(rt, g.record.segment & ~kGetRecord, g.record.offset, g.record.bytes);
  const Answer answer{static_cast<std::uint32_t>(rt.my_pe), 0, g.number};
  if (source == nullptr)  // the sender checked the range: another build of Shoal
    SMA_LOG_ERROR("rma", "pe {}: a get names memory outside this PE's segments", rt.my_pe);
  else if (ucx::UcxWorker::reply_by_rendezvous(param, ucx::UcxWorker::kPutBatchAckMessageId,
                                               &answer, sizeof answer, source,
                                               g.record.bytes) != Status::ok)
    SMA_LOG_ERROR("rma", "pe {}: cannot answer a get; its sender will wait for it", rt.my_pe);
}

// A message of puts: records with their bytes, one put whose record is the header (a put too
// large for a batch, sent from the caller's buffer, by rendezvous when larger than
// kPiecedPutMax), or a put with signal (its SignalRecord in the header). Answered when the
// sender asked for it; an empty one only asks. A batch with gets has its number as the header,
// and its answer carries the number and the gets' bytes; a get to answer by rendezvous has its
// RendezvousGet as the header.
ucs_status_t on_put_batch(void *arg, const void *header, std::size_t header_bytes, void *data,
                          std::size_t bytes, const ucp_am_recv_param_t *param) {
  const auto &rt = *static_cast<const Runtime *>(arg);
  if (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) {
    receive_rendezvous_put(header, header_bytes, data, bytes, param);
    return UCS_OK;
  }
  if (header_bytes == sizeof(RendezvousGet)) {
    answer_rendezvous_get(rt, header, param);
    return UCS_OK;
  }
  const auto *at = static_cast<const std::byte *>(data);
  const std::byte *const end = at + bytes;
  if (header_bytes == sizeof(SignalRecord)) {
    SignalRecord r;
    std::memcpy(&r, header, sizeof r);
    if (place_put_signal(rt, r, at, bytes)) at = end;
  } else if (header_bytes == sizeof(Record)) {
    Record r;
    std::memcpy(&r, header, sizeof r);
    if (std::byte *dest = local_range(rt, r.segment, r.offset, r.bytes);
        dest != nullptr && r.bytes == bytes) {
      copy_for_peer(dest, at, bytes);
      at = end;
    }
  }
  const bool batch = header_bytes == 0 || header_bytes == sizeof(std::uint64_t);
  thread_local std::vector<std::byte> got;  // the gets' bytes, for the answer
  got.clear();
  while (batch && end - at >= static_cast<std::ptrdiff_t>(sizeof(Record))) {
    Record r;
    std::memcpy(&r, at, sizeof r);
    at += sizeof r;
    if (r.segment & kUpdateRecord) {
      Update u;
      if (static_cast<std::size_t>(end - at) < sizeof u) break;
      std::memcpy(&u, at, sizeof u);
      at += sizeof u;
      SignalRecord word{};
      word.offset = r.offset;
      word.value = u.value;
      word.segment = r.segment & ~kUpdateRecord;
      word.update = u.update | (r.bytes == 4 ? kWord32 : 0);
      if (!place_put_signal(rt, word, nullptr, 0)) break;
      continue;
    }
    if (r.segment & kGetRecord) {
      const std::byte *source = local_range(rt, r.segment & ~kGetRecord, r.offset, r.bytes);
      const std::size_t old_size = got.size();
      got.resize(old_size + r.bytes);
      if (source == nullptr) {  // the sender checked the range: another build of Shoal
        SMA_LOG_ERROR("rma", "pe {}: a combined get names memory outside this PE's segments",
                      rt.my_pe);
        continue;
      }
      copy_from_peer(got.data() + old_size, source, r.bytes);
      continue;
    }
    std::byte *dest = local_range(rt, r.segment, r.offset, r.bytes);
    if (dest == nullptr || static_cast<std::size_t>(end - at) < r.bytes) break;
    copy_for_peer(dest, at, r.bytes);
    at += std::min(padded(r.bytes), static_cast<std::size_t>(end - at));
  }
  if (at != end)  // only a peer running another build of Shoal could send this
    SMA_LOG_ERROR("rma", "pe {}: dropped the rest of a malformed put batch ({} of {} bytes)",
                  rt.my_pe, end - at, bytes);
  // The puts are in place: tell the sender (its quiet waits for this), with the gets' bytes.
  Answer answer{static_cast<std::uint32_t>(rt.my_pe), 0, 0};
  if (header_bytes == sizeof answer.number)
    std::memcpy(&answer.number, header, sizeof answer.number);
  if ((param->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP) != 0 &&
      ucx::UcxWorker::reply(param, ucx::UcxWorker::kPutBatchAckMessageId, &answer, sizeof answer,
                            got.data(), got.size()) != Status::ok)
    SMA_LOG_ERROR("rma", "pe {}: cannot answer a put batch; its sender will wait for it", rt.my_pe);
  return UCS_OK;
}

}  // namespace

ucs_status_t PutBatches::on_answer(void *arg, const void *header, std::size_t header_bytes,
                                   void *data, std::size_t bytes,
                                   const ucp_am_recv_param_t *param) noexcept {
  auto &self = *static_cast<PutBatches *>(arg);
  Answer answer{};
  if (header_bytes == sizeof answer) std::memcpy(&answer, header, sizeof answer);
  if (header_bytes != sizeof answer || answer.pe >= self.answered_.size()) {
    SMA_LOG_ERROR("rma", "dropped a malformed answer to combined puts ({} header bytes)",
                  header_bytes);
    return UCS_OK;
  }
  if (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) {
    self.receive_rendezvous_get(answer.pe, answer.number, data, bytes, param);
    return UCS_OK;
  }
  if (answer.number != 0) {  // a batch with gets: their bytes, in record order
    std::lock_guard lock(self.gets_mutex_);
    const auto found = self.awaited_gets_.find(answer.number);
    std::size_t expected = 0;
    if (found != self.awaited_gets_.end())
      for (const GetDestination &d : found->second) expected += d.bytes;
    if (found == self.awaited_gets_.end() || expected != bytes) {
      SMA_LOG_ERROR("rma", "an answer to combined gets does not match them ({} bytes, {} expected)",
                    bytes, expected);
    } else {
      const auto *from = static_cast<const std::byte *>(data);
      for (const GetDestination &d : found->second) {
        std::memcpy(d.local, from, d.bytes);
        from += d.bytes;
      }
    }
    if (found != self.awaited_gets_.end()) self.awaited_gets_.erase(found);
  }
  self.answered_[answer.pe].fetch_add(1, std::memory_order_release);
  return UCS_OK;
}

void PutBatches::receive_rendezvous_get(std::uint32_t pe, std::uint64_t number, void *descriptor,
                                        std::size_t bytes,
                                        const ucp_am_recv_param_t *param) noexcept {
  GetDestination into{nullptr, 0};
  {
    std::lock_guard lock(gets_mutex_);
    const auto found = awaited_gets_.find(number);
    if (found != awaited_gets_.end() && found->second.size() == 1 &&
        found->second[0].bytes == bytes)
      into = found->second[0];
    if (found != awaited_gets_.end()) awaited_gets_.erase(found);
  }
  // Counted once the bytes are in place: the getter waits for that.
  auto *answered = &answered_[pe];
  const auto count = [](void *arg, ucp_ep_h) {
    static_cast<std::atomic<std::uint64_t> *>(arg)->fetch_add(1, std::memory_order_release);
  };
  if (into.local == nullptr) {
    SMA_LOG_ERROR("rma", "an answer to a get does not match it ({} bytes)", bytes);
    return;
  }
  if (worker_->receive_rendezvous(descriptor, param, into.local, bytes, count, answered) !=
      Status::ok)
    fatal(
        fmt::format("pe {}: cannot receive the {} bytes of a get from PE {} (see the message "
                    "above)",
                    g_runtime->my_pe, bytes, pe));
}

void PutBatches::get_rendezvous(int pe, const Target &target, void *dest, std::size_t bytes,
                                const char *routine) noexcept {
  Guard guard(*this);     // through the wait (await_answer)
  send_one(pe, routine);  // what the program put before is in place before this reads
  const std::uint64_t number = ++get_batches_sent_;
  {
    std::lock_guard lock(gets_mutex_);
    awaited_gets_[number] = {{static_cast<std::byte *>(dest), bytes}};
  }
  const RendezvousGet g{
      {target.remote - g_runtime->peers[pe].base[target.segment], static_cast<std::uint32_t>(bytes),
       static_cast<std::uint32_t>(target.segment) | kGetRecord},
      number};
  if (worker_->am_send(pe, ucx::UcxWorker::kPutBatchMessageId, &g, sizeof g, nullptr, 0,
                       /*replyable=*/true) != Status::ok)
    fatal(
        fmt::format("{}: sending a get of {} bytes to PE {} failed in UCX (see the message "
                    "above)",
                    routine, bytes, pe));
  await_answer(pe);
}

void PutBatches::await_answer(int pe) noexcept {
  batches_[pe].quiet_since_sent = false;
  sent_answered(pe);
  const std::uint64_t answers = batches_[pe].sent;
  wait_for_replies(*worker_,
                   [&] { return answered_[pe].load(std::memory_order_acquire) >= answers; });
}

void PutBatches::init(const Runtime &runtime, ucx::UcxWorker *worker) {
  worker_ = worker;
  locked_ = worker != nullptr && worker->thread_safe();
  batches_.clear();
  filled_.clear();
  filled_count_.store(0, std::memory_order_relaxed);
  unanswered_.clear();
  awaited_.clear();
  answered_ = std::vector<std::atomic<std::uint64_t>>(worker == nullptr ? 0 : runtime.n_pes);
  {
    std::lock_guard lock(gets_mutex_);
    awaited_gets_.clear();
  }
  get_batches_sent_ = 0;
  if (worker == nullptr) return;
  batches_.resize(static_cast<std::size_t>(runtime.n_pes));
  std::size_t remote_pes = 0;
  for (int pe = 0; pe < runtime.n_pes; ++pe) {
    batches_[pe].eligible = pe != runtime.my_pe && !runtime.bootstrap->on_this_node(pe);
    remote_pes += batches_[pe].eligible ? 1 : 0;
  }
  batch_bytes_ = batch_bytes(remote_pes);
  filled_.reserve(static_cast<std::size_t>(runtime.n_pes));
}

Status PutBatches::accept_answers(ucx::UcxWorker &sender) noexcept {
  return sender.set_am_handler(ucx::UcxWorker::kPutBatchAckMessageId, on_answer, this);
}

void PutBatches::add_get(int pe, const Target &target, void *dest, std::size_t bytes,
                         const char *routine) noexcept {
  Guard guard(*this);
  Batch &batch = batches_[pe];
  if (batch.bytes.size() + sizeof(Record) > batch_bytes_ || batch.get_bytes + bytes > batch_bytes_)
    send_now(pe, routine);
  if (batch.bytes.empty()) {
    if (batch.bytes.capacity() == 0) batch.bytes.reserve(batch_bytes_);
    filled_.push_back(pe);
    filled_count_.store(filled_.size(), std::memory_order_relaxed);
  }
  const Record r{target.remote - g_runtime->peers[pe].base[target.segment],
                 static_cast<std::uint32_t>(bytes),
                 static_cast<std::uint32_t>(target.segment) | kGetRecord};
  const std::size_t at = batch.bytes.size();
  batch.bytes.resize(at + sizeof r);
  std::memcpy(batch.bytes.data() + at, &r, sizeof r);
  batch.gets.push_back({static_cast<std::byte *>(dest), bytes});
  batch.get_bytes += bytes;
}

void PutBatches::add(int pe, const Target &target, const void *source, std::size_t bytes,
                     const char *routine) noexcept {
  if (bytes > kPiecedPutMax) return put_rendezvous(pe, target, source, bytes, routine);
  Guard guard(*this);
  Batch &batch = batches_[pe];
  const Record r{target.remote - g_runtime->peers[pe].base[target.segment],
                 static_cast<std::uint32_t>(bytes), static_cast<std::uint32_t>(target.segment)};
  const std::size_t record_bytes = sizeof(Record) + padded(bytes);
  if (batch.bytes.size() + record_bytes > batch_bytes_) send_now(pe, routine);
  if (record_bytes > batch_bytes_) {
    // Too large for a batch (a blocking put): on its own, from the caller's buffer, which each
    // send has copied or sent when it returns; its last piece answered like a batch.
    const std::size_t ahead = send_leading_pieces(pe, target, source, bytes, routine);
    const Record last{r.offset + ahead, static_cast<std::uint32_t>(bytes - ahead), r.segment};
    const bool ask = asks_answer(pe);
    if (worker_->am_send(pe, ucx::UcxWorker::kPutBatchMessageId, &last, sizeof last,
                         static_cast<const std::byte *>(source) + ahead, bytes - ahead,
                         /*replyable=*/ask) != Status::ok)
      fatal(
          fmt::format("{}: sending a put of {} bytes to PE {} failed in UCX (see the message "
                      "above)",
                      routine, bytes, pe));
    sent(pe, ask);
    return;
  }
  if (batch.bytes.empty()) {
    if (batch.bytes.capacity() == 0) batch.bytes.reserve(batch_bytes_);
    filled_.push_back(pe);
    filled_count_.store(filled_.size(), std::memory_order_relaxed);
  }
  const std::size_t at = batch.bytes.size();
  batch.bytes.resize(at + record_bytes);
  std::memcpy(batch.bytes.data() + at, &r, sizeof r);
  std::memcpy(batch.bytes.data() + at + sizeof r, source, bytes);
}

void PutBatches::put_rendezvous(int pe, const Target &target, const void *source, std::size_t bytes,
                                const char *routine) noexcept {
  Guard guard(*this);     // through the wait (await_answer)
  send_one(pe, routine);  // what the program put before is handled before this
  const Record r{target.remote - g_runtime->peers[pe].base[target.segment],
                 static_cast<std::uint32_t>(bytes), static_cast<std::uint32_t>(target.segment)};
  if (worker_->am_send_rendezvous(pe, ucx::UcxWorker::kPutBatchMessageId, &r, sizeof r, source,
                                  bytes) != Status::ok)
    fatal(
        fmt::format("{}: sending a put of {} bytes to PE {} failed in UCX (see the message "
                    "above)",
                    routine, bytes, pe));
  await_answer(pe);
}

std::size_t PutBatches::send_leading_pieces(int pe, const Target &target, const void *source,
                                            std::size_t bytes, const char *routine) noexcept {
  const std::uintptr_t offset = target.remote - g_runtime->peers[pe].base[target.segment];
  std::size_t sent = 0;
  for (; bytes - sent > kAnsweredPutMax; sent += kAnsweredPutMax) {
    const Record r{offset + sent, static_cast<std::uint32_t>(kAnsweredPutMax),
                   static_cast<std::uint32_t>(target.segment)};
    if (worker_->am_send(pe, ucx::UcxWorker::kPutBatchMessageId, &r, sizeof r,
                         static_cast<const std::byte *>(source) + sent,
                         kAnsweredPutMax) != Status::ok)
      fatal(
          fmt::format("{}: sending a put of {} bytes to PE {} failed in UCX (see the message "
                      "above)",
                      routine, bytes, pe));
  }
  return sent;  // the caller's last message, answered or not, covers them (sent())
}

void PutBatches::put_signal(int pe, const Target &data, const void *source, std::size_t bytes,
                            const Target &signal, std::uint64_t value, bool add,
                            const char *routine) noexcept {
  Guard guard(*this);
  send_one(pe, routine);
  // The data before the last piece goes ahead unanswered, like the signal's message.
  const std::size_t ahead = send_leading_pieces(pe, data, source, bytes, routine);
  source = static_cast<const std::byte *>(source) + ahead;
  bytes -= ahead;
  const auto &base = g_runtime->peers[pe].base;
  SignalRecord r{};
  if (bytes != 0)
    r.data = Record{data.remote + ahead - base[data.segment], static_cast<std::uint32_t>(bytes),
                    static_cast<std::uint32_t>(data.segment)};
  r.offset = signal.remote - base[signal.segment];
  r.value = value;
  r.segment = static_cast<std::uint32_t>(signal.segment);
  r.update = static_cast<std::uint32_t>(add ? WordUpdate::add : WordUpdate::set);
  if (worker_->am_send(pe, ucx::UcxWorker::kPutBatchMessageId, &r, sizeof r, source, bytes) !=
      Status::ok)
    fatal(
        fmt::format("{}: sending a put with signal to PE {} failed in UCX (see the message "
                    "above)",
                    routine, pe));
  sent_unanswered(pe);
}

void PutBatches::amo(int pe, const Target &word, std::uint64_t value, WordUpdate update,
                     std::size_t width, const char *routine) noexcept {
  Guard guard(*this);
  Batch &batch = batches_[pe];
  // After puts still in pe's batch (a fence between them leaves them there), the update joins
  // them: nonblocking puts, a fence and a flag are one message.
  if (!batch.bytes.empty() &&
      batch.bytes.size() + sizeof(Record) + sizeof(Update) <= batch_bytes_) {
    const Record r{word.remote - g_runtime->peers[pe].base[word.segment],
                   static_cast<std::uint32_t>(width),
                   static_cast<std::uint32_t>(word.segment) | kUpdateRecord};
    const Update u{value, static_cast<std::uint32_t>(update), 0};
    const std::size_t at = batch.bytes.size();
    batch.bytes.resize(at + sizeof r + sizeof u);
    std::memcpy(batch.bytes.data() + at, &r, sizeof r);
    std::memcpy(batch.bytes.data() + at + sizeof r, &u, sizeof u);
    return send_now(pe, routine);
  }
  send_one(pe, routine);
  const auto &base = g_runtime->peers[pe].base;
  SignalRecord r{};
  r.offset = word.remote - base[word.segment];
  r.value = value;
  r.segment = static_cast<std::uint32_t>(word.segment);
  r.update = static_cast<std::uint32_t>(update) | (width == 4 ? kWord32 : 0);
  const bool ask = asks_answer(pe);
  if (worker_->am_send(pe, ucx::UcxWorker::kPutBatchMessageId, &r, sizeof r, nullptr, 0,
                       /*replyable=*/ask) != Status::ok)
    fatal(fmt::format("{}: sending an atomic update to PE {} failed in UCX (see the message above)",
                      routine, pe));
  sent(pe, ask);
}

bool PutBatches::asks_answer(int pe) noexcept {
  Batch &batch = batches_[pe];
  const bool ask =
      batch.quiet_since_sent && answered_[pe].load(std::memory_order_acquire) == batch.sent;
  batch.quiet_since_sent = false;
  return ask;
}

void PutBatches::sent(int pe, bool answered) noexcept {
  if (answered)
    sent_answered(pe);
  else
    sent_unanswered(pe);
}

void PutBatches::sent_answered(int pe) noexcept {
  Batch &batch = batches_[pe];
  ++batch.sent;
  if (!batch.awaited) {
    batch.awaited = true;
    awaited_.push_back(pe);
  }
}

void PutBatches::sent_unanswered(int pe) noexcept {
  Batch &batch = batches_[pe];
  if (!batch.unanswered) {
    batch.unanswered = true;
    unanswered_.push_back(pe);
  }
}

void PutBatches::send_all(const char *routine) noexcept {
  Guard guard(*this);
  send_all_held(routine);
}

void PutBatches::send_all_held(const char *routine) noexcept {
  // send_now() removes the PE from filled_.
  while (!filled_.empty()) send_now(filled_.back(), routine);
}

void PutBatches::complete_all(const char *routine) noexcept {
  // What each PE owes when the batches have left: (PE, answers), waited for without the mutex.
  thread_local std::vector<std::pair<int, std::uint64_t>> owed;
  owed.clear();
  {
    Guard guard(*this);
    send_all_held(routine);
    // A quiet after the messages to these PEs: their next ones ask for answers.
    for (int pe : unanswered_) batches_[pe].quiet_since_sent = true;
    for (int pe : awaited_) batches_[pe].quiet_since_sent = true;
    // An empty message asking for an answer: the target answers it after handling everything
    // this PE sent it before (one connection, handled in order).
    for (int pe : unanswered_) {
      batches_[pe].unanswered = false;
      if (worker_->am_send(pe, ucx::UcxWorker::kPutBatchMessageId, nullptr, 0, nullptr, 0,
                           /*replyable=*/true) != Status::ok)
        fatal(
            fmt::format("{}: asking PE {} to confirm puts with signal failed in UCX (see the "
                        "message above)",
                        routine, pe));
      sent_answered(pe);
    }
    unanswered_.clear();
    std::size_t kept = 0;
    for (int pe : awaited_) {
      Batch &batch = batches_[pe];
      if (answered_[pe].load(std::memory_order_acquire) == batch.sent) {
        batch.awaited = false;  // answered everything: forget it
        continue;
      }
      owed.emplace_back(pe, batch.sent);
      awaited_[kept++] = pe;
    }
    awaited_.resize(kept);
  }
  wait_for_replies(*worker_, [&] {
    for (const auto &[pe, answers] : owed)
      if (answered_[pe].load(std::memory_order_acquire) < answers) return false;
    return true;
  });
}

void PutBatches::send_one(int pe, const char *routine) noexcept {
  if (!batches_.empty() && !batches_[pe].bytes.empty()) send_now(pe, routine);
}

void PutBatches::send_now(int pe, const char *routine) noexcept {
  Batch &batch = batches_[pe];
  for (std::size_t i = 0; i < filled_.size(); ++i)
    if (filled_[i] == pe) {
      filled_[i] = filled_.back();
      filled_.pop_back();
      filled_count_.store(filled_.size(), std::memory_order_relaxed);
      break;
    }
  if (batch.bytes.empty()) return;
  // A batch with gets carries its number, and their destinations wait for the answer.
  std::uint64_t number = 0;
  if (!batch.gets.empty()) {
    number = ++get_batches_sent_;
    std::lock_guard lock(gets_mutex_);
    awaited_gets_.emplace(number, std::move(batch.gets));
    batch.gets.clear();
    batch.get_bytes = 0;
  }
  // The target answers once the puts are in place, when asked (always for gets, whose bytes come
  // in the answer); the next quiet waits for the answers, and asks for one where none was.
  const bool ask = asks_answer(pe) || number != 0;
  if (worker_->am_send(pe, ucx::UcxWorker::kPutBatchMessageId, number != 0 ? &number : nullptr,
                       number != 0 ? sizeof number : 0, batch.bytes.data(), batch.bytes.size(),
                       /*replyable=*/ask) != Status::ok)
    fatal(fmt::format("{}: sending combined puts to PE {} failed in UCX (see the message above)",
                      routine, pe));
  sent(pe, ask);
  batch.bytes.clear();
}

Status accept_put_batches(ucx::UcxWorker &receiver, Runtime &runtime) noexcept {
  batch_receiver = {&runtime, &receiver};
  return receiver.set_am_handler(ucx::UcxWorker::kPutBatchMessageId, on_put_batch, &runtime);
}

void send_default_batches(const char *routine) noexcept {
  Runtime *rt = g_runtime;
  if (rt != nullptr && rt->put_batches.any()) rt->put_batches.send_all(routine);
}

}  // namespace shoal::rma
