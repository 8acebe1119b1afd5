// Offsets within the symmetric heap. Every PE runs the same sequence of calls, so the same
// deterministic first-fit choice gives every PE the same offset: that is what makes an
// allocation symmetric.
#pragma once

#include <cstddef>
#include <map>
#include <optional>

namespace shoal::heap {

class HeapAllocator {
 public:
  static constexpr std::size_t kMinAlignment = 16;  // long double and complex types

  void reset(std::size_t capacity);
  // alignment: a power of two; returns the offset of a block of at least size bytes.
  std::optional<std::size_t> allocate(std::size_t size, std::size_t alignment = kMinAlignment);
  // False when offset is not the start of a live block (never allocated, or freed already).
  bool release(std::size_t offset);
  // Size of the live block at offset, or nullopt.
  std::optional<std::size_t> block_size(std::size_t offset) const;
  // True when offset lies inside a live block but is not its start (SHPDEALLC's "not the start
  // of a block", told apart from a block freed already).
  bool inside_block(std::size_t offset) const;
  // Grows the live block at offset in place when the space behind it is free.
  bool grow_in_place(std::size_t offset, std::size_t new_size);

  std::size_t capacity() const noexcept { return capacity_; }
  std::size_t largest_free() const noexcept;
  std::size_t in_use() const noexcept { return in_use_; }

 private:
  std::size_t capacity_ = 0;
  std::size_t in_use_ = 0;
  std::map<std::size_t, std::size_t> free_;  // offset -> size, coalesced
  std::map<std::size_t, std::size_t> used_;  // offset -> size
};

}  // namespace shoal::heap
