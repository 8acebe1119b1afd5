// The reduction operators of the specification as Combine functions, one per operator and type:
// combine<ReduceOp::sum, long> and so on. The API layer stamps them out from the type tables.
#pragma once

#include <algorithm>
#include <cstddef>

#include "collectives/algorithm.hpp"

namespace shoal::coll {

enum class ReduceOp { bit_and, bit_or, bit_xor, min, max, sum, prod };

template <ReduceOp op, typename T>
void combine(void *inout, const void *in, std::size_t n) {
  T *a = static_cast<T *>(inout);
  const T *b = static_cast<const T *>(in);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (op == ReduceOp::bit_and)
      a[i] = static_cast<T>(a[i] & b[i]);
    else if constexpr (op == ReduceOp::bit_or)
      a[i] = static_cast<T>(a[i] | b[i]);
    else if constexpr (op == ReduceOp::bit_xor)
      a[i] = static_cast<T>(a[i] ^ b[i]);
    else if constexpr (op == ReduceOp::min)
      a[i] = b[i] < a[i] ? b[i] : a[i];
    else if constexpr (op == ReduceOp::max)
      a[i] = b[i] > a[i] ? b[i] : a[i];
    else if constexpr (op == ReduceOp::sum)
      a[i] = static_cast<T>(a[i] + b[i]);
    else
      a[i] = static_cast<T>(a[i] * b[i]);
  }
}

}  // namespace shoal::coll
