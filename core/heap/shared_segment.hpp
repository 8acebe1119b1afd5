// A PE's symmetric memory (its heap, and its data segment when shared) as an anonymous shared-
// memory file (memfd), so PEs of the same node can map it. A memfd lives on the kernel's own
// tmpfs, which has no size limit: a small /dev/shm (64 MiB in a container) limits nothing, and
// the memory never shows up as a file a killed job could leave behind.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "status.hpp"

namespace shoal::heap {

// How another process of this user on the node opens a segment: through the creating
// process's descriptor, /proc/<pid>/fd/<fd>. The inode tells that what it opened is the
// segment itself (a descriptor number the creator has reused since would name another file).
struct SegmentHandle {
  std::int64_t pid = -1;
  std::int64_t fd = -1;
  std::uint64_t inode = 0;
};

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
      fd_ = std::exchange(other.fd_, -1);
      inode_ = std::exchange(other.inode_, 0);
      keep_mapping_ = std::exchange(other.keep_mapping_, false);
    }
    return *this;
  }
  ~SharedSegment() { release(); }

  // Creates a new segment of `size` bytes (a memfd labelled `label` in /proc/<pid>/maps),
  // readable and writable by this user only, mapped at an address aligned to the smallest power
  // of two >= size (so that heap offsets are as aligned as addresses). No memory is committed
  // until reserve() or a first touch.
  Status create(const char *label, std::size_t size);
  // Anonymous private memory: the heap when no other PE will map it.
  Status create_private(std::size_t size);
  // Maps a segment another PE of the node created; refuses a file that is not that segment
  // (other inode), not this user's, not mode 0600 or not exactly `size` bytes.
  Status attach(const SegmentHandle &handle, std::size_t size);
  // Commits the memory of [offset, offset + bytes) of a created segment (fallocate), so that
  // running out of memory is an error here rather than a signal at a later store. A private
  // segment commits nothing (its pages come from the process's own memory).
  Status reserve(std::size_t offset, std::size_t bytes);
  // Moves this (new, created) segment's mapping to `where`, replacing the pages there
  // (mremap), and keeps it mapped when released: the data segment's globals move in. Fails
  // with nothing changed when the kernel refuses.
  Status move_to(std::byte *where) noexcept;
  // Where the node's other PEs open it; only valid for a created segment while it lives.
  SegmentHandle handle() const noexcept;
  void release() noexcept;

  std::byte *base() const noexcept { return base_; }
  std::size_t size() const noexcept { return size_; }
  bool shared() const noexcept { return fd_ >= 0; }

 private:
  std::byte *base_ = nullptr;
  std::size_t size_ = 0;
  int fd_ = -1;  // a created segment's memfd, kept open while it lives: peers open it by it
  std::uint64_t inode_ = 0;
  bool keep_mapping_ = false;  // release() leaves the mapping (see move_to)
};

}  // namespace shoal::heap
