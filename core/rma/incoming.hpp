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

// The copy a PE's put makes into this PE's memory, like the ones UCX's own put handler makes.
// This PE's program orders it against its own accesses across processes (the sender's step
// follows what this PE did before it signalled), which ThreadSanitizer, seeing one process,
// cannot observe; UCX's copies are not instrumented, and neither is this one. An atomic store
// after it (a counter, a signal) stays checked.
inline void copy_for_peer(void *dest, const void *data, std::size_t bytes) noexcept {
#if defined(__SANITIZE_THREAD__)
  AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
#endif
  std::memcpy(dest, data, bytes);
#if defined(__SANITIZE_THREAD__)
  AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
#endif
}

// The copy a PE's get makes out of this PE's memory, like UCX's own get handler: not
// instrumented either, for the same reason.
inline void copy_from_peer(void *dest, const void *source, std::size_t bytes) noexcept {
#if defined(__SANITIZE_THREAD__)
  AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
#endif
  std::memcpy(dest, source, bytes);
#if defined(__SANITIZE_THREAD__)
  AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
#endif
}

}  // namespace shoal::rma
