// Small nonblocking puts (and gets) to PEs of other nodes, combined into one message per PE.
//
// Over TCP every put is a system call at the sender and a message to unpack at the target,
// whatever its size: a window of 8-byte shmem_putmem_nbi calls costs about 7.5 us each. Here
// a nonblocking put of up to a quarter of a batch to a PE of another node is copied into that
// PE's batch instead, and the batch leaves as one active message, whose handler at the target
// copies each put into place, when
//   * the program completes its puts (quiet, pe_quiet, a barrier),
//   * it issues any other operation to that PE (a blocking put, a get, an AMO): operations to
//     one PE leave in the order the program issued them, so a fence, which orders only puts to
//     one PE, leaves the batches where they are; a non-fetching AMO joins a batch with puts in
//     it (nonblocking puts, a fence and a flag are one message: a ping-pong of 8-byte
//     putmem_nbi, fence and atomic_set across two namespace hosts took 15 us each way in two
//     messages, 7.6 in one; OSHMEM 17),
//   * it waits or tests inside the library (wait_until, a collective, a blocking get), so a
//     PE that puts and then waits for an answer never waits for its own unsent put,
//   * or the batch is full (batch_bytes(): 64 KiB, less in jobs of more than 256 PEs).
// The target's handler answers a batch that asks for it, once its puts are in place, with an
// empty message to the sending worker (naming the answering PE), and the next quiet waits until
// every batch sent to each PE is answered: put + quiet takes one message each way. A message
// asks only where a quiet came after the last message to its PE (asks_answer): a program that
// puts, fences and sets a flag, and has the peer answer the same way, never quiets, and each
// answer would cost a target a second message before it gets to its own (a put, fence and
// atomic_set ping-pong across two namespace hosts: 18.4 us each way asking, 13.3 not; the
// atomic_set alone 11.8 and 7.5). The next quiet asks each PE sent messages that did not ask
// for one answer covering them. (Earlier a fetching AMO
// followed each batch as its proof; over TCP that was a second system call at each end, each a few
// microseconds through the kernel: 16 B put + quiet across two namespace hosts took 19-21 us
// against 10.4 for the answered batch.) A blocking put of up to kPiecedPutMax bytes joins its
// PE's batch too, and the batch leaves at once; one too large for a batch leaves on its own right
// after it, from the caller's buffer, in messages of up to kAnsweredPutMax bytes of which only
// the last may ask for an answer (the target handles one connection's messages in order). (A
// UCX put + flush over TCP takes two round trips: 4 KiB + quiet 12 us as a batch, 4104 B 22.5 us
// through UCX.) A blocking put larger than kPiecedPutMax goes as one message by UCX's
// rendezvous protocol (put_rendezvous): UCX then moves the bytes from the caller's buffer into
// place at the target, with no reassembly buffer between and none of the round trips of its
// emulated put over TCP. It returns once the target answered that they are in place, since UCX
// moves them after the message, where later eager messages could pass them. A blocking get
// larger than kRendezvousGetMin is answered the same way, from the target's memory into the
// caller's. Across two namespace hosts, us, against UCX's put and get: put + quiet
// 512 KiB 124-127 against 142-145, 1 MiB 184-188 against 244-254; get 1 MiB 186-187 against
// 221-223 (512 KiB: the same).
//
// A nonblocking get of up to a quarter of a batch joins the batch too, as a record without
// data: the target copies its bytes into the batch's answer, and they land in place when the
// answer arrives, which the next quiet waits for. Over TCP a UCX get is a request and a reply,
// a system call at each end for each get (a window of 8-byte gets: 6.7 us per get).
//
// The blocks of a strided put or get of up to a quarter of a batch each join it the same way
// (rma.cpp, transfer_strided): the put's batch leaves at once, the get waits for the answers.
//
// Combining is for transports where every put needs the target's CPU anyway (UCX executes
// AMOs in software: Runtime::amo_routing); elsewhere, and for PEs of this node, nothing is
// combined. SMA_COALESCE_PUTS=0 turns it off. Every context combines. Under
// SHMEM_THREAD_MULTIPLE the batches of the default, shared and SERIALIZED contexts take a
// mutex (their workers are thread-safe, and any thread's wait may send them); a private
// context's (SHMEM_CTX_PRIVATE) are its one thread's. Each
// context has batches of its own, sent on its own worker, except where contexts share the
// default worker (no progress thread): there they share the default context's batches too. Across
// namespace hosts 8-byte shmem_ctx_putmem_nbi on a private context went from 0.13 to 5.1 Mops/s
// (OSHMEM: 0.15).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <ucp/api/ucp.h>

#include "status.hpp"

struct shoal_ctx;

namespace shoal {
struct Runtime;
namespace ucx {
class UcxWorker;
}
}  // namespace shoal

namespace shoal::rma {

struct Target;

// The updates a message may apply to a word of its target (PutBatches::amo, put_signal).
enum class WordUpdate : std::uint32_t { set, add, bit_and, bit_or, bit_xor };

// The largest blocking put that is combined: it leaves at once, one message instead of a UCX
// put and flush; up to what one of UCX's TCP buffers holds (transport/tcp_segments.hpp), so
// the target reads it in one piece.
inline constexpr std::size_t kAnsweredPutMax = 64 * 1024;

// The largest blocking put, or put with signal, sent as messages of up to kAnsweredPutMax
// (PutBatches::add, put_signal); a larger put goes by rendezvous (put_rendezvous), a larger put
// with signal as a UCX put (then a fence and an AMO for the signal), whose zero-copy transfer
// wins from there. Across two namespace hosts, us,
// messages against the UCX path: put-with-signal ping-pong 128 KiB 28-30 against 43-44, 256 KiB
// 59-60 against 64.5-66, 1 MiB 252-399 against 207-232; put + quiet 128 KiB 33 against 48-51.
inline constexpr std::size_t kPiecedPutMax = 256 * 1024;

// The smallest blocking get that is answered by rendezvous, plus one (PutBatches::get_rendezvous):
// below, a UCX get, which over TCP is a request and its answer, copied into and out of UCX's
// buffers at both ends.
inline constexpr std::size_t kRendezvousGetMin = kPiecedPutMax;

// The size at which a batch leaves on its own, from the number of PEs on other nodes: 64 KiB,
// less where batches to every one of them would take more than kBatchesBudget, never below
// 8 KiB. A nonblocking put of up to a quarter of it is combined: a copy costs far less than
// the system call it saves. put_bw across namespace hosts, MB/s, with 8 KiB batches and puts
// up to 2 KiB against 64 KiB and 16 KiB: 2 KiB puts 725 -> 3040, 4 KiB 390 -> 4130, 8 KiB
// 770 -> 4570, 16 KiB 1540 -> 4630.
inline constexpr std::size_t kBatchBytesMax = 64 * 1024;
inline constexpr std::size_t kBatchBytesMin = 8 * 1024;
inline constexpr std::size_t kBatchesBudget = std::size_t{16} << 20;
constexpr std::size_t batch_bytes(std::size_t remote_pes) noexcept {
  const std::size_t share = remote_pes == 0 ? kBatchBytesMax : kBatchesBudget / remote_pes;
  return share > kBatchBytesMax ? kBatchBytesMax : share < kBatchBytesMin ? kBatchBytesMin : share;
}
static_assert(batch_bytes(1) == kBatchBytesMax && batch_bytes(256) == kBatchBytesMax);
static_assert(batch_bytes(1024) == 16 * 1024 && batch_bytes(100000) == kBatchBytesMin);

class PutBatches {
 public:
  // Binds the batches to the worker they are sent on, and decides which PEs get them: every PE
  // of another node. A null worker: nothing is combined (what was not sent is dropped). On a
  // thread-safe worker every call takes a mutex: several threads may use the batches at once.
  void init(const Runtime &runtime, ucx::UcxWorker *worker);
  bool enabled() const noexcept { return !batches_.empty(); }
  // Whether a put of `bytes` to pe is combined.
  bool combines(int pe, std::size_t bytes, bool blocking) const noexcept {
    return (blocking || bytes <= batch_bytes_ / 4) && eligible(pe);
  }
  // Whether a nonblocking get of `bytes` from pe is combined: up to a quarter of a batch.
  bool combines_get(int pe, std::size_t bytes) const noexcept {
    return bytes <= batch_bytes_ / 4 && eligible(pe);
  }
  // Whether a blocking get of `bytes` from pe is answered by rendezvous (get_rendezvous):
  // above kRendezvousGetMin.
  bool gets_by_rendezvous(int pe, std::size_t bytes) const noexcept {
    return bytes > kRendezvousGetMin && eligible(pe);
  }
  // A blocking get from pe (gets_by_rendezvous holds): one message, whose answer brings the
  // bytes by rendezvous, from pe's memory into `dest`; returns once they are there.
  void get_rendezvous(int pe, const Target &target, void *dest, std::size_t bytes,
                      const char *routine) noexcept;
  // Adds one nonblocking get to pe's batch: the target copies the bytes into its answer, and
  // they land in `dest` when the answer arrives (by the next quiet, which waits for it).
  void add_get(int pe, const Target &target, void *dest, std::size_t bytes,
               const char *routine) noexcept;
  // Adds one put (its bytes are copied or sent: source may be reused on return); one too large
  // for a batch is sent at once, after pe's batch, in messages of up to kAnsweredPutMax.
  void add(int pe, const Target &target, const void *source, std::size_t bytes,
           const char *routine) noexcept;
  // Whether a put with signal of `bytes` to pe travels in messages of this PE's (put_signal
  // below): up to kPiecedPutMax, for the PEs that get batches.
  bool combines_signal(int pe, std::size_t bytes) const noexcept {
    return bytes <= kPiecedPutMax && eligible(pe);
  }
  // A put with signal to pe (combines_signal(pe) holds): pe's batch, then one message with the
  // data (`bytes` from `source`, possibly none) for `data` and the signal, which the target's
  // handler sets or adds (`add`) to `signal` after copying the data, with a CPU atomic: atomic
  // with the AMOs UCX executes there in software. The message is not answered (in a ping-pong
  // of put-with-signal the answer would cost each side a second message); the next quiet asks
  // pe for one answer covering it. Data beyond kAnsweredPutMax goes ahead in unanswered
  // messages of that size, and the last piece with the signal: the target handles one
  // connection's messages in order, so the signal moves after every piece is in place, with no
  // round trip. Returns once source may be reused.
  void put_signal(int pe, const Target &data, const void *source, std::size_t bytes,
                  const Target &signal, std::uint64_t value, bool add,
                  const char *routine) noexcept;
  // Whether a non-fetching AMO on a word of pe travels as a message of this PE's (amo below).
  bool combines_amo(int pe) const noexcept { return eligible(pe); }
  // A non-fetching AMO on a `width`-byte word of pe (combines_amo(pe) holds): pe's batch, then
  // one message, whose handler at the target applies the update with a CPU atomic, as for a
  // put with signal. It asks for an answer as a batch does (asks_answer), so that an AMO +
  // quiet is one round trip, as a UCX AMO and its reply; otherwise it goes unanswered, and the
  // next quiet asks pe once. A window of AMOs then costs the target one message each and no
  // reply.
  void amo(int pe, const Target &word, std::uint64_t value, WordUpdate update, std::size_t width,
           const char *routine) noexcept;
  // Sends pe's batch, if it has one.
  void send(int pe, const char *routine) noexcept {
    if (!any()) return;
    Guard guard(*this);
    send_one(pe, routine);
  }
  // Sends every batch that has puts.
  void send_all(const char *routine) noexcept;
  bool any() const noexcept { return filled_count_.load(std::memory_order_relaxed) != 0; }
  // For quiet: sends every batch, asks every PE sent messages without an answer for one, and
  // waits until every message sent for an answer was answered. The puts of those messages, and
  // of every message sent before them to the same PE, are then done at the target.
  void complete_all(const char *routine) noexcept;
  // The handler of the answers, on the worker that sends the batches (before any is sent); a
  // worker that other batches used before is taken over.
  Status accept_answers(ucx::UcxWorker &sender) noexcept;

 private:
  // Holds mutex_ for one call where several threads may use the batches (init).
  class Guard {
   public:
    explicit Guard(PutBatches &b) : lock_(b.mutex_, std::defer_lock) {
      if (b.locked_) lock_.lock();
    }

   private:
    std::unique_lock<std::mutex> lock_;
  };
  // Where the bytes of a combined get go, in the order of its batch's records.
  struct GetDestination {
    std::byte *local;
    std::size_t bytes;
  };
  struct Batch {
    bool eligible = false;
    bool unanswered = false;       // in unanswered_
    bool awaited = false;          // in awaited_
    bool quiet_since_sent = true;  // no message went to the PE since the last quiet
    std::uint64_t sent = 0;        // messages sent that ask for an answer
    std::vector<std::byte> bytes;  // records (see put_batch.cpp), capacity batch_bytes_
    std::vector<GetDestination> gets;
    std::size_t get_bytes = 0;  // what the answer will carry
  };
  static ucs_status_t on_answer(void *arg, const void *header, std::size_t header_bytes, void *data,
                                std::size_t bytes, const ucp_am_recv_param_t *param) noexcept;
  // on_answer() for the answer of get_rendezvous(): receives its bytes into the get's
  // destination, and counts the answer once they are there.
  void receive_rendezvous_get(std::uint32_t pe, std::uint64_t number, void *descriptor,
                              std::size_t bytes, const ucp_am_recv_param_t *param) noexcept;
  // Whether pe gets a batch (false for a PE out of range: the caller reports it).
  bool eligible(int pe) const noexcept {
    return pe >= 0 && static_cast<std::size_t>(pe) < batches_.size() && batches_[pe].eligible;
  }
  // The calls below expect mutex_ held where the batches are locked.
  void send_one(int pe, const char *routine) noexcept;
  void send_now(int pe, const char *routine) noexcept;
  // A blocking put of more than kPiecedPutMax: one message by rendezvous (UCX moves its bytes
  // from `source` into place), answered once they are there; returns after the answer, so
  // that nothing this PE issues to pe later can be handled before the bytes are in place
  // (UCX's rendezvous moves the bytes after the message, and eager messages may pass them).
  void put_rendezvous(int pe, const Target &target, const void *source, std::size_t bytes,
                      const char *routine) noexcept;
  // Records the message just sent to pe, which asked for an answer, and waits for the answer.
  // The caller holds the guard through it: no other thread's message to pe, answered before
  // this one, can then pass for its answer.
  void await_answer(int pe) noexcept;
  // Sends all but the last piece of a put of `bytes` from `source` to `target` on pe, in
  // messages of kAnsweredPutMax bytes that ask for no answer, and returns how many bytes they
  // carried: the caller's one last message carries the rest (up to kAnsweredPutMax), and
  // records itself with sent(), which covers the pieces too (handled in order).
  std::size_t send_leading_pieces(int pe, const Target &target, const void *source,
                                  std::size_t bytes, const char *routine) noexcept;
  void send_all_held(const char *routine) noexcept;
  // Records a message to pe that asks for an answer (sent), or that does not (unanswered): the
  // next quiet asks pe for one.
  void sent_answered(int pe) noexcept;
  void sent_unanswered(int pe) noexcept;
  void sent(int pe, bool answered) noexcept;
  // Whether the next message to pe asks for an answer: when pe owes this PE none and a quiet
  // came after the last message to it (see the top of this file).
  bool asks_answer(int pe) noexcept;
  ucx::UcxWorker *worker_ = nullptr;  // what the batches are sent on (init)
  bool locked_ = false;               // several threads may use the batches (init)
  std::mutex mutex_;
  std::vector<Batch> batches_;  // by world PE; empty: nothing is combined
  std::size_t batch_bytes_ = kBatchBytesMax;
  std::vector<int> filled_;  // the PEs whose batch has puts
  std::atomic<std::size_t> filled_count_{0};
  std::vector<int> unanswered_;  // the PEs sent messages that asked for no answer, since then
  std::vector<int> awaited_;     // the PEs that may owe answers (Batch::sent above answered_)
  // Answers received, by world PE: each PE answers its messages in the order they were sent.
  std::vector<std::atomic<std::uint64_t>> answered_;
  // The destinations of the gets of batches sent and not yet answered, by batch number, under
  // gets_mutex_: the handler of the answers runs on whichever thread progresses the worker,
  // and never takes mutex_ (a thread holding it may be progressing the worker to send).
  std::mutex gets_mutex_;
  std::unordered_map<std::uint64_t, std::vector<GetDestination>> awaited_gets_;
  std::uint64_t get_batches_sent_ = 0;
};

// Installs the receiving side on the worker other PEs send to (before they can).
Status accept_put_batches(ucx::UcxWorker &receiver, Runtime &runtime) noexcept;

// Sends the default context's batches: for waits inside the library (wait.hpp; those of the
// other contexts: ctx::send_own_batches). Cheap when there are none.
void send_default_batches(const char *routine) noexcept;

}  // namespace shoal::rma
