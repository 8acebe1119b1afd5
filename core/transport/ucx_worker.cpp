#include "transport/ucx_worker.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "wait.hpp"

#include "transport/progress_thread.hpp"

#include "log/log.hpp"

namespace shoal::ucx {

namespace {

// Another PE is ending the job (UcxWorker::announce_job_end).
ucs_status_t on_job_end_message(void *, const void *, size_t, void *, size_t,
                                const ucp_am_recv_param_t *) {
  note_job_ending();
  return UCS_OK;
}

}  // namespace

Status UcxWorker::init(UcxContext &context, Threads threads, int n_pes) {
  ucp_worker_params_t params{};
  params.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
  params.thread_mode = threads == Threads::multiple     ? UCS_THREAD_MODE_MULTI
                       : threads == Threads::serialized ? UCS_THREAD_MODE_SERIALIZED
                                                        : UCS_THREAD_MODE_SINGLE;
  thread_safe_ = threads == Threads::multiple;
  SMA_TRY(from_ucs(ucp_worker_create(context.handle(), &params, &worker_), "ucp_worker_create"));
  peers_.assign(static_cast<std::size_t>(n_pes), Peer{});
  // Every worker takes the end-of-job message: peers send it to the one they know as this PE's
  // receiving worker.
  return set_am_handler(kJobEndMessageId, on_job_end_message, nullptr);
}

int UcxWorker::event_fd() const noexcept {
  int fd = -1;
  if (ucs_status_t rc = ucp_worker_get_efd(worker_, &fd); rc != UCS_OK)
    SMA_LOG_ERROR("ucx", "ucp_worker_get_efd failed: {}", ucs_status_string(rc));
  return fd;
}

Status UcxWorker::address(std::vector<std::byte> &out) const {
  ucp_address_t *addr = nullptr;
  size_t length = 0;
  SMA_TRY(from_ucs(ucp_worker_get_address(worker_, &addr, &length), "ucp_worker_get_address"));
  auto *bytes = reinterpret_cast<const std::byte *>(addr);
  out.assign(bytes, bytes + length);
  ucp_worker_release_address(worker_, addr);
  return Status::ok;
}

std::string UcxWorker::description() const {
  char *text = nullptr;
  std::size_t length = 0;
  std::FILE *stream = open_memstream(&text, &length);
  if (stream == nullptr) return {};
  ucp_worker_print_info(worker_, stream);
  std::fclose(stream);
  std::string out(text, length);
  std::free(text);
  return out;
}

Status UcxWorker::connect(int pe, std::span<const std::byte> worker_address,
                          const std::vector<std::vector<std::byte>> &packed_rkeys,
                          Placement placement) {
  Peer &peer = peers_[pe];
  ucp_ep_params_t params{};
  params.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS;
  params.address = reinterpret_cast<const ucp_address_t *>(worker_address.data());
  peer.owner = this;
  peer.pe = pe;
  if (placement == Placement::other_node) {
    params.field_mask |= UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE | UCP_EP_PARAM_FIELD_ERR_HANDLER;
    params.err_mode = UCP_ERR_HANDLING_MODE_PEER;
    params.err_handler.cb = on_peer_failure;
    params.err_handler.arg = &peer;  // peers_ never moves once init() sized it
  }
  SMA_TRY(from_ucs(ucp_ep_create(worker_, &params, &peer.ep), "ucp_ep_create"));
  peer.rkeys.assign(packed_rkeys.size(), nullptr);
  for (std::size_t s = 0; s < packed_rkeys.size(); ++s)
    if (!packed_rkeys[s].empty())  // an empty key: the peer has no such segment
      SMA_TRY(from_ucs(ucp_ep_rkey_unpack(peer.ep, packed_rkeys[s].data(), &peer.rkeys[s]),
                       "ucp_ep_rkey_unpack"));
  return Status::ok;
}

// An endpoint to a PE of another node failed: its process died (the connection was reset or
// closed) or its host stopped answering the transport's keepalive. UCX calls this from inside
// ucp_worker_progress, and only for endpoints the program has not closed (after shmem_finalize
// closed them, a peer that exits is no failure): note it, and let progress() report it once UCX
// returns, where the worker may be used again.
void UcxWorker::on_peer_failure(void *arg, ucp_ep_h, ucs_status_t status) noexcept {
  Peer &peer = *static_cast<Peer *>(arg);
  peer.failure = status;
  int none = -1;  // the first lost PE is the one reported
  peer.owner->lost_pe_.compare_exchange_strong(none, peer.pe, std::memory_order_release);
}

void UcxWorker::on_lost_peer() noexcept {
  if (!finishing_.load(std::memory_order_relaxed)) report_lost_peer();
  const int pe = lost_pe_.exchange(-1, std::memory_order_acq_rel);
  if (pe >= 0)
    SMA_LOG_DEBUG("ucx", "the connection to PE {} ended while every PE finalizes ({})", pe,
                  ucs_status_string(peers_[pe].failure));
}

// The PEs waiting for the lost one would wait forever, and UCX fails whatever is sent to it: end
// the job, naming it. The first PE to notice tells the others (announce_job_end), which then
// keep quiet about the PEs the launcher kills as it ends the job.
void UcxWorker::report_lost_peer() noexcept {
  const int pe = lost_pe_.load(std::memory_order_acquire);
  const std::string message = fmt::format(
      "lost the connection to PE {} ({}): PE {} has ended or its host cannot be "
      "reached; ending the job",
      pe, ucs_status_string(peers_[pe].failure), pe);
  if (job_ending()) fatal(message);  // another PE reported first: a consequence, logged quietly
  log::write_line(log::Level::error, message);
  announce_job_end();
  end_job(message);
}

void UcxWorker::announce_job_end() noexcept {
  ucp_request_param_t param{};
  param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
  param.flags = UCP_AM_SEND_FLAG_EAGER;
  std::vector<ucs_status_ptr_t> pending;
  try {
    pending.reserve(peers_.size());
  } catch (...) {
    return;
  }
  for (const Peer &peer : peers_) {
    // Not to a failed endpoint: UCX 1.13 may abort the process on a send there.
    if (peer.ep == nullptr || peer.failure != UCS_OK) continue;
    const ucs_status_ptr_t request =
        ucp_am_send_nbx(peer.ep, kJobEndMessageId, nullptr, 0, nullptr, 0, &param);
    if (UCS_PTR_IS_PTR(request)) pending.push_back(request);
  }
  // Bounded: a PE that died unnoticed (one of this node, say) may never take its message.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(kAnnounceLimitMs);
  for (ucs_status_ptr_t request : pending) {
    while (ucp_request_check_status(request) == UCS_INPROGRESS &&
           std::chrono::steady_clock::now() < deadline)
      ucp_worker_progress(worker_);
    ucp_request_free(request);  // UCX releases one still in flight when it completes
  }
}

Status UcxWorker::wait(ucs_status_ptr_t request, const char *what, unsigned limit_ms) noexcept {
  if (request == nullptr) return Status::ok;
  if (UCS_PTR_IS_ERR(request)) return from_ucs(UCS_PTR_STATUS(request), what);
  ucs_status_t status = UCS_INPROGRESS;
  bool abandoned = false;
  unsigned checks = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(limit_ms);
  wait_for_replies(*this, [&] {
    if ((status = ucp_request_check_status(request)) != UCS_INPROGRESS) return true;
    if (limit_ms != 0 && ++checks % 1024 == 0 && std::chrono::steady_clock::now() > deadline)
      abandoned = true;
    return abandoned;
  });
  ucp_request_free(request);
  if (abandoned) {
    SMA_LOG_WARN("ucx", "{} did not complete within {} ms; abandoned", what, limit_ms);
    return Status::transport_error;
  }
  return from_ucs(status, what);
}

Status UcxWorker::track(ucs_status_ptr_t request, const char *what, std::uint64_t *reply) noexcept {
  if (request == nullptr || UCS_PTR_IS_ERR(request)) {
    if (reply) release_reply(reply);
    return request == nullptr ? Status::ok : from_ucs(UCS_PTR_STATUS(request), what);
  }
  std::unique_lock lock(in_flight_mutex_, std::defer_lock);
  if (thread_safe_) lock.lock();
  // A program may issue many nonblocking operations between quiets: keep the list short.
  if (in_flight_.size() >= kReapThreshold)
    if (Status s = reap_completed(); s != Status::ok) {
      in_flight_.push_back({request, reply});  // still in flight: the next flush waits for it
      return s;
    }
  in_flight_.push_back({request, reply});
  return Status::ok;
}

std::uint64_t *UcxWorker::reply_word() {
  std::unique_lock lock(in_flight_mutex_, std::defer_lock);
  if (thread_safe_) lock.lock();
  if (free_replies_.empty()) {
    std::uint64_t *word = &reply_words_.emplace_back(0);
    free_replies_.reserve(reply_words_.size());  // so that giving a word back never allocates
    return word;
  }
  std::uint64_t *word = free_replies_.back();
  free_replies_.pop_back();
  return word;
}

void UcxWorker::release_reply(std::uint64_t *word) noexcept {
  std::unique_lock lock(in_flight_mutex_, std::defer_lock);
  if (thread_safe_) lock.lock();
  free_replies_.push_back(word);  // never grows past reply_words_, reserved in reply_word()
}

Status UcxWorker::reap_completed() noexcept {
  Status result = Status::ok;
  std::size_t kept = 0;
  for (const InFlight &op : in_flight_) {
    const ucs_status_t status = ucp_request_check_status(op.request);
    if (status == UCS_INPROGRESS) {
      in_flight_[kept++] = op;
      continue;
    }
    ucp_request_free(op.request);
    if (op.reply) free_replies_.push_back(op.reply);
    if (status != UCS_OK && result == Status::ok)
      result = from_ucs(status, "a nonblocking transfer");
  }
  in_flight_.resize(kept);
  return result;
}

Status UcxWorker::wait_in_flight() noexcept {
  std::vector<InFlight> ops;
  {
    std::unique_lock lock(in_flight_mutex_, std::defer_lock);
    if (thread_safe_) lock.lock();
    ops.swap(in_flight_);
  }
  Status result = Status::ok;
  for (const InFlight &op : ops) {
    if (Status s = wait(op.request, "a nonblocking operation");
        s != Status::ok && result == Status::ok)
      result = s;
    if (op.reply) release_reply(op.reply);
  }
  return result;
}

Status UcxWorker::set_am_handler(unsigned id, ucp_am_recv_callback_t handler, void *arg) noexcept {
  ucp_am_handler_param_t param{};
  param.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
                     UCP_AM_HANDLER_PARAM_FIELD_ARG;
  param.id = id;
  param.cb = handler;
  param.arg = arg;
  return from_ucs(ucp_worker_set_am_recv_handler(worker_, &param),
                  "ucp_worker_set_am_recv_handler");
}

Status UcxWorker::am_send(int pe, unsigned id, const void *header, std::size_t header_bytes,
                          const void *data, std::size_t bytes, bool replyable) noexcept {
  ucp_request_param_t param{};
  param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
  param.flags = UCP_AM_SEND_FLAG_EAGER | (replyable ? UCP_AM_SEND_FLAG_REPLY : 0);
  return wait(ucp_am_send_nbx(peers_[pe].ep, id, header, header_bytes, data, bytes, &param),
              "ucp_am_send_nbx");
}

Status UcxWorker::am_send_rendezvous(int pe, unsigned id, const void *header,
                                     std::size_t header_bytes, const void *data,
                                     std::size_t bytes) noexcept {
  ucp_request_param_t param{};
  param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
  param.flags = UCP_AM_SEND_FLAG_RNDV | UCP_AM_SEND_FLAG_REPLY;
  return wait(ucp_am_send_nbx(peers_[pe].ep, id, header, header_bytes, data, bytes, &param),
              "ucp_am_send_nbx");
}

namespace {
// What a rendezvous receive calls back with once its data is in place.
struct RendezvousReceive {
  UcxWorker::RendezvousDone done;
  void *arg;
  ucp_ep_h reply_ep;
};
}  // namespace

Status UcxWorker::receive_rendezvous(void *descriptor, const ucp_am_recv_param_t *param, void *dest,
                                     std::size_t bytes, RendezvousDone done, void *arg) noexcept {
  const ucp_ep_h reply_ep =
      (param->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP) ? param->reply_ep : nullptr;
  auto *receive = new (std::nothrow) RendezvousReceive{done, arg, reply_ep};
  if (receive == nullptr) return Status::no_memory;
  ucp_request_param_t recv{};
  recv.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
  recv.cb.recv_am = [](void *request, ucs_status_t status, std::size_t, void *user_data) {
    auto *r = static_cast<RendezvousReceive *>(user_data);
    if (status == UCS_OK) r->done(r->arg, r->reply_ep);
    delete r;
    ucp_request_free(request);
  };
  recv.user_data = receive;
  const ucs_status_ptr_t request = ucp_am_recv_data_nbx(worker_, descriptor, dest, bytes, &recv);
  if (UCS_PTR_IS_ERR(request)) {
    delete receive;
    return from_ucs(UCS_PTR_STATUS(request), "ucp_am_recv_data_nbx");
  }
  if (request == nullptr) {  // in place already: no callback comes
    done(arg, reply_ep);
    delete receive;
  }
  return Status::ok;
}

Status UcxWorker::reply(const ucp_am_recv_param_t *param, unsigned id, const void *header,
                        std::size_t header_bytes, const void *data, std::size_t bytes) noexcept {
  if (!(param->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP)) return Status::transport_error;
  return reply_to(param->reply_ep, id, header, header_bytes, data, bytes);
}

Status UcxWorker::reply_to(ucp_ep_h reply_ep, unsigned id, const void *header,
                           std::size_t header_bytes, const void *data, std::size_t bytes) noexcept {
  return send_reply(reply_ep, id, header, header_bytes, data, bytes, /*rendezvous=*/false);
}

Status UcxWorker::reply_by_rendezvous(const ucp_am_recv_param_t *param, unsigned id,
                                      const void *header, std::size_t header_bytes,
                                      const void *data, std::size_t bytes) noexcept {
  if (!(param->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP)) return Status::transport_error;
  return send_reply(param->reply_ep, id, header, header_bytes, data, bytes, /*rendezvous=*/true);
}

Status UcxWorker::send_reply(ucp_ep_h reply_ep, unsigned id, const void *header,
                             std::size_t header_bytes, const void *data, std::size_t bytes,
                             bool rendezvous) noexcept {
  if (reply_ep == nullptr) return Status::transport_error;
  ucp_request_param_t send{};
  send.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
  send.flags = rendezvous ? UCP_AM_SEND_FLAG_RNDV : UCP_AM_SEND_FLAG_EAGER;
  // A copy that lives until UCX is done with it: the caller's may go away on return (by
  // rendezvous, the header's only: the data goes from where it is).
  const std::size_t copied = header_bytes + (rendezvous ? 0 : bytes);
  void *copy = nullptr;
  if (copied != 0) {
    copy = std::malloc(copied);
    if (copy == nullptr) return Status::no_memory;
    if (header_bytes != 0) std::memcpy(copy, header, header_bytes);
    if (!rendezvous && bytes != 0)
      std::memcpy(static_cast<std::byte *>(copy) + header_bytes, data, bytes);
  }
  if (copy != nullptr || rendezvous) {
    send.op_attr_mask |= UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    // The callback releases the request too: ucp_request_free() on a request still in flight
    // cancels its callback, which leaked the copy of every reply that did not leave at once (a
    // get batch's answer of more than one TCP segment).
    send.cb.send = [](void *request, ucs_status_t, void *user_data) {
      std::free(user_data);
      ucp_request_free(request);
    };
    send.user_data = copy;
  }
  auto *at = static_cast<std::byte *>(copy);
  const void *payload = rendezvous ? data : (at == nullptr ? nullptr : at + header_bytes);
  const ucs_status_ptr_t request =
      ucp_am_send_nbx(reply_ep, id, at, header_bytes, payload, bytes, &send);
  if (request == nullptr || UCS_PTR_IS_ERR(request)) std::free(copy);  // no callback comes
  if (UCS_PTR_IS_ERR(request)) return from_ucs(UCS_PTR_STATUS(request), "ucp_am_send_nbx");
  // Without a callback the request is released now, and completes in UCX.
  if (request != nullptr && !(send.op_attr_mask & UCP_OP_ATTR_FIELD_CALLBACK))
    ucp_request_free(request);
  return Status::ok;
}

Status UcxWorker::flush() noexcept {
  const Status in_flight = wait_in_flight();
  const Status flushed = wait(start_flush(), "ucp_worker_flush_nbx");
  return in_flight != Status::ok ? in_flight : flushed;
}

ucs_status_ptr_t UcxWorker::start_flush() noexcept {
  ucp_request_param_t param{};
  return ucp_worker_flush_nbx(worker_, &param);
}

Status UcxWorker::fence() noexcept {
  return from_ucs(ucp_worker_fence(worker_), "ucp_worker_fence");
}

void UcxWorker::close_endpoints() noexcept {
  if (!worker_) return;
  if (wait_in_flight() != Status::ok)
    SMA_LOG_WARN("ucx", "a nonblocking transfer failed while closing a worker");
  for (std::size_t pe = 0; pe < peers_.size(); ++pe) {
    Peer &peer = peers_[pe];
    for (ucp_rkey_h rkey : peer.rkeys)
      if (rkey) ucp_rkey_destroy(rkey);
    peer.rkeys.clear();
    if (peer.ep) {
      // Flush mode: every PE closes after the finalize barrier, so nothing but the close itself
      // is in flight; the peer completes it while it progresses its receiving worker (force
      // mode would need peer error handling).
      // An endpoint whose connection already ended (peers_finishing) closes at once.
      ucp_request_param_t param{};
      if (peer.failure != UCS_OK) {
        param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
        param.flags = UCP_EP_CLOSE_FLAG_FORCE;
      }
      if (wait(ucp_ep_close_nbx(peer.ep, &param), "ucp_ep_close_nbx", kCloseLimitMs) !=
              Status::ok &&
          peer.failure == UCS_OK)
        SMA_LOG_WARN("ucx", "closing the endpoint to PE {} failed; continuing", pe);
      peer.ep = nullptr;
    }
  }
}

void UcxWorker::close() noexcept {
  if (!worker_) return;
  close_endpoints();
  ucp_worker_destroy(worker_);
  worker_ = nullptr;
}

}  // namespace shoal::ucx
