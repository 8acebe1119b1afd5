// Atomic memory operations. Every typed AMO of the API collapses to an operation on a 4- or
// 8-byte unsigned word (two's-complement add is the same for signed types, and fetch, set and
// swap of float and double are bit copies), so there are two real implementations per path.
//
// The atomicity rule. An AMO is atomic only against AMOs executed the same way on the same
// object. Targets mapped into this process (this PE's memory, the heap of a PE on this node)
// use CPU atomic instructions; every other target goes through UCX, which on the transports
// Debian's UCX offers here (shared memory, TCP) executes the operation in software at the
// target, with the same CPU atomic instructions. So on-node CPU atomics and UCX atomics are
// atomic against each other. A PE's AMO on itself never goes through UCX: UCX 1.13's loopback
// loses fetching and/or/xor aimed at the caller.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ctx/context.hpp"

namespace shoal::amo {

enum class Op : std::uint8_t {
  fetch, set, swap, compare_swap, fetch_add, add, fetch_and, bit_and, fetch_or, bit_or,
  fetch_xor, bit_xor
};

// The operation on raw words; `result` receives the previous value for fetching operations.
// nbi: the result is written when the context is next quieted (it may be written earlier).
template <typename Word>
void execute(shoal_ctx *ctx, Op op, void *dest, Word value, Word compare, int pe, Word *result,
             bool nbi, const char *routine) noexcept;

extern template void execute<std::uint32_t>(shoal_ctx *, Op, void *, std::uint32_t, std::uint32_t,
                                            int, std::uint32_t *, bool, const char *) noexcept;
extern template void execute<std::uint64_t>(shoal_ctx *, Op, void *, std::uint64_t, std::uint64_t,
                                            int, std::uint64_t *, bool, const char *) noexcept;

template <typename T>
using WordOf = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

template <typename T>
WordOf<T> to_word(T v) noexcept {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "AMOs exist for 4- and 8-byte types only");
  WordOf<T> w;
  std::memcpy(&w, &v, sizeof w);
  return w;
}

template <typename T>
T from_word(WordOf<T> w) noexcept {
  T v;
  std::memcpy(&v, &w, sizeof v);
  return v;
}

// Typed front ends used by the API layer.
template <typename T>
T fetching(shoal_ctx *ctx, Op op, const T *dest, T value, T compare, int pe,
           const char *routine) noexcept {
  WordOf<T> old{};
  execute<WordOf<T>>(ctx, op, const_cast<T *>(dest), to_word(value), to_word(compare), pe, &old,
                     false, routine);
  return from_word<T>(old);
}

template <typename T>
void fetching_nbi(shoal_ctx *ctx, Op op, T *fetch, T *dest, T value, T compare, int pe,
                  const char *routine) noexcept {
  execute<WordOf<T>>(ctx, op, const_cast<T *>(dest), to_word(value), to_word(compare), pe,
                     reinterpret_cast<WordOf<T> *>(fetch), true, routine);
}

template <typename T>
void non_fetching(shoal_ctx *ctx, Op op, T *dest, T value, int pe, const char *routine) noexcept {
  execute<WordOf<T>>(ctx, op, dest, to_word(value), WordOf<T>{}, pe, nullptr, false, routine);
}

}  // namespace shoal::amo
