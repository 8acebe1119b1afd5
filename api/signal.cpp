// Signaling entry points (specification section "Signaling Operations"): put-with-signal in
// typed, sized and mem forms, blocking and nbi, each with its ctx twin, stamped out from the
// type tables; and signal fetch, add and set. shmem_signal_wait_until is in p2p_sync.cpp.
#include "api/export.hpp"
#include "observe/observe.hpp"
#include "atomics/signal.hpp"
#include "types/type_tables.def"

static_assert(SHMEM_SIGNAL_SET == shoal::signal::kSet && SHMEM_SIGNAL_ADD == shoal::signal::kAdd,
              "the signal layer and shmem.h disagree on the signal operators");

using shoal::rma::byte_size;
using shoal::signal::put_signal;

// CTXP names a function-like macro giving the context parameter (with its comma) or nothing,
// expanded only where the parameter list is written (see amo.cpp). SUFFIX is empty or _nbi and
// NBI the matching bool.
#define SMA_CTX_PARAM() shmem_ctx_t ctx,
#define SMA_NO_PARAM()

#define SMA_SIGNAL_PARAMS uint64_t *sig_addr, uint64_t signal, int sig_op, int pe

// ---- typed: shmem_[ctx_]TYPENAME_put_signal[_nbi] --------------------------------------------
#define SMA_PUT_SIGNAL_TYPED(TN, T, SUFFIX, NBI, CTXN, CTXP, CTXA)                          \
  extern "C" void pshmem_##CTXN##TN##_put_signal##SUFFIX(                                   \
      CTXP() T *dest, const T *source, size_t nelems, SMA_SIGNAL_PARAMS) noexcept {         \
    constexpr const char *routine = "shmem_" #CTXN #TN "_put_signal" #SUFFIX;               \
    const std::size_t bytes = byte_size(nelems, sizeof(T), dest, pe, routine);              \
    SMA_OBSERVED(                                                                           \
        signal, routine, bytes, pe,                                                         \
        put_signal(CTXA, dest, source, bytes, sig_addr, signal, sig_op, pe, NBI, routine)); \
  }                                                                                         \
  SMA_WEAK_ALIAS(shmem_##CTXN##TN##_put_signal##SUFFIX)

#define SMA_PUT_SIGNAL_TYPED_ALL(TN, T)                           \
  SMA_PUT_SIGNAL_TYPED(TN, T, , false, , SMA_NO_PARAM, dflt())    \
  SMA_PUT_SIGNAL_TYPED(TN, T, _nbi, true, , SMA_NO_PARAM, dflt()) \
  SMA_PUT_SIGNAL_TYPED(TN, T, , false, ctx_, SMA_CTX_PARAM, ctx)  \
  SMA_PUT_SIGNAL_TYPED(TN, T, _nbi, true, ctx_, SMA_CTX_PARAM, ctx)
SMA_RMA_TYPES(SMA_PUT_SIGNAL_TYPED_ALL)

// ---- sized and bytes: shmem_[ctx_]put{BITS,mem}_signal[_nbi] -------------------------------
// NAME is put8 ... put128 or putmem, BYTES the element size (1 for mem).
#define SMA_PUT_SIGNAL_UNTYPED(NAME, BYTES, SUFFIX, NBI, CTXN, CTXP, CTXA)                  \
  extern "C" void pshmem_##CTXN##NAME##_signal##SUFFIX(                                     \
      CTXP() void *dest, const void *source, size_t nelems, SMA_SIGNAL_PARAMS) noexcept {   \
    constexpr const char *routine = "shmem_" #CTXN #NAME "_signal" #SUFFIX;                 \
    const std::size_t bytes = byte_size(nelems, BYTES, dest, pe, routine);                  \
    SMA_OBSERVED(                                                                           \
        signal, routine, bytes, pe,                                                         \
        put_signal(CTXA, dest, source, bytes, sig_addr, signal, sig_op, pe, NBI, routine)); \
  }                                                                                         \
  SMA_WEAK_ALIAS(shmem_##CTXN##NAME##_signal##SUFFIX)

#define SMA_PUT_SIGNAL_UNTYPED_ALL(NAME, BYTES)                           \
  SMA_PUT_SIGNAL_UNTYPED(NAME, BYTES, , false, , SMA_NO_PARAM, dflt())    \
  SMA_PUT_SIGNAL_UNTYPED(NAME, BYTES, _nbi, true, , SMA_NO_PARAM, dflt()) \
  SMA_PUT_SIGNAL_UNTYPED(NAME, BYTES, , false, ctx_, SMA_CTX_PARAM, ctx)  \
  SMA_PUT_SIGNAL_UNTYPED(NAME, BYTES, _nbi, true, ctx_, SMA_CTX_PARAM, ctx)
#define SMA_PUT_SIGNAL_SIZED_ALL(BITS, BYTES) SMA_PUT_SIGNAL_UNTYPED_ALL(put##BITS, BYTES)
SMA_RMA_SIZES(SMA_PUT_SIGNAL_SIZED_ALL)
SMA_PUT_SIGNAL_UNTYPED_ALL(putmem, 1)

// ---- signal fetch, add and set --------------------------------------------------------------
extern "C" uint64_t pshmem_signal_fetch(const uint64_t *sig_addr) noexcept {
  SMA_OBSERVED(signal, "shmem_signal_fetch", sizeof(uint64_t), -1,
               return shoal::signal::fetch(sig_addr, "shmem_signal_fetch"));
}
SMA_WEAK_ALIAS(shmem_signal_fetch)

#define SMA_SIGNAL_UPDATE(NAME, OP, CTXN, CTXP, CTXA)                                           \
  extern "C" void pshmem_##CTXN##signal_##NAME(CTXP() uint64_t *sig_addr, uint64_t signal,      \
                                               int pe) noexcept {                               \
    SMA_OBSERVED(                                                                               \
        signal, "shmem_" #CTXN "signal_" #NAME, sizeof(uint64_t), pe,                           \
        shoal::signal::update(CTXA, sig_addr, signal, OP, pe, "shmem_" #CTXN "signal_" #NAME)); \
  }                                                                                             \
  SMA_WEAK_ALIAS(shmem_##CTXN##signal_##NAME)

SMA_SIGNAL_UPDATE(add, shoal::amo::Op::add, , SMA_NO_PARAM, dflt())
SMA_SIGNAL_UPDATE(add, shoal::amo::Op::add, ctx_, SMA_CTX_PARAM, ctx)
SMA_SIGNAL_UPDATE(set, shoal::amo::Op::set, , SMA_NO_PARAM, dflt())
SMA_SIGNAL_UPDATE(set, shoal::amo::Op::set, ctx_, SMA_CTX_PARAM, ctx)
