// Symmetric heap management (specification section "Memory Management Routines"). Every call
// is collective: all PEs make the same calls in the same order, so the deterministic allocator
// hands out the same offsets everywhere.
#include <spdlog/fmt/fmt.h>

#include <cstring>

#include "api/export.hpp"
#include "collectives/collectives.hpp"
#include "log/log.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"

namespace {

using shoal::g_runtime;

shoal::Runtime &running(const char *routine) noexcept {
  shoal::rma::check_ctx(&shoal_ctx_default, routine);
  return *g_runtime;
}

bool is_power_of_two(std::size_t v) { return v != 0 && (v & (v - 1)) == 0; }

// Allocates without synchronizing; the callers add the barrier the routine's contract needs.
void *allocate(std::size_t size, std::size_t alignment, const char *routine) noexcept {
  shoal::Runtime &rt = running(routine);
  if (size == 0) return nullptr;
  const auto offset = rt.allocator.allocate(size, alignment);
  if (!offset) {
    if (rt.my_pe == 0)
      SMA_LOG_ERROR("heap",
                    "{}: symmetric heap exhausted: {} bytes requested, {} of {} in use, largest "
                    "free block {} bytes (raise SHMEM_SYMMETRIC_SIZE)",
                    routine, size, rt.allocator.in_use(), rt.allocator.capacity(),
                    rt.allocator.largest_free());
    shoal::set_last_error(fmt::format("{}: symmetric heap exhausted", routine));
    return nullptr;
  }
  return reinterpret_cast<void *>(rt.heap_base + *offset);
}

// The heap offset of a block this library handed out, or a fatal error naming the routine.
std::size_t block_offset(const void *ptr, const char *routine) noexcept {
  shoal::Runtime &rt = *g_runtime;
  const auto a = reinterpret_cast<std::uintptr_t>(ptr);
  if (a - rt.heap_base >= rt.heap_size || !rt.allocator.block_size(a - rt.heap_base))
    shoal::fatal(fmt::format("{}: {} is not a live block of the symmetric heap (never allocated "
                             "by shmem_malloc, or already freed)",
                             routine, ptr));
  return a - rt.heap_base;
}

void release(void *ptr, const char *routine) noexcept {
  shoal::Runtime &rt = running(routine);
  // Every PE must be done with the block, remotely too, before anyone reuses it.
  shoal::coll::barrier_all(routine);
  if (ptr == nullptr) return;
  rt.allocator.release(block_offset(ptr, routine));
}

void *aligned_malloc(std::size_t alignment, std::size_t size, const char *routine) noexcept {
  running(routine);
  if (!is_power_of_two(alignment)) {
    SMA_LOG_ERROR("heap", "{}: alignment {} is not a power of two", routine, alignment);
    shoal::coll::barrier_all(routine);
    return nullptr;
  }
  void *p = allocate(size, alignment, routine);
  shoal::coll::barrier_all(routine);
  return p;
}

void *reallocate(void *ptr, std::size_t size, const char *routine) noexcept {
  shoal::Runtime &rt = running(routine);
  if (ptr == nullptr) return aligned_malloc(shoal::heap::HeapAllocator::kMinAlignment, size, routine);
  if (size == 0) {
    release(ptr, routine);
    return nullptr;
  }
  shoal::coll::barrier_all(routine);
  const std::size_t offset = block_offset(ptr, routine);
  void *result = ptr;
  if (!rt.allocator.grow_in_place(offset, size)) {
    const std::size_t old_size = *rt.allocator.block_size(offset);
    result = allocate(size, shoal::heap::HeapAllocator::kMinAlignment, routine);
    if (result != nullptr) {
      std::memcpy(result, ptr, std::min(old_size, size));
      rt.allocator.release(offset);
    }
  }
  shoal::coll::barrier_all(routine);
  return result;
}

}  // namespace

extern "C" void *pshmem_malloc(size_t size) noexcept {
  return aligned_malloc(shoal::heap::HeapAllocator::kMinAlignment, size, "shmem_malloc");
}
SMA_WEAK_ALIAS(shmem_malloc)

extern "C" void *pshmem_malloc_with_hints(size_t size, long hints) noexcept {
  // The hints promise how memory will be used; every block already supports every use.
  (void)hints;
  return aligned_malloc(shoal::heap::HeapAllocator::kMinAlignment, size, "shmem_malloc_with_hints");
}
SMA_WEAK_ALIAS(shmem_malloc_with_hints)

extern "C" void *pshmem_calloc(size_t count, size_t size) noexcept {
  running("shmem_calloc");
  void *p = nullptr;
  if (size != 0 && count > SIZE_MAX / size) {
    SMA_LOG_ERROR("heap", "shmem_calloc: {} elements of {} bytes overflow size_t", count, size);
  } else {
    p = allocate(count * size, shoal::heap::HeapAllocator::kMinAlignment, "shmem_calloc");
    if (p) std::memset(p, 0, count * size);  // before the barrier: peers may write right after
  }
  shoal::coll::barrier_all("shmem_calloc");
  return p;
}
SMA_WEAK_ALIAS(shmem_calloc)

extern "C" void *pshmem_align(size_t alignment, size_t size) noexcept {
  return aligned_malloc(alignment, size, "shmem_align");
}
SMA_WEAK_ALIAS(shmem_align)

extern "C" void *pshmem_realloc(void *ptr, size_t size) noexcept {
  return reallocate(ptr, size, "shmem_realloc");
}
SMA_WEAK_ALIAS(shmem_realloc)

extern "C" void pshmem_free(void *ptr) noexcept { release(ptr, "shmem_free"); }
SMA_WEAK_ALIAS(shmem_free)
