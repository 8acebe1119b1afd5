// A PE's symmetric heap as a POSIX shared-memory object, so PEs of the same node can map it.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

#include "status.hpp"

namespace shoal::heap {

// "/shoal-<job>-<pe>": the launcher removes /dev/shm/shoal-<job>-* when the job ends, so
// nothing is left behind even if a PE dies between creating and unlinking its segment.
std::string segment_name(const std::string &job_name, int pe);
// "/shoal-<job>-<pe>-data": the PE's data segment (globals), under the same rules.
std::string data_segment_name(const std::string &job_name, int pe);

class SharedSegment {
 public:
  SharedSegment() = default;
  SharedSegment(const SharedSegment &) = delete;
  SharedSegment &operator=(const SharedSegment &) = delete;
  SharedSegment(SharedSegment &&other) noexcept { *this = std::move(other); }
  SharedSegment &operator=(SharedSegment &&other) noexcept {
    if (this != &other) {
      release();
      base_ = std::exchange(other.base_, nullptr);
      size_ = std::exchange(other.size_, 0);
      name_ = std::move(other.name_);
      other.name_.clear();
      keep_mapping_ = std::exchange(other.keep_mapping_, false);
    }
    return *this;
  }
  ~SharedSegment() { release(); }

  // Creates a new segment, exclusively and readable by this user only (mode 0600); a name
  // that exists already is Status::already_exists, never opened.
  Status create(const std::string &name, std::size_t size);
  // Anonymous private memory: the heap when no other PE will map it.
  Status create_private(std::size_t size);
  // Maps a segment another PE created; refuses one that is not this user's, mode 0600 and
  // exactly `size` bytes.
  Status attach(const std::string &name, std::size_t size);
  // Moves this (new, created) segment's mapping to `where`, replacing the pages there
  // (mremap), and keeps it mapped when released: the data segment's globals move in. Fails
  // with nothing changed when the kernel refuses.
  Status move_to(std::byte *where) noexcept;
  // Removes the name (the mappings stay valid); done once every local PE has attached.
  void unlink() noexcept;
  void release() noexcept;

  std::byte *base() const noexcept { return base_; }
  std::size_t size() const noexcept { return size_; }

 private:
  std::byte *base_ = nullptr;
  std::size_t size_ = 0;
  std::string name_;  // set while this PE still owns the name
  bool keep_mapping_ = false;  // release() leaves the mapping (see move_to)
};

}  // namespace shoal::heap
