// Atomic memory operations. Every typed AMO of the API collapses to an operation on a 4- or
// 8-byte unsigned word (two's-complement add is the same for signed types, and fetch, set and
// swap of float and double are bit copies), so there are two real implementations per path.
//
// The atomicity rule. An AMO is atomic only against AMOs executed the same way on the same
// object. Targets mapped into this process (this PE's memory, the heap or globals of a PE on
// this node) use CPU atomic instructions; every other target goes through UCX, which on the
// transports without a device for atomics (shared memory, TCP) executes the operation in
// software at the target, with the same CPU atomic instructions. So on-node CPU atomics and
// UCX atomics are atomic against each other. There, a non-fetching AMO to a PE of another node
// on the default context goes as a message whose handler applies it with a CPU atomic on the
// thread that progresses the target's receiving worker, as UCX's software AMOs are: atomic with
// both (rma/put_batch.hpp, PutBatches::amo). Where a network device executes UCX's atomics,
// the route in force (Runtime::amo_routing, SMA_AMO_ROUTE; transport/atomic_resources.hpp)
// sends every AMO through UCX instead, mapped or not. A PE's AMO on itself goes through UCX only
// then: UCX 1.13's loopback loses fetching and/or/xor aimed at the caller.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ctx/context.hpp"
#include "rma/rma.hpp"

namespace shoal::amo {

enum class Op : std::uint8_t {
  fetch,
  set,
  swap,
  compare_swap,
  fetch_add,
  add,
  fetch_and,
  bit_and,
  fetch_or,
  bit_or,
  fetch_xor,
  bit_xor
};

// The operation as a CPU atomic instruction on mapped memory; returns the previous value (for
// compare_swap, the value found, whether or not it was replaced).
template <typename Word>
[[gnu::always_inline]] inline Word cpu_execute(Op op, Word *p, Word value, Word compare) noexcept {
  constexpr int order = __ATOMIC_SEQ_CST;
  switch (op) {
    case Op::fetch:
      return __atomic_load_n(p, order);
    case Op::set:
      __atomic_store_n(p, value, order);
      return 0;
    case Op::swap:
      return __atomic_exchange_n(p, value, order);
    case Op::compare_swap:
      __atomic_compare_exchange_n(p, &compare, value, false, order, order);
      return compare;
    case Op::fetch_add:
    case Op::add:
      return __atomic_fetch_add(p, value, order);
    case Op::fetch_and:
    case Op::bit_and:
      return __atomic_fetch_and(p, value, order);
    case Op::fetch_or:
    case Op::bit_or:
      return __atomic_fetch_or(p, value, order);
    case Op::fetch_xor:
    case Op::bit_xor:
      return __atomic_fetch_xor(p, value, order);
  }
  return 0;
}

// Whether an AMO on world PE pe's mapped memory may be a CPU atomic instruction under the route
// in force (see the atomicity rule above).
[[gnu::always_inline]] inline bool cpu_route(const Runtime &rt, int world_pe) noexcept {
  if (!rt.amo_routing.through_ucx) [[likely]]
    return true;
  return world_pe == rt.my_pe && !rt.amo_routing.self_through_ucx;
}

// The full path: every check, then a CPU atomic on mapped memory or ucp_atomic_op_nbx.
// `result` receives the previous value for fetching operations.
template <typename Word>
void execute_full(shoal_ctx *ctx, Op op, void *dest, Word value, Word compare, int pe, Word *result,
                  const char *routine) noexcept;

extern template void execute_full<std::uint32_t>(shoal_ctx *, Op, void *, std::uint32_t,
                                                 std::uint32_t, int, std::uint32_t *,
                                                 const char *) noexcept;
extern template void execute_full<std::uint64_t>(shoal_ctx *, Op, void *, std::uint64_t,
                                                 std::uint64_t, int, std::uint64_t *,
                                                 const char *) noexcept;

// The operation on raw words. Inlined into every API entry point (always, see rma.hpp's fast
// path), where `op` is a constant: an
// aligned target in the mapped heap or globals of a PE on this node is one CPU atomic
// instruction (on the CPU route). The nonblocking forms complete at once too (their result may be
// written before the next quiet).
template <typename Word>
[[gnu::always_inline]] inline void execute(shoal_ctx *ctx, Op op, void *dest, Word value,
                                           Word compare, int pe, Word *result,
                                           const char *routine) noexcept {
  if (reinterpret_cast<std::uintptr_t>(dest) % sizeof(Word) == 0) [[likely]] {
    // Mapped memory implies a running library and a context of the world team: pe is world.
    std::byte *target = rma::mapped_memory(ctx, dest, sizeof(Word), pe);
    if (target != nullptr && cpu_route(*g_runtime, pe)) [[likely]] {
      const Word old = cpu_execute(op, reinterpret_cast<Word *>(target), value, compare);
      if (result) *result = old;
      return;
    }
  }
  execute_full(ctx, op, dest, value, compare, pe, result, routine);
}

template <typename T>
using WordOf = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

template <typename T>
[[gnu::always_inline]] inline WordOf<T> to_word(T v) noexcept {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "AMOs exist for 4- and 8-byte types only");
  WordOf<T> w;
  std::memcpy(&w, &v, sizeof w);
  return w;
}

template <typename T>
[[gnu::always_inline]] inline T from_word(WordOf<T> w) noexcept {
  T v;
  std::memcpy(&v, &w, sizeof v);
  return v;
}

// Typed front ends used by the API layer.
template <typename T>
[[gnu::always_inline]] inline T fetching(shoal_ctx *ctx, Op op, const T *dest, T value, T compare,
                                         int pe, const char *routine) noexcept {
  WordOf<T> old{};
  execute<WordOf<T>>(ctx, op, const_cast<T *>(dest), to_word(value), to_word(compare), pe, &old,
                     routine);
  return from_word<T>(old);
}

template <typename T>
[[gnu::always_inline]] inline void fetching_nbi(shoal_ctx *ctx, Op op, T *fetch, T *dest, T value,
                                                T compare, int pe, const char *routine) noexcept {
  execute<WordOf<T>>(ctx, op, const_cast<T *>(dest), to_word(value), to_word(compare), pe,
                     reinterpret_cast<WordOf<T> *>(fetch), routine);
}

template <typename T>
[[gnu::always_inline]] inline void non_fetching(shoal_ctx *ctx, Op op, T *dest, T value, int pe,
                                                const char *routine) noexcept {
  execute<WordOf<T>>(ctx, op, dest, to_word(value), WordOf<T>{}, pe, nullptr, routine);
}

}  // namespace shoal::amo
