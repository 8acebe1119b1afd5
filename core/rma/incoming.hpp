// What the receiving side of a message (store messages, combined puts and gets) needs to place
// another PE's data into this PE's memory or read it for another PE: where a symmetric
// (segment, offset) range lies here, and the copies themselves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "runtime.hpp"

#if defined(__SANITIZE_THREAD__)
extern "C" void AnnotateIgnoreWritesBegin(const char *file, int line);
extern "C" void AnnotateIgnoreWritesEnd(const char *file, int line);
extern "C" void AnnotateIgnoreReadsBegin(const char *file, int line);
extern "C" void AnnotateIgnoreReadsEnd(const char *file, int line);
#endif

namespace shoal::rma {

// This PE's address of [offset, offset + bytes) in segment, or null when out of it.
inline std::byte *local_range(const Runtime &rt, std::uint32_t segment, std::uint64_t offset,
                              std::size_t bytes) noexcept {
  const std::uintptr_t base = segment == kHeapSegment ? rt.heap_base : rt.data_base;
  const std::size_t size = segment == kHeapSegment ? rt.heap_size : rt.data_size;
  if (segment >= kSegmentCount || offset > size || bytes > size - offset) return nullptr;
  return reinterpret_cast<std::byte *>(base + offset);
}

// What a handler does to this PE's symmetric memory on another PE's behalf (a put's copy, a
// get's copy, a put-with-signal's signal or a non-fetching AMO's update) ThreadSanitizer does
// not record, just as UCX's own handlers for the same operations are not instrumented. This
// PE's program orders these accesses against its own across processes (the sender's step
// follows what this PE did before its barrier or signal), which ThreadSanitizer, seeing one
// process, cannot observe: `*sig = 0; shmem_barrier_all();` before a peer's put-with-signal,
// or a flag polled through volatile (the old SHMEM idiom), would be reported as races with
// the handler. An atomic update still orders: ThreadSanitizer skips only its recording as an
// access. A handler's words of its own (a collective's counter) stay checked.
class UnrecordedPeerAccess {
 public:
  UnrecordedPeerAccess() noexcept {
#if defined(__SANITIZE_THREAD__)
    AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
    AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
#endif
  }
  ~UnrecordedPeerAccess() {
#if defined(__SANITIZE_THREAD__)
    AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
    AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
#endif
  }
  UnrecordedPeerAccess(const UnrecordedPeerAccess &) = delete;
  UnrecordedPeerAccess &operator=(const UnrecordedPeerAccess &) = delete;
};

// The copy a PE's put makes into this PE's memory.
inline void copy_for_peer(void *dest, const void *data, std::size_t bytes) noexcept {
  const UnrecordedPeerAccess unrecorded;
  std::memcpy(dest, data, bytes);
}

// The copy a PE's get makes out of this PE's memory.
inline void copy_from_peer(void *dest, const void *source, std::size_t bytes) noexcept {
  const UnrecordedPeerAccess unrecorded;
  std::memcpy(dest, source, bytes);
}

}  // namespace shoal::rma
