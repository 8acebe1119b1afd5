// The ways an AMO is executed: a CPU atomic instruction on mapped memory, ucp_atomic_op_nbx,
// or (non-fetching, to a PE of another node over TCP) a message whose handler at the target
// applies it with a CPU atomic (rma/put_batch.hpp). See amo.hpp for when each is used and why
// they are atomic together.
#include "atomics/amo.hpp"

#include <ucp/api/ucp.h>
#include <fmt/format.h>

#include <optional>

#include "rma/put_batch.hpp"
#include "rma/rma.hpp"

namespace shoal::amo {
namespace {

ucp_atomic_op_t ucx_opcode(Op op) noexcept {
  switch (op) {
    case Op::fetch:  // UCX has no plain atomic read: add zero
    case Op::fetch_add:
    case Op::add:
      return UCP_ATOMIC_OP_ADD;
    case Op::set:  // UCX has no plain atomic write: swap and drop the old value
    case Op::swap:
      return UCP_ATOMIC_OP_SWAP;
    case Op::compare_swap:
      return UCP_ATOMIC_OP_CSWAP;
    case Op::fetch_and:
    case Op::bit_and:
      return UCP_ATOMIC_OP_AND;
    case Op::fetch_or:
    case Op::bit_or:
      return UCP_ATOMIC_OP_OR;
    case Op::fetch_xor:
    case Op::bit_xor:
      return UCP_ATOMIC_OP_XOR;
  }
  return UCP_ATOMIC_OP_ADD;
}

// The update of a non-fetching AMO as a message applies it (rma::WordUpdate); none for the others.
std::optional<rma::WordUpdate> word_update(Op op) noexcept {
  switch (op) {
    case Op::set:
      return rma::WordUpdate::set;
    case Op::add:
      return rma::WordUpdate::add;
    case Op::bit_and:
      return rma::WordUpdate::bit_and;
    case Op::bit_or:
      return rma::WordUpdate::bit_or;
    case Op::bit_xor:
      return rma::WordUpdate::bit_xor;
    default:
      return std::nullopt;
  }
}

template <typename Word>
void ucx_execute(shoal_ctx *ctx, Op op, const rma::Target &t, Word value, Word compare, int pe,
                 Word *result, const char *routine) noexcept {
  rma::send_combined_puts(ctx, pe, routine);  // operations to pe leave in the order issued
  Word operand = op == Op::fetch ? Word{0} : (op == Op::compare_swap ? compare : value);
  ucx::UcxWorker &worker = *ctx->worker;
  // Every AMO, fetching or not, asks for the old value. Without a reply UCX 1.13 reports a
  // software-executed AMO complete while it still sits in the sender's queue (when the target's
  // receive FIFO is full), and ucp_worker_flush does not wait for it: a quiet would then not
  // complete the add. The reply proves the target performed it. A fetching AMO waits for it; a
  // non-fetching one leaves its request (and the word its reply lands in) to the next quiet,
  // which waits for every request: no round trip per add.
  const bool fetching = result != nullptr;
  Word fetched = op == Op::compare_swap ? value : Word{0};  // CSWAP takes the new value here
  std::uint64_t *reply_word = fetching ? nullptr : worker.reply_word();
  Word *reply = fetching ? &fetched : reinterpret_cast<Word *>(reply_word);
  if (!fetching) *reply = fetched;
  ucp_request_param_t param{};
  param.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE | UCP_OP_ATTR_FIELD_REPLY_BUFFER;
  param.datatype = ucp_dt_make_contig(sizeof(Word));
  param.reply_buffer = reply;
  ctx->ucx_pending.store(true, std::memory_order_relaxed);
  if (g_runtime->bootstrap->on_this_node(pe))
    ctx->ucx_pending_here.store(true, std::memory_order_relaxed);
  ucs_status_ptr_t request = ucp_atomic_op_nbx(worker.ep(pe), ucx_opcode(op), &operand, 1, t.remote,
                                               worker.rkey(pe, t.segment), &param);
  const Status s =
      fetching ? worker.wait(request, routine) : worker.track(request, routine, reply_word);
  if (s != Status::ok)
    fatal(fmt::format("{}: the atomic operation on PE {} failed in UCX", routine, pe));
  if (fetching) *result = fetched;
}

}  // namespace

template <typename Word>
void execute_full(shoal_ctx *ctx, Op op, void *dest, Word value, Word compare, int pe, Word *result,
                  const char *routine) noexcept {
  rma::check_ctx(ctx, routine);
  pe = rma::to_world(ctx, pe, routine);
  if (reinterpret_cast<std::uintptr_t>(dest) % sizeof(Word) != 0)
    fatal(fmt::format("{}: the target {} is not aligned to its {}-byte type", routine, dest,
                      sizeof(Word)));
  const rma::Target t = rma::resolve(dest, sizeof(Word), pe, routine);
  if (t.direct && cpu_route(*g_runtime, pe)) {
    const Word old = cpu_execute(op, reinterpret_cast<Word *>(t.direct), value, compare);
    if (result) *result = old;
    return;
  }
  // A non-fetching AMO to a PE of another node over a transport that executes AMOs in software
  // (TCP): one message, answered only when nothing else awaits an answer (rma/put_batch.hpp).
  if (result == nullptr && ctx->batches != nullptr && ctx->batches->combines_amo(pe)) {
    if (const auto update = word_update(op)) {
      ctx->ucx_pending.store(true, std::memory_order_relaxed);
      return ctx->batches->amo(pe, t, value, *update, sizeof(Word), routine);
    }
  }
  ucx_execute(ctx, op, t, value, compare, pe, result, routine);
}

template void execute_full<std::uint32_t>(shoal_ctx *, Op, void *, std::uint32_t, std::uint32_t,
                                          int, std::uint32_t *, const char *) noexcept;
template void execute_full<std::uint64_t>(shoal_ctx *, Op, void *, std::uint64_t, std::uint64_t,
                                          int, std::uint64_t *, const char *) noexcept;

}  // namespace shoal::amo
