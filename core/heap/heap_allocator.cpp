#include "heap/heap_allocator.hpp"

#include <algorithm>

namespace shoal::heap {
namespace {

std::size_t round_up(std::size_t value, std::size_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

}  // namespace

void HeapAllocator::reset(std::size_t capacity) {
  capacity_ = capacity;
  in_use_ = 0;
  free_.clear();
  used_.clear();
  if (capacity > 0) free_[0] = capacity;
}

std::optional<std::size_t> HeapAllocator::allocate(std::size_t size, std::size_t alignment) {
  alignment = std::max(alignment, kMinAlignment);
  if (size == 0 || size > capacity_) return std::nullopt;
  size = round_up(size, kMinAlignment);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const std::size_t start = it->first, length = it->second;
    const std::size_t aligned = round_up(start, alignment);
    if (aligned < start || aligned - start > length || length - (aligned - start) < size) continue;
    free_.erase(it);
    if (aligned > start) free_[start] = aligned - start;  // keep the padding in front
    const std::size_t tail = start + length - (aligned + size);
    if (tail > 0) free_[aligned + size] = tail;
    used_[aligned] = size;
    in_use_ += size;
    return aligned;
  }
  return std::nullopt;
}

bool HeapAllocator::release(std::size_t offset) {
  auto it = used_.find(offset);
  if (it == used_.end()) return false;
  std::size_t start = offset, length = it->second;
  in_use_ -= length;
  used_.erase(it);
  // Coalesce with the free neighbours on both sides.
  auto next = free_.lower_bound(start);
  if (next != free_.end() && start + length == next->first) {
    length += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      length += prev->second;
      free_.erase(prev);
    }
  }
  free_[start] = length;
  return true;
}

bool HeapAllocator::inside_block(std::size_t offset) const {
  auto it = used_.upper_bound(offset);  // the first block starting after offset
  if (it == used_.begin()) return false;
  --it;
  return offset > it->first && offset < it->first + it->second;
}

std::optional<std::size_t> HeapAllocator::block_size(std::size_t offset) const {
  auto it = used_.find(offset);
  if (it == used_.end()) return std::nullopt;
  return it->second;
}

bool HeapAllocator::grow_in_place(std::size_t offset, std::size_t new_size) {
  auto it = used_.find(offset);
  if (it == used_.end()) return false;
  if (new_size > capacity_) return false;  // and rounding up below cannot wrap to 0
  new_size = round_up(new_size, kMinAlignment);
  if (new_size <= it->second) return true;
  const std::size_t extra = new_size - it->second;
  auto next = free_.find(offset + it->second);
  if (next == free_.end() || next->second < extra) return false;
  const std::size_t rest = next->second - extra;
  const std::size_t rest_start = next->first + extra;
  free_.erase(next);
  if (rest > 0) free_[rest_start] = rest;
  it->second = new_size;
  in_use_ += extra;
  return true;
}

std::size_t HeapAllocator::largest_free() const noexcept {
  std::size_t best = 0;
  for (const auto &[offset, length] : free_) best = std::max(best, length);
  return best;
}

}  // namespace shoal::heap
