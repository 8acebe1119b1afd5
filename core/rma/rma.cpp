#include "rma/rma.hpp"

#include <spdlog/fmt/fmt.h>

#include <atomic>
#include <cstring>

#include "log/log.hpp"

namespace shoal::rma {
namespace {

[[noreturn]] void not_running(const char *routine) noexcept {
  fatal(fmt::format("{}: called {}", routine,
                    library_state() == LibraryState::finalized ? "after shmem_finalize"
                                                              : "before shmem_init"));
}

[[noreturn]] void transport_failed(const char *routine, int pe) noexcept {
  fatal(fmt::format("{}: the transfer with PE {} failed in UCX (see the message above)", routine, pe));
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
  ucp_request_param_t param{};
  return ucp_put_nbx(ctx->worker->ep(pe), source, bytes, t.remote,
                     ctx->worker->rkey(pe, t.segment), &param);
}

ucs_status_ptr_t ucx_get(shoal_ctx *ctx, void *dest, std::size_t bytes, const Target &t,
                         int pe) noexcept {
  ctx->ucx_pending.store(true, std::memory_order_relaxed);
  ucp_request_param_t param{};
  return ucp_get_nbx(ctx->worker->ep(pe), dest, bytes, t.remote, ctx->worker->rkey(pe, t.segment),
                     &param);
}

// The span of a strided access: where its lowest element starts and how many bytes it covers.
struct Span {
  std::ptrdiff_t first;  // in bytes, from the base pointer
  std::size_t bytes;
};

Span strided_span(std::ptrdiff_t stride, std::size_t block_elems, std::size_t nblocks,
                  std::size_t elem_size, const char *routine) noexcept {
  if (stride < 0)
    fatal(fmt::format("{}: negative stride {} (strides count elements and must be >= 0)", routine,
                      stride));
  const std::size_t last = (nblocks - 1) * static_cast<std::size_t>(stride) * elem_size;
  return {0, last + block_elems * elem_size};
}

}  // namespace

void check_ctx(const shoal_ctx *ctx, const char *routine) noexcept {
  if (g_runtime == nullptr) not_running(routine);
  if (ctx == nullptr || ctx->worker == nullptr)
    fatal(fmt::format("{}: invalid context {} (SHMEM_CTX_INVALID or destroyed)", routine,
                      static_cast<const void *>(ctx)));
}

Target resolve(const void *addr, std::size_t bytes, int pe, const char *routine) noexcept {
  const Runtime *rt = g_runtime;
  if (rt == nullptr) not_running(routine);
  if (static_cast<unsigned>(pe) >= static_cast<unsigned>(rt->n_pes))
    fatal(fmt::format("{}: PE {} is out of range: this job has PEs 0 to {}", routine, pe,
                      rt->n_pes - 1));
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  const PeerView &peer = rt->peers[pe];
  if (a - rt->heap_base < rt->heap_size) {
    const std::uintptr_t offset = a - rt->heap_base;
    if (bytes > rt->heap_size - offset)
      fatal(fmt::format("{}: {} bytes at {} (PE {}) run past the end of the symmetric heap at {}",
                        routine, bytes, addr, pe, as_ptr(rt->heap_base + rt->heap_size)));
    if (peer.heap_mapped) return {peer.heap_mapped + offset, 0, kHeapSegment};
    return {nullptr, peer.base[kHeapSegment] + offset, kHeapSegment};
  }
  if (a - rt->data_base < rt->data_size) {
    const std::uintptr_t offset = a - rt->data_base;
    if (bytes > rt->data_size - offset)
      fatal(fmt::format("{}: {} bytes at {} (PE {}) run past the end of the data segment at {}",
                        routine, bytes, addr, pe, as_ptr(rt->data_base + rt->data_size)));
    if (pe == rt->my_pe) return {static_cast<std::byte *>(const_cast<void *>(addr)), 0, kDataSegment};
    return {nullptr, peer.base[kDataSegment] + offset, kDataSegment};
  }
  fatal(fmt::format("{}: address {} (target PE {}) is not symmetric: it is neither in the "
                    "symmetric heap [{}, {}) nor in the program's data and bss [{}, {})",
                    routine, addr, pe, as_ptr(rt->heap_base), as_ptr(rt->heap_base + rt->heap_size),
                    as_ptr(rt->data_base), as_ptr(rt->data_base + rt->data_size)));
}

void put(shoal_ctx *ctx, void *dest, const void *source, std::size_t bytes, int pe,
         const char *routine) noexcept {
  check_ctx(ctx, routine);
  const Target t = resolve(dest, bytes, pe, routine);
  if (bytes == 0) return;
  if (t.direct) {
    std::memcpy(t.direct, source, bytes);
    return;
  }
  if (ctx->worker->wait(ucx_put(ctx, source, bytes, t, pe), routine) != Status::ok)
    transport_failed(routine, pe);
}

void get(shoal_ctx *ctx, void *dest, const void *source, std::size_t bytes, int pe,
         const char *routine) noexcept {
  check_ctx(ctx, routine);
  const Target t = resolve(source, bytes, pe, routine);
  if (bytes == 0) return;
  if (t.direct) {
    std::memcpy(dest, t.direct, bytes);
    return;
  }
  if (ctx->worker->wait(ucx_get(ctx, dest, bytes, t, pe), routine) != Status::ok)
    transport_failed(routine, pe);
}

void put_nbi(shoal_ctx *ctx, void *dest, const void *source, std::size_t bytes, int pe,
             const char *routine) noexcept {
  check_ctx(ctx, routine);
  const Target t = resolve(dest, bytes, pe, routine);
  if (bytes == 0) return;
  if (t.direct) {
    std::memcpy(t.direct, source, bytes);
    return;
  }
  if (ucx::UcxWorker::forget(ucx_put(ctx, source, bytes, t, pe), routine) != Status::ok)
    transport_failed(routine, pe);
}

void get_nbi(shoal_ctx *ctx, void *dest, const void *source, std::size_t bytes, int pe,
             const char *routine) noexcept {
  check_ctx(ctx, routine);
  const Target t = resolve(source, bytes, pe, routine);
  if (bytes == 0) return;
  if (t.direct) {
    std::memcpy(dest, t.direct, bytes);
    return;
  }
  if (ucx::UcxWorker::forget(ucx_get(ctx, dest, bytes, t, pe), routine) != Status::ok)
    transport_failed(routine, pe);
}

void put_strided(shoal_ctx *ctx, void *dest, const void *source, std::ptrdiff_t dest_stride,
                 std::ptrdiff_t source_stride, std::size_t block_elems, std::size_t nblocks,
                 std::size_t elem_size, int pe, const char *routine) noexcept {
  check_ctx(ctx, routine);
  if (nblocks == 0 || block_elems == 0) {
    (void)resolve(dest, 0, pe, routine);
    return;
  }
  const Span span = strided_span(dest_stride, block_elems, nblocks, elem_size, routine);
  (void)strided_span(source_stride, block_elems, nblocks, elem_size, routine);
  const Target t = resolve(dest, span.bytes, pe, routine);
  const std::size_t block = block_elems * elem_size;
  const std::size_t dstep = static_cast<std::size_t>(dest_stride) * elem_size;
  const std::size_t sstep = static_cast<std::size_t>(source_stride) * elem_size;
  const auto *src = static_cast<const std::byte *>(source);
  if (t.direct) {
    for (std::size_t i = 0; i < nblocks; ++i) std::memcpy(t.direct + i * dstep, src + i * sstep, block);
    return;
  }
  RequestWindow window(*ctx->worker, routine, pe);
  for (std::size_t i = 0; i < nblocks; ++i) {
    const Target ti{nullptr, t.remote + i * dstep, t.segment};
    window.add(ucx_put(ctx, src + i * sstep, block, ti, pe));
  }
}

void get_strided(shoal_ctx *ctx, void *dest, const void *source, std::ptrdiff_t dest_stride,
                 std::ptrdiff_t source_stride, std::size_t block_elems, std::size_t nblocks,
                 std::size_t elem_size, int pe, const char *routine) noexcept {
  check_ctx(ctx, routine);
  if (nblocks == 0 || block_elems == 0) {
    (void)resolve(source, 0, pe, routine);
    return;
  }
  (void)strided_span(dest_stride, block_elems, nblocks, elem_size, routine);
  const Span span = strided_span(source_stride, block_elems, nblocks, elem_size, routine);
  const Target t = resolve(source, span.bytes, pe, routine);
  const std::size_t block = block_elems * elem_size;
  const std::size_t dstep = static_cast<std::size_t>(dest_stride) * elem_size;
  const std::size_t sstep = static_cast<std::size_t>(source_stride) * elem_size;
  auto *dst = static_cast<std::byte *>(dest);
  if (t.direct) {
    for (std::size_t i = 0; i < nblocks; ++i) std::memcpy(dst + i * dstep, t.direct + i * sstep, block);
    return;
  }
  RequestWindow window(*ctx->worker, routine, pe);
  for (std::size_t i = 0; i < nblocks; ++i) {
    const Target ti{nullptr, t.remote + i * sstep, t.segment};
    window.add(ucx_get(ctx, dst + i * dstep, block, ti, pe));
  }
}

void quiet(shoal_ctx *ctx, const char *routine) noexcept {
  check_ctx(ctx, routine);
  // Stores to mapped memory become visible in program order; the fence keeps the compiler and
  // CPU from moving them past this point.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (ctx->ucx_pending.exchange(false, std::memory_order_acq_rel) &&
      ctx->worker->flush() != Status::ok)
    fatal(fmt::format("{}: completing outstanding transfers failed in UCX", routine));
}

void fence(shoal_ctx *ctx, const char *routine) noexcept {
  // Loads/stores to mapped heaps are ordered by the memory fence alone. Transfers handed to UCX
  // may be followed by stores to mapped memory of the same PE, which a UCX fence would not
  // order, so they are completed instead.
  quiet(ctx, routine);
}

}  // namespace shoal::rma
