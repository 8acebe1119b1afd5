// A UCP worker with one endpoint and one set of unpacked remote keys per PE. Every context
// issues its operations on one of these (the default context on the runtime's own worker).
#pragma once

#include <ucp/api/ucp.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "status.hpp"
#include "transport/ucx_context.hpp"

namespace shoal::ucx {

class UcxWorker {
 public:
  UcxWorker() = default;
  UcxWorker(const UcxWorker &) = delete;
  UcxWorker &operator=(const UcxWorker &) = delete;
  ~UcxWorker() { close(); }

  // How threads use the worker: one thread only; several, one at a time (the caller
  // serializes them, as the receiving worker's lease does); several at once.
  enum class Threads { single, serialized, multiple };
  Status init(UcxContext &context, Threads threads, int n_pes);
  bool thread_safe() const noexcept { return thread_safe_; }
  Status address(std::vector<std::byte> &out) const;
  // What ucp_worker_print_info says about the worker (its transports, the ones for atomics).
  std::string description() const;

  // Where a peer runs, which decides what happens when it dies:
  // - other_node: the endpoint asks UCX for peer failure handling, so a peer that dies (its
  //   connection reset or closed, or its host gone quiet past the transport's keepalive) ends
  //   the job with a message naming the PE (see progress()), instead of UCX aborting this PE on
  //   its own ("Fatal: unexpected error") or this PE waiting for it forever;
  // - this_node: UCX 1.13's shared-memory transports cannot report a dead peer, and an endpoint
  //   that asks for it is given TCP instead (or, in a job on one node, no transport at all), so
  //   these endpoints ask for nothing: the launcher ends the job, and PEs on other nodes notice.
  enum class Placement { this_node, other_node };
  // Connects to one PE's worker and unpacks that PE's remote keys (one per memory segment).
  Status connect(int pe, std::span<const std::byte> worker_address,
                 const std::vector<std::vector<std::byte>> &packed_rkeys,
                 Placement placement = Placement::this_node);

  ucp_ep_h ep(int pe) const noexcept { return peers_[pe].ep; }
  ucp_rkey_h rkey(int pe, int segment) const noexcept { return peers_[pe].rkeys[segment]; }

  // Progresses the worker. When an endpoint to a PE of another node failed meanwhile (UCX
  // reported it from inside the progress), ends the job naming that PE: see report_lost_peer().
  unsigned progress() noexcept {
    passes_.store(passes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    const unsigned events = ucp_worker_progress(worker_);
    if (lost_pe_.load(std::memory_order_relaxed) >= 0) [[unlikely]]
      on_lost_peer();
    return events;
  }
  // Every PE has passed the finalize barrier and closes its endpoints: from now on a connection
  // that goes away (a peer closed first, or has exited) is no failure. (Two receiving workers
  // that send to each other share one TCP connection, which the first of the two to close ends
  // for both: the other's endpoint then fails while it is still open.)
  void peers_finishing() noexcept { finishing_.store(true, std::memory_order_relaxed); }
  // How many times progress() ran (exact for a worker one thread drives at a time).
  std::uint64_t passes() const noexcept { return passes_.load(std::memory_order_relaxed); }
  // Tells every connected PE, best effort and within kAnnounceLimitMs, that this PE is ending
  // the job: from then on the errors they run into are consequences (shoal::job_ending()), and
  // they leave the report to this PE. Without it, as the launcher ends the job, the PEs it
  // kills first would be reported as lost by those of other nodes it kills later (Open MPI's
  // mpirun: up to a second later). Not from inside a UCX callback: it progresses the worker.
  static constexpr unsigned kAnnounceLimitMs = 200;
  void announce_job_end() noexcept;
  // For a thread that sleeps until work arrives (needs UCP_FEATURE_WAKEUP).
  int event_fd() const noexcept;
  ucs_status_t arm() noexcept { return ucp_worker_arm(worker_); }
  // Waits for a request returned by a *_nbx call and releases it. With a limit (in
  // milliseconds, 0: none), gives up once it passed: the request is released (UCX frees it
  // when it completes) and the result is Status::transport_error.
  Status wait(ucs_status_ptr_t request, const char *what, unsigned limit_ms = 0) noexcept;
  // Keeps an in-flight request of a nonblocking operation until the next flush() waits for it.
  // ucp_worker_flush_nbx alone is not enough: UCX 1.13's shared-memory transport can report a
  // worker flushed while operations still sit in an endpoint's pending queue (seen with several
  // workers sending to one receiver), so every request handle is waited for first.
  // `reply`, from reply_word(), is where a nonblocking AMO's reply lands: it goes back to the
  // pool when the request completes.
  Status track(ucs_status_ptr_t request, const char *what, std::uint64_t *reply = nullptr) noexcept;
  // A word for the reply of a nonblocking AMO, valid until the request tracked with it
  // completes; release_reply() returns it when the operation completed at once or failed.
  std::uint64_t *reply_word();
  void release_reply(std::uint64_t *word) noexcept;
  // Active message ids: 1 the store messages of core/rma, 2 the end of the job, 3 combined
  // puts and 4 their acknowledgements (rma/put_batch.hpp).
  static constexpr unsigned kJobEndMessageId = 2;
  static constexpr unsigned kPutBatchMessageId = 3;
  static constexpr unsigned kPutBatchAckMessageId = 4;
  // Active messages. set_am_handler() installs the function that runs for messages `id`
  // arriving at this worker (in whichever thread progresses it); install it before any peer
  // can send. am_send() sends one to PE pe's receiving worker through the eager protocol (the
  // handler sees the data in place, never a rendezvous) and returns once header and data may
  // be reused; no remote completion, no reply.
  Status set_am_handler(unsigned id, ucp_am_recv_callback_t handler, void *arg) noexcept;
  // `replyable`: the handler may answer with reply() (UCX then tells it the sender).
  Status am_send(int pe, unsigned id, const void *header, std::size_t header_bytes,
                 const void *data, std::size_t bytes, bool replyable = false) noexcept;
  // The same through UCX's rendezvous protocol, replyable: the handler sees a descriptor
  // (UCP_AM_RECV_ATTR_FLAG_RNDV) and takes the data with receive_rendezvous(), which has UCX
  // place it in the receiver's buffer, no reassembly buffer between. Across two namespace hosts
  // 1 MiB took 150-160 us against 220-230 for UCX's emulated put (ucx_perftest, ucp_am_bw
  // against ucp_put_bw); on Shoal's endpoints to other hosts, which ask for peer failure
  // handling and get no zero-copy lane from UCX 1.13 (docs/performance/internode.md), a 1 MiB
  // put + quiet took 184-188 us against 244-254 (rma/put_batch.hpp). Returns once data may be
  // reused, which for a large message is after the receiver asked for it.
  Status am_send_rendezvous(int pe, unsigned id, const void *header, std::size_t header_bytes,
                            const void *data, std::size_t bytes) noexcept;
  // From a handler of a message that came by rendezvous: receives its `bytes` into `dest`, and
  // calls done(arg, reply_ep) once they are in place, reply_ep being the message's (for
  // reply_to(); null when it was not replyable): at once when UCX has them already, otherwise
  // from a later progress of this worker. On failure done is not called.
  using RendezvousDone = void (*)(void *arg, ucp_ep_h reply_ep);
  Status receive_rendezvous(void *descriptor, const ucp_am_recv_param_t *param, void *dest,
                            std::size_t bytes, RendezvousDone done, void *arg) noexcept;
  // From a handler of a replyable message: sends message `id` back to the worker that sent it,
  // without waiting (UCX completes and releases it as the receiving worker progresses): empty,
  // or with a header and data, which are copied first and may be reused on return.
  static Status reply(const ucp_am_recv_param_t *param, unsigned id, const void *header = nullptr,
                      std::size_t header_bytes = 0, const void *data = nullptr,
                      std::size_t bytes = 0) noexcept;
  // The same on the reply endpoint of a message (RendezvousDone).
  static Status reply_to(ucp_ep_h reply_ep, unsigned id, const void *header = nullptr,
                         std::size_t header_bytes = 0, const void *data = nullptr,
                         std::size_t bytes = 0) noexcept;
  // reply() through the rendezvous protocol (am_send_rendezvous): the data is not copied, and
  // must stay where it is until UCX has sent it (this PE's symmetric memory, for a get).
  static Status reply_by_rendezvous(const ucp_am_recv_param_t *param, unsigned id,
                                    const void *header, std::size_t header_bytes, const void *data,
                                    std::size_t bytes) noexcept;
  // Completes every operation issued on this worker (remote completion).
  Status flush() noexcept;
  // Starts the same without waiting (the connection handshakes of its endpoints included): a
  // request for wait(), or null when there was nothing to complete.
  ucs_status_ptr_t start_flush() noexcept;
  // Orders operations issued before against those issued after.
  Status fence() noexcept;

  // Closes every endpoint (flush mode: each peer's receiving worker must be progressed until
  // the close completes) and releases the remote keys; the worker stays, still progressable.
  // A close that does not complete within kCloseLimitMs (the peer died, or its connection was
  // reset) is abandoned with a warning: finalize must not hang on a peer that is gone.
  static constexpr unsigned kCloseLimitMs = 10'000;
  void close_endpoints() noexcept;
  // close_endpoints(), then destroys the worker.
  void close() noexcept;

 private:
  struct Peer {
    ucp_ep_h ep = nullptr;
    std::vector<ucp_rkey_h> rkeys;
    UcxWorker *owner = nullptr;  // for UCX's peer failure callback (other_node endpoints)
    int pe = -1;
    ucs_status_t failure = UCS_OK;  // how the endpoint failed, if it did
  };
  static Status send_reply(ucp_ep_h reply_ep, unsigned id, const void *header,
                           std::size_t header_bytes, const void *data, std::size_t bytes,
                           bool rendezvous) noexcept;
  ucp_worker_h worker_ = nullptr;
  std::atomic<std::uint64_t> passes_{0};
  // The first PE whose endpoint failed (-1: none); set by UCX's peer failure callback, read by
  // progress() once UCX returns.
  std::atomic<int> lost_pe_{-1};
  std::atomic<bool> finishing_{false};  // peers_finishing()
  static void on_peer_failure(void *arg, ucp_ep_h ep, ucs_status_t status) noexcept;
  // After peers_finishing(): logs the lost PE at debug level; otherwise report_lost_peer().
  void on_lost_peer() noexcept;
  [[noreturn]] void report_lost_peer() noexcept;
  bool thread_safe_ = false;
  static constexpr std::size_t kReapThreshold = 1024;
  std::vector<Peer> peers_;
  // Requests handed out by track(), with their reply words; guarded by in_flight_mutex_ on
  // thread-safe workers, as are the reply words.
  struct InFlight {
    ucs_status_ptr_t request;
    std::uint64_t *reply;
  };
  std::vector<InFlight> in_flight_;
  std::deque<std::uint64_t> reply_words_;  // a deque: growing it moves no word
  std::vector<std::uint64_t *> free_replies_;
  std::mutex in_flight_mutex_;
  // Releases the requests that have completed; returns the first failure among them.
  Status reap_completed() noexcept;
  // Waits for every tracked request.
  Status wait_in_flight() noexcept;
};

}  // namespace shoal::ucx
