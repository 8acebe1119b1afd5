// Put-with-signal. The data goes like any put (rma.hpp); what differs is how the signal is kept
// behind it, which depends on how each of the two reaches the target:
//   data mapped here         -> plain copy; the signal's CPU atomic (sequentially consistent)
//                               or, for a signal reached through UCX, the release fence before
//                               the AMO is handed over, orders the copy before it;
//   data and signal via UCX  -> ucp_worker_fence between the put and the signal AMO on the same
//                               worker, so the transfer is not waited for;
//   data via UCX, signal
//   a CPU atomic here        -> (data in the data segment of a PE on this node, signal in its
//                               heap) a UCX fence cannot order a later CPU store, so the put is
//                               completed (quiet) before the signal is stored;
//   a PE of another node,
//   AMOs in software there   -> one message carries both (up to 256 KiB of data, above 64 KiB
//                               the first pieces go ahead in messages of 64 KiB), and the
//                               target's handler copies the data, then updates the signal with
//                               a CPU atomic (PutBatches::put_signal).
#include "atomics/signal.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cstdint>

#include "rma/put_batch.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"
#include "status.hpp"
#include "wait.hpp"

namespace shoal::signal {

amo::Op op_of(int sig_op, const char *routine) noexcept {
  if (sig_op == kSet) return amo::Op::set;
  if (sig_op == kAdd) return amo::Op::add;
  fatal(
      fmt::format("{}: invalid signal operator {} (expected SHMEM_SIGNAL_SET or "
                  "SHMEM_SIGNAL_ADD)",
                  routine, sig_op));
}

void put_signal(shoal_ctx *ctx, void *dest, const void *source, std::size_t bytes,
                std::uint64_t *sig_addr, std::uint64_t signal, int sig_op, int pe, bool nbi,
                const char *routine) noexcept {
  rma::check_ctx(ctx, routine);
  const amo::Op op = op_of(sig_op, routine);
  // pe counts within the context's team; rma:: and amo:: calls below translate it themselves.
  const int world = rma::to_world(ctx, pe, routine);
  // No data (bytes == 0): dest is not looked at, NULL included; the signal still goes.
  const rma::Target data = bytes != 0 ? rma::resolve(dest, bytes, world, routine) : rma::Target{};
  const rma::Target sig = rma::resolve(sig_addr, sizeof *sig_addr, world, routine);
  // Checked before the data moves: the AMO would report it only after the put.
  if (reinterpret_cast<std::uintptr_t>(sig_addr) % sizeof *sig_addr != 0)
    fatal(fmt::format("{}: the signal word {} is not aligned to its 8-byte type (uint64_t)",
                      routine, static_cast<void *>(sig_addr)));

  // To a PE of another node over a transport that executes AMOs in software (TCP), data and
  // signal travel in one message (rma/put_batch.hpp): no acknowledged put, no fence, no AMO.
  if (ctx->batches != nullptr && ctx->batches->combines_signal(world, bytes)) {
    ctx->ucx_pending.store(true, std::memory_order_relaxed);
    return ctx->batches->put_signal(world, data, source, bytes, sig, signal, op == amo::Op::add,
                                    routine);
  }
  if (nbi)
    rma::put_nbi(ctx, dest, source, bytes, pe, routine);
  else
    rma::put(ctx, dest, source, bytes, pe, routine);

  if (bytes != 0 && data.direct == nullptr) {
    if (sig.direct != nullptr && amo::cpu_route(*g_runtime, world))
      rma::quiet(ctx, routine);
    else if (ctx->worker->fence() != Status::ok)
      fatal(fmt::format("{}: ordering the data before the signal failed in UCX", routine));
  }
  std::atomic_thread_fence(std::memory_order_release);
  amo::execute<std::uint64_t>(ctx, op, sig_addr, signal, 0, pe, nullptr, routine);
}

void update(shoal_ctx *ctx, std::uint64_t *sig_addr, std::uint64_t signal, amo::Op op, int pe,
            const char *routine) noexcept {
  rma::check_ctx(ctx, routine);
  const int world = rma::to_world(ctx, pe, routine);
  rma::check_pe(world, routine);
  // As a put-with-signal without data where that is one message (put_signal above): a UCX AMO
  // over TCP is acknowledged by the target, a second system call at each end.
  if (ctx->batches != nullptr && ctx->batches->combines_signal(world, 0) &&
      reinterpret_cast<std::uintptr_t>(sig_addr) % sizeof *sig_addr == 0) {
    const rma::Target sig = rma::resolve(sig_addr, sizeof *sig_addr, world, routine);
    ctx->ucx_pending.store(true, std::memory_order_relaxed);
    return ctx->batches->put_signal(world, rma::Target{}, nullptr, 0, sig, signal,
                                    op == amo::Op::add, routine);
  }
  amo::non_fetching<std::uint64_t>(ctx, op, sig_addr, signal, pe, routine);
}

std::uint64_t fetch(const std::uint64_t *sig_addr, const char *routine) noexcept {
  rma::check_ctx(&shoal_ctx_default, routine);  // before g_runtime is read
  // A program may poll with this, as with shmem_test: without a progress thread, the signal it
  // waits for may come only once this PE serves what its peers asked of it through UCX.
  progress_once(*shoal_ctx_default.worker);
  return amo::fetching<std::uint64_t>(&shoal_ctx_default, amo::Op::fetch, sig_addr, 0, 0,
                                      g_runtime->my_pe, routine);
}

}  // namespace shoal::signal
