// Symmetric heap management (specification section "Memory Management Routines"). Every call
// is collective: all PEs make the same calls in the same order, so the deterministic allocator
// hands out the same offsets everywhere.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "api/export.hpp"
#include "api/library.hpp"
#include "collectives/collectives.hpp"
#include "collectives/slot.hpp"
#include "log/log.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"
#include "team/team.hpp"

using shoal::library::running;

namespace {

using shoal::g_runtime;

bool is_power_of_two(std::size_t v) { return v != 0 && (v & (v - 1)) == 0; }

// Every PE's `value`, gathered through an fcollect into the world team's count array (as
// collect exchanges its counts); null if the collective failed (it said why).
const std::uint64_t *gather_from_every_pe(std::uint64_t value, const char *routine) noexcept {
  auto *all = shoal::coll::channel_slot(shoal_team_world).counts;
  if (shoal::coll::fcollect(&shoal_team_world, all, &value, 1, sizeof value, routine) != 0)
    return nullptr;
  return all;
}

// With SMA_DEBUG set, checks that every PE passed the same `value` to a collective memory
// routine: the heap stays symmetric only if every PE makes the same allocations. A difference
// is fatal on every PE, naming the first PE that differs from PE 0. Costs one collective per
// call, so it is off by default.
void check_same_on_every_pe(const char *routine, const char *what, std::uint64_t value,
                            const char *unit) noexcept {
  const shoal::Runtime &rt = *g_runtime;
  if (!rt.config.debug || rt.n_pes == 1) return;
  const std::uint64_t *all = gather_from_every_pe(value, routine);
  if (all == nullptr) return;
  for (int pe = 1; pe < rt.n_pes; ++pe)
    if (all[pe] != all[0])
      shoal::fatal(
          fmt::format("{}: PE {} asked for {}{}{}, PE 0 for {}{}{} (SMA_DEBUG check: "
                      "every PE must make the same call)",
                      routine, pe, what, all[pe], unit, what, all[0], unit));
}

// Commits the memory of the heap up to offset `end` on every PE, so that a block is never handed
// out where a store could find no memory. Every PE's allocator is in the same state, so all
// come here at the same calls; the heap grows only if every PE could commit (a PE that could
// not says why), otherwise the block is refused everywhere, as when the heap is exhausted.
bool commit_on_every_pe(std::size_t end, const char *routine) noexcept {
  shoal::Runtime &rt = *g_runtime;
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  end = std::min((end + page - 1) / page * page, rt.allocator.capacity());
  const shoal::Failure committed = rt.commit_heap(end);
  const bool here = committed.ok();
  if (!here) SMA_LOG_ERROR("heap", "{}: PE {} {}", routine, rt.my_pe, committed.why());
  bool everywhere = here;
  if (rt.n_pes > 1) {
    const std::uint64_t *all = gather_from_every_pe(here ? 1 : 0, routine);
    for (int pe = 0; all != nullptr && pe < rt.n_pes; ++pe) everywhere = everywhere && all[pe] == 1;
    everywhere = everywhere && all != nullptr;
  }
  if (!everywhere) {
    shoal::set_last_error(fmt::format("{}: a PE cannot commit the memory of the block", routine));
    return false;
  }
  rt.heap_committed = std::max(rt.heap_committed, end);
  return true;
}

// The value the checks compare for a block argument: its heap offset, or all ones for NULL and
// for addresses outside the heap (which block_offset reports).
std::uint64_t offset_of(const void *ptr) noexcept {
  const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(ptr) - g_runtime->heap_base;
  return ptr != nullptr && offset < g_runtime->heap_size ? offset : ~std::uint64_t{0};
}

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
  if (*offset + size > rt.heap_committed && !commit_on_every_pe(*offset + size, routine)) {
    rt.allocator.release(*offset);
    return nullptr;
  }
  return reinterpret_cast<void *>(rt.heap_base + *offset);
}

// The heap offset of a block this library handed out, or a fatal error naming the routine.
std::size_t block_offset(const void *ptr, const char *routine) noexcept {
  shoal::Runtime &rt = *g_runtime;
  const auto a = reinterpret_cast<std::uintptr_t>(ptr);
  if (a - rt.heap_base >= rt.heap_size || !rt.allocator.block_size(a - rt.heap_base))
    shoal::fatal(
        fmt::format("{}: {} is not a live block of the symmetric heap (never allocated "
                    "by shmem_malloc, or already freed)",
                    routine, ptr));
  return a - rt.heap_base;
}

void release(void *ptr, const char *routine) noexcept {
  shoal::Runtime &rt = running(routine);
  check_same_on_every_pe(routine, "the block at heap offset ", offset_of(ptr), "");
  // Every PE must be done with the block, remotely too, before anyone reuses it.
  shoal::coll::barrier_all(routine);
  if (ptr == nullptr) return;
  rt.allocator.release(block_offset(ptr, routine));
}

void *aligned_malloc(std::size_t alignment, std::size_t size, const char *routine) noexcept {
  running(routine);
  check_same_on_every_pe(routine, "", size, " bytes");
  check_same_on_every_pe(routine, "alignment ", alignment, "");
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
  check_same_on_every_pe(routine, "", size, " bytes");
  check_same_on_every_pe(routine, "the block at heap offset ", offset_of(ptr), "");
  if (ptr == nullptr)
    return aligned_malloc(shoal::heap::HeapAllocator::kMinAlignment, size, routine);
  if (size == 0) {
    release(ptr, routine);
    return nullptr;
  }
  shoal::coll::barrier_all(routine);
  const std::size_t offset = block_offset(ptr, routine);
  void *result = ptr;
  // Growing in place needs the memory behind the block (refused: it moves, if it can). A size
  // whose end would wrap around the address space has none.
  const bool end_wraps = size > std::numeric_limits<std::size_t>::max() - offset;
  const bool memory_behind = !end_wraps && (offset + size <= rt.heap_committed ||
                                            commit_on_every_pe(offset + size, routine));
  if (!memory_behind || !rt.allocator.grow_in_place(offset, size)) {
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
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(count, size, &bytes)) bytes = SIZE_MAX;  // compared, never used
  check_same_on_every_pe("shmem_calloc", "", bytes, " bytes");
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
