#include "rma/stash.hpp"

#include <new>

namespace shoal::rma {

std::byte *Stash::buffer_for(std::uint64_t key) noexcept {
  const std::lock_guard<std::mutex> lock(mutex_);
  auto &buffer = buffers_[key];
  if (buffer == nullptr) buffer.reset(new (std::nothrow) std::byte[kStashMaxBytes]);
  return buffer.get();
}

const std::byte *Stash::find(std::uint64_t key) const noexcept {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto it = buffers_.find(key);
  return it == buffers_.end() ? nullptr : it->second.get();
}

void Stash::clear() noexcept {
  const std::lock_guard<std::mutex> lock(mutex_);
  buffers_.clear();
}

}  // namespace shoal::rma
