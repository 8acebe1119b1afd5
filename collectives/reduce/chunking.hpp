// Chunking shared by the reduction and scan algorithms: a vector is processed in chunks small
// enough that every scratch region an algorithm needs for one chunk fits in the team's scratch,
// and the algorithm runs once per chunk. Every PE of the team computes the same chunk size (it
// depends only on the scratch size, the element size and the region count).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"

namespace shoal::coll::chunking {

// Elements of args.elem_size the team's scratch holds.
inline std::size_t scratch_elems(const Channel &ch, const Args &a) noexcept {
  return ch.scratch_bytes() / a.elem_size;
}

// The split of args.nelems into chunks of `size` elements (the last one may be shorter).
struct Chunks {
  std::size_t size = 1, count = 1, nelems = 0;
  Chunks(std::size_t nelems_, std::size_t size_) noexcept
      : size(std::max<std::size_t>(size_, 1)),
        count((nelems_ + size - 1) / size),
        nelems(nelems_) {}
  std::size_t first(std::size_t c) const noexcept { return c * size; }
  std::size_t len(std::size_t c) const noexcept { return std::min(size, nelems - c * size); }
};

// Byte address of element i of a buffer of elements of elem_size bytes.
inline std::byte *at(void *base, std::size_t i, std::size_t elem_size) noexcept {
  return static_cast<std::byte *>(base) + i * elem_size;
}
inline const std::byte *at(const void *base, std::size_t i, std::size_t elem_size) noexcept {
  return static_cast<const std::byte *>(base) + i * elem_size;
}

// Starts a reduction: dest holds this PE's contribution (in place: nothing to do).
inline void copy_source(const Args &a) noexcept {
  if (a.dest != a.source) std::memmove(a.dest, a.source, a.bytes());
}

}  // namespace shoal::coll::chunking
