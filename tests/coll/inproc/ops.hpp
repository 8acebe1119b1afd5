// Typed reduction operators for the reduce and scan tests: the library's Combine functions
// (collectives/reduce_ops.hpp) with a deterministic fill and the serial result to compare with.
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "collectives/reduce_ops.hpp"
#include "harness.hpp"

namespace shoal::coll::inproc {

struct Op {
  const char *name;
  std::size_t elem_size;
  Combine combine;
  // PE pe's contribution to call `salt`: n elements.
  void (*fill)(std::byte *to, std::size_t n, int pe, int salt);
};

template <ReduceOp op, typename T>
Op make_op(const char *name) {
  return {name, sizeof(T), combine<op, T>, [](std::byte *to, std::size_t n, int pe, int salt) {
            for (std::size_t i = 0; i < n; ++i) {
              const T v = value<T>(pe, i, salt);
              std::memcpy(to + i * sizeof(T), &v, sizeof(T));
            }
          }};
}

// sum and max on a few types; element sizes 1 to 8, floating point included (its sums of small
// integers are exact in any order).
inline const std::vector<Op> &ops() {
  static const std::vector<Op> all = {
      make_op<ReduceOp::sum, int>("int sum"),
      make_op<ReduceOp::max, long>("long max"),
      make_op<ReduceOp::sum, double>("double sum"),
      make_op<ReduceOp::sum, unsigned char>("uchar sum"),
      make_op<ReduceOp::max, short>("short max"),
  };
  return all;
}

// The cases of a reduce or scan test: every operator at every count of `counts`, and the first
// operator at the `large` counts.
inline std::vector<std::pair<const Op *, std::size_t>> op_cases(
    std::span<const std::size_t> counts, std::span<const std::size_t> large) {
  std::vector<std::pair<const Op *, std::size_t>> cases;
  for (const Op &op : ops())
    for (const std::size_t nelems : counts) cases.emplace_back(&op, nelems);
  for (const std::size_t nelems : large) cases.emplace_back(&ops()[0], nelems);
  return cases;
}

// The fold of PEs [0, upto) of call `salt` in team order: n elements into `out`.
inline void fold(const Op &op, std::byte *out, std::size_t n, int upto, int salt) {
  std::vector<std::byte> next(n * op.elem_size);
  op.fill(out, n, 0, salt);
  for (int pe = 1; pe < upto; ++pe) {
    op.fill(next.data(), n, pe, salt);
    op.combine(out, next.data(), n);
  }
}

}  // namespace shoal::coll::inproc
