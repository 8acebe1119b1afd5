#include "rma/stash.hpp"

#include <algorithm>
#include <bit>
#include <new>

namespace shoal::rma {

std::byte *Stash::buffer_for(std::uint64_t key, std::size_t bytes) noexcept {
  const std::lock_guard<std::mutex> lock(mutex_);
  Buffer &buffer = buffers_[key];
  if (buffer.data == nullptr || buffer.bytes < bytes) {
    const std::size_t size = std::max(kStashFirstBytes, std::bit_ceil(bytes));
    buffer.data.reset(new (std::nothrow) std::byte[size]);
    buffer.bytes = buffer.data == nullptr ? 0 : size;
  }
  return buffer.data.get();
}

const std::byte *Stash::find(std::uint64_t key) const noexcept {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto it = buffers_.find(key);
  return it == buffers_.end() ? nullptr : it->second.data.get();
}

void Stash::clear() noexcept {
  const std::lock_guard<std::mutex> lock(mutex_);
  buffers_.clear();
}

}  // namespace shoal::rma
