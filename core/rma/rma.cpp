#include "rma/rma.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>

#include "log/log.hpp"
#include "team/team.hpp"

namespace shoal::rma {

void not_running(const char *routine) noexcept {
  fatal(fmt::format(
      "{}: called {}", routine,
      library_state() == LibraryState::finalized ? "after shmem_finalize" : "before shmem_init"));
}

void pe_out_of_range(int pe, const char *routine) noexcept {
  fatal(fmt::format("{}: PE {} is out of range: this job has PEs 0 to {}", routine, pe,
                    g_runtime->n_pes - 1));
}

void invalid_ctx(const shoal_ctx *ctx, const char *routine) noexcept {
  fatal(fmt::format("{}: invalid context {} (SHMEM_CTX_INVALID or destroyed)", routine,
                    static_cast<const void *>(ctx)));
}

namespace {

[[noreturn]] void transport_failed(const char *routine, int pe) noexcept {
  fatal(fmt::format("{}: the transfer with PE {} failed in UCX (see the message above)", routine,
                    pe));
}

void *as_ptr(std::uintptr_t a) { return reinterpret_cast<void *>(a); }

// Up to kWindow UCX requests in flight; waited for when full and at the end, so a strided
// transfer keeps the network busy without unbounded bookkeeping.
class RequestWindow {
 public:
  RequestWindow(ucx::UcxWorker &worker, const char *routine, int pe)
      : worker_(worker), routine_(routine), pe_(pe) {}
  void add(ucs_status_ptr_t request) noexcept {
    if (request == nullptr) return;
    if (count_ == kWindow) drain();
    requests_[count_++] = request;
  }
  void drain() noexcept {
    for (int i = 0; i < count_; ++i)
      if (worker_.wait(requests_[i], routine_) != Status::ok) transport_failed(routine_, pe_);
    count_ = 0;
  }
  ~RequestWindow() { drain(); }

 private:
  static constexpr int kWindow = 64;
  ucx::UcxWorker &worker_;
  const char *routine_;
  int pe_;
  int count_ = 0;
  ucs_status_ptr_t requests_[kWindow];
};

ucs_status_ptr_t ucx_put(shoal_ctx *ctx, const void *source, std::size_t bytes, const Target &t,
                         int pe) noexcept {
  ctx->ucx_pending.store(true, std::memory_order_relaxed);
  if (g_runtime->bootstrap->on_this_node(pe))
    ctx->ucx_pending_here.store(true, std::memory_order_relaxed);
  ucp_request_param_t param{};
  return ucp_put_nbx(ctx->worker->ep(pe), source, bytes, t.remote, ctx->worker->rkey(pe, t.segment),
                     &param);
}

ucs_status_ptr_t ucx_get(shoal_ctx *ctx, void *dest, std::size_t bytes, const Target &t,
                         int pe) noexcept {
  ctx->ucx_pending.store(true, std::memory_order_relaxed);
  ucp_request_param_t param{};
  return ucp_get_nbx(ctx->worker->ep(pe), dest, bytes, t.remote, ctx->worker->rkey(pe, t.segment),
                     &param);
}

// Whether a put goes as an atomic swap (put_acknowledged): an aligned 4- or 8-byte word for a
// PE of another node that gets no batches (a word for one that does joins its batch: then a put,
// fence and flag update are two messages the target never answers, see put_batch.hpp).
bool acknowledged_word(std::size_t bytes, const Target &t, int pe) noexcept {
  return (bytes == 8 || bytes == 4) && t.remote % bytes == 0 &&
         !g_runtime->bootstrap->on_this_node(pe);
}

// A word put to another node as a UCX swap whose reply (the old value, ignored) proves it done,
// like a non-fetching AMO (atomics/amo.cpp): the request is tracked, and the next quiet waits
// for the reply instead of flushing the worker. Over TCP a put and a flush cost three messages
// (the put, the flush's request, its acknowledgement), the swap and its reply two: put + quiet
// takes one network round trip. Complete at the source on return (the operand is a copy).
template <typename Word>
void swap_in(shoal_ctx *ctx, const void *source, const Target &t, int pe,
             const char *routine) noexcept {
  ucx::UcxWorker &worker = *ctx->worker;
  Word operand;
  std::memcpy(&operand, source, sizeof operand);
  std::uint64_t *reply = worker.reply_word();
  ucp_request_param_t param{};
  param.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE | UCP_OP_ATTR_FIELD_REPLY_BUFFER;
  param.datatype = ucp_dt_make_contig(sizeof(Word));
  param.reply_buffer = reply;
  ctx->ucx_pending.store(true, std::memory_order_relaxed);
  const ucs_status_ptr_t request = ucp_atomic_op_nbx(worker.ep(pe), UCP_ATOMIC_OP_SWAP, &operand, 1,
                                                     t.remote, worker.rkey(pe, t.segment), &param);
  if (worker.track(request, routine, reply) != Status::ok) transport_failed(routine, pe);
}

void put_acknowledged(shoal_ctx *ctx, const void *source, std::size_t bytes, const Target &t,
                      int pe, const char *routine) noexcept {
  if (bytes == 8)
    swap_in<std::uint64_t>(ctx, source, t, pe, routine);
  else
    swap_in<std::uint32_t>(ctx, source, t, pe, routine);
}

// A count as the caller wrote it: a huge size_t is most likely a negative number converted.
std::string show_count(std::size_t n) {
  if (n <= static_cast<std::size_t>(PTRDIFF_MAX)) return std::to_string(n);
  return fmt::format("{} (that is {} as a signed number)", n, static_cast<std::ptrdiff_t>(n));
}

}  // namespace

void bad_count(std::size_t nelems, std::size_t elem_size, const void *addr, int pe,
               const char *routine) noexcept {
  fatal(
      fmt::format("{}: count {} of {}-byte elements at {} (PE {}) is negative or its size in "
                  "bytes overflows",
                  routine, show_count(nelems), elem_size, addr, pe));
}

std::size_t strided_extent(const void *addr, std::ptrdiff_t stride, std::size_t block_elems,
                           std::size_t nblocks, std::size_t elem_size, int pe,
                           const char *routine) noexcept {
  if (stride < 0)
    fatal(
        fmt::format("{}: negative stride {} at {} (PE {}): strides count elements and must be "
                    ">= 0",
                    routine, stride, addr, pe));
  constexpr auto kMax = static_cast<std::size_t>(PTRDIFF_MAX);
  std::size_t block_bytes = 0, step = 0, last = 0, extent = 0;
  const bool fits = block_elems <= kMax && nblocks <= kMax && nblocks > 0 &&
                    !__builtin_mul_overflow(block_elems, elem_size, &block_bytes) &&
                    !__builtin_mul_overflow(static_cast<std::size_t>(stride), elem_size, &step) &&
                    !__builtin_mul_overflow(nblocks - 1, step, &last) &&
                    !__builtin_add_overflow(last, block_bytes, &extent) && extent <= kMax;
  if (!fits)
    fatal(fmt::format(
        "{}: {} blocks of {} elements of {} bytes, {} elements apart, at {} (PE {}): "
        "a count is negative or the extent in bytes overflows",
        routine, show_count(nblocks), show_count(block_elems), elem_size, stride, addr, pe));
  return extent;
}

int to_world(const shoal_ctx *ctx, int pe, const char *routine) noexcept {
  const shoal_team *team = ctx->team;
  if (team == nullptr || team == &shoal_team_world) return pe;
  const int world = team->world_pe(pe);
  if (world < 0)
    fatal(fmt::format("{}: PE {} is out of range for the context's team, which has PEs 0 to {}",
                      routine, pe, team->n_pes - 1));
  return world;
}

Target resolve(const void *addr, std::size_t bytes, int pe, const char *routine) noexcept {
  check_pe(pe, routine);
  const Runtime *rt = g_runtime;
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  const PeerView &peer = rt->peers[pe];
  if (a - rt->heap_base < rt->heap_size) {
    const std::uintptr_t offset = a - rt->heap_base;
    // The user's heap ends where the library's area starts; ranges starting in either part
    // must end in it.
    const auto library = reinterpret_cast<std::uintptr_t>(rt->library_area);
    const std::uintptr_t end = a < library ? library : rt->heap_base + rt->heap_size;
    if (bytes > end - a)
      fatal(fmt::format("{}: {} bytes at {} (PE {}) run past the end of the symmetric heap at {}",
                        routine, bytes, addr, pe, as_ptr(end)));
    const std::uintptr_t remote = peer.base[kHeapSegment] + offset;
    return {peer.heap_mapped ? peer.heap_mapped + offset : nullptr, remote, kHeapSegment};
  }
  if (a - rt->data_base < rt->data_size) {
    const std::uintptr_t offset = a - rt->data_base;
    if (bytes > rt->data_size - offset)
      fatal(fmt::format("{}: {} bytes at {} (PE {}) run past the end of the data segment at {}",
                        routine, bytes, addr, pe, as_ptr(rt->data_base + rt->data_size)));
    const std::uintptr_t remote = peer.base[kDataSegment] + offset;
    if (pe == rt->my_pe)
      return {static_cast<std::byte *>(const_cast<void *>(addr)), remote, kDataSegment};
    if (peer.data_mapped && offset >= rt->data_shared_offset)
      return {peer.data_mapped + (offset - rt->data_shared_offset), remote, kDataSegment};
    return {nullptr, remote, kDataSegment};
  }
  fatal(
      fmt::format("{}: address {} (target PE {}) is not symmetric: it is neither in the "
                  "symmetric heap [{}, {}) nor in the program's data and bss [{}, {})",
                  routine, addr, pe, as_ptr(rt->heap_base), as_ptr(rt->heap_base + rt->heap_size),
                  as_ptr(rt->data_base), as_ptr(rt->data_base + rt->data_size)));
}

void transfer(Direction dir, bool blocking, shoal_ctx *ctx, void *local, const void *remote,
              std::size_t bytes, int pe, const char *routine) noexcept {
  check_ctx(ctx, routine);
  pe = to_world(ctx, pe, routine);
  if (bytes == 0) {  // a no-op whatever the addresses (NULL included)
    check_pe(pe, routine);
    return;
  }
  const Target t = resolve(remote, bytes, pe, routine);
  if (t.direct) {
    if (dir == Direction::put)
      std::memcpy(t.direct, local, bytes);
    else
      std::memcpy(local, t.direct, bytes);
    return;
  }
  PutBatches *const batches = ctx->batches;
  if (dir == Direction::get && !blocking && batches != nullptr &&
      batches->combines_get(pe, bytes)) {
    ctx->ucx_pending.store(true, std::memory_order_relaxed);
    return batches->add_get(pe, t, local, bytes, routine);
  }
  if (dir == Direction::get && blocking && batches != nullptr &&
      batches->gets_by_rendezvous(pe, bytes))
    return batches->get_rendezvous(pe, t, local, bytes, routine);
  if (dir == Direction::put && batches != nullptr && batches->combines(pe, bytes, blocking)) {
    ctx->ucx_pending.store(true, std::memory_order_relaxed);
    batches->add(pe, t, local, bytes, routine);
    // A blocking put leaves now, as one on its own would: the program may go on computing.
    if (blocking) batches->send(pe, routine);
    return;
  }
  send_combined_puts(ctx, pe, routine);
  if (dir == Direction::put && acknowledged_word(bytes, t, pe))
    return put_acknowledged(ctx, local, bytes, t, pe, routine);
  const ucs_status_ptr_t request =
      dir == Direction::put ? ucx_put(ctx, local, bytes, t, pe) : ucx_get(ctx, local, bytes, t, pe);
  const Status s =
      blocking ? ctx->worker->wait(request, routine) : ctx->worker->track(request, routine);
  if (s != Status::ok) transport_failed(routine, pe);
}

namespace {

// nblocks blocks of block_elems elements; consecutive blocks start local_stride and
// remote_stride elements apart. Blocking: returns when every block is done (see transfer).
void transfer_strided(Direction dir, shoal_ctx *ctx, void *local, const void *remote,
                      std::ptrdiff_t local_stride, std::ptrdiff_t remote_stride,
                      std::size_t block_elems, std::size_t nblocks, std::size_t elem_size, int pe,
                      const char *routine) noexcept {
  check_ctx(ctx, routine);
  pe = to_world(ctx, pe, routine);
  if (nblocks == 0 || block_elems == 0) {  // a no-op whatever the addresses (NULL included)
    check_pe(pe, routine);
    return;
  }
  (void)strided_extent(local, local_stride, block_elems, nblocks, elem_size, g_runtime->my_pe,
                       routine);
  const std::size_t extent =
      strided_extent(remote, remote_stride, block_elems, nblocks, elem_size, pe, routine);
  const Target t = resolve(remote, extent, pe, routine);
  const std::size_t block = block_elems * elem_size;
  const std::size_t local_step = static_cast<std::size_t>(local_stride) * elem_size;
  const std::size_t remote_step = static_cast<std::size_t>(remote_stride) * elem_size;
  auto *mine = static_cast<std::byte *>(local);
  if (t.direct) {
    for (std::size_t i = 0; i < nblocks; ++i) {
      if (dir == Direction::put)
        std::memcpy(t.direct + i * remote_step, mine + i * local_step, block);
      else
        std::memcpy(mine + i * local_step, t.direct + i * remote_step, block);
    }
    return;
  }
  // To a PE of another node over TCP, blocks small enough to combine join its batch (one
  // message for the whole transfer, where UCX sends one message per block, and per get one
  // more back): a strided put leaves at once, as a blocking put does; a strided get waits for
  // the answers, which carry its blocks.
  PutBatches *const batches = ctx->batches;
  if (batches != nullptr && (dir == Direction::put ? batches->combines(pe, block, false)
                                                   : batches->combines_get(pe, block))) {
    ctx->ucx_pending.store(true, std::memory_order_relaxed);
    for (std::size_t i = 0; i < nblocks; ++i) {
      const Target ti{nullptr, t.remote + i * remote_step, t.segment};
      if (dir == Direction::put)
        batches->add(pe, ti, mine + i * local_step, block, routine);
      else
        batches->add_get(pe, ti, mine + i * local_step, block, routine);
    }
    if (dir == Direction::put)
      batches->send(pe, routine);
    else
      batches->complete_all(routine);
    return;
  }
  send_combined_puts(ctx, pe, routine);
  RequestWindow window(*ctx->worker, routine, pe);
  for (std::size_t i = 0; i < nblocks; ++i) {
    const Target ti{nullptr, t.remote + i * remote_step, t.segment};
    window.add(dir == Direction::put ? ucx_put(ctx, mine + i * local_step, block, ti, pe)
                                     : ucx_get(ctx, mine + i * local_step, block, ti, pe));
  }
}

}  // namespace

void put_strided(shoal_ctx *ctx, void *dest, const void *source, std::ptrdiff_t dest_stride,
                 std::ptrdiff_t source_stride, std::size_t block_elems, std::size_t nblocks,
                 std::size_t elem_size, int pe, const char *routine) noexcept {
  transfer_strided(Direction::put, ctx, const_cast<void *>(source), dest, source_stride,
                   dest_stride, block_elems, nblocks, elem_size, pe, routine);
}

void get_strided(shoal_ctx *ctx, void *dest, const void *source, std::ptrdiff_t dest_stride,
                 std::ptrdiff_t source_stride, std::size_t block_elems, std::size_t nblocks,
                 std::size_t elem_size, int pe, const char *routine) noexcept {
  transfer_strided(Direction::get, ctx, dest, source, dest_stride, source_stride, block_elems,
                   nblocks, elem_size, pe, routine);
}

void quiet_ucx(shoal_ctx *ctx, const char *routine) noexcept {
  check_ctx(ctx, routine);
  // The skip-if-nothing-pending shortcut is only sound with one thread at a time on the
  // context: under SHMEM_THREAD_MULTIPLE another thread's quiet may clear the flag before this
  // thread's transfers are covered by a flush, so contexts used at once always flush.
  if (ctx->batches != nullptr) ctx->batches->complete_all(routine);
  const bool pending = ctx->ucx_pending.exchange(false, std::memory_order_acq_rel);
  ctx->ucx_pending_here.store(false, std::memory_order_relaxed);
  if ((pending || ctx->used_at_once()) && ctx->worker->flush() != Status::ok)
    fatal(fmt::format("{}: completing outstanding transfers failed in UCX", routine));
}

void fence(shoal_ctx *ctx, const char *routine) noexcept {
  // Loads and stores to mapped memory are ordered by the memory fence alone. What this context
  // handed to UCX for PEs of other nodes, UCX orders (ucp_worker_fence): the messages of
  // combined puts included, which travel on the same endpoints as the AMOs and puts after them
  // (put-with-signal orders its data and signal the same way). A put or AMO handed to UCX for a
  // PE of this node may be followed by a store to that PE's mapped memory, which no UCX fence
  // orders: then, as under SHMEM_THREAD_MULTIPLE (see quiet_ucx), the fence completes instead.
  // Across two namespace hosts a completing fence took a round trip, 5-7 us, and 23-26 us
  // when the target had to be woken for it (putget_bench flag_lat, flag_idle_lat).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (g_runtime == nullptr || ctx == nullptr || ctx->worker == nullptr || ctx->used_at_once() ||
      ctx->ucx_pending_here.load(std::memory_order_relaxed))
    return quiet(ctx, routine);
  if (!ctx->ucx_pending.load(std::memory_order_relaxed)) return;  // nothing handed to UCX
  // Batches stay: whatever goes to their PE after the fence leaves after its batch, or in it.
  if (ctx->worker->fence() != Status::ok)
    fatal(fmt::format("{}: ordering the transfers before the fence failed in UCX", routine));
}

}  // namespace shoal::rma
