// Put and get of bytes between this PE and any PE: plain loads and stores where the target
// memory is mapped here (this PE, or the heap or globals of a PE on the same node), UCX
// otherwise.
// Every routine takes the context it issues on and the name of the API routine, for errors.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ctx/context.hpp"
#include "runtime.hpp"

extern "C" {
__attribute__((visibility("default"))) extern shoal_team shoal_team_world;
}

namespace shoal::rma {

// Where one symmetric range lives on a target PE.
struct Target {
  std::byte *direct;      // reachable with loads/stores from here, or null
  std::uintptr_t remote;  // its address in the target PE (for UCX)
  int segment;
};

// Checks the library is running, pe is a PE of the job and [addr, addr+bytes) is symmetric
// memory of this PE; otherwise reports the error naming the routine and ends the job. A range
// that starts in the user's part of the heap must end there too: the library's own symmetric
// area (team flags, collective scratch) follows it and must not be overwritten.
Target resolve(const void *addr, std::size_t bytes, int pe, const char *routine) noexcept;

// Reports a count that is negative (converted to size_t) or whose byte size overflows, naming
// the routine, the address and the count; never returns.
[[noreturn]] void bad_count(std::size_t nelems, std::size_t elem_size, const void *addr, int pe,
                            const char *routine) noexcept;

// The byte size of nelems elements of elem_size bytes at addr; fatal (bad_count) when it would
// exceed PTRDIFF_MAX, which no object can: a negative count or an overflowing product. Every
// API entry point passes a constant elem_size, so the check is one comparison.
inline std::size_t byte_size(std::size_t nelems, std::size_t elem_size, const void *addr, int pe,
                             const char *routine) noexcept {
  if (nelems > static_cast<std::size_t>(PTRDIFF_MAX) / elem_size) [[unlikely]]
    bad_count(nelems, elem_size, addr, pe, routine);
  return nelems * elem_size;
}

// The bytes a strided access covers, from the start of its first element to the end of its
// last: nblocks blocks of block_elems elements of elem_size bytes, consecutive blocks stride
// elements apart. A negative stride or count, or an extent that overflows, is fatal.
std::size_t strided_extent(const void *addr, std::ptrdiff_t stride, std::size_t block_elems,
                           std::size_t nblocks, std::size_t elem_size, int pe,
                           const char *routine) noexcept;
// Report a call outside shmem_init..shmem_finalize, a PE out of range or an invalid context,
// naming the routine; never return.
[[noreturn]] void not_running(const char *routine) noexcept;
[[noreturn]] void pe_out_of_range(int pe, const char *routine) noexcept;
[[noreturn]] void invalid_ctx(const shoal_ctx *ctx, const char *routine) noexcept;

// Checks the library is running and pe is a PE of the job. Inline, with the reports out of line:
// every call of the slow path and every query (shmem_my_pe, which programs call in their loops)
// passes here.
inline void check_pe(int pe, const char *routine) noexcept {
  const Runtime *rt = g_runtime;
  if (rt == nullptr) [[unlikely]]
    not_running(routine);
  if (static_cast<unsigned>(pe) >= static_cast<unsigned>(rt->n_pes)) [[unlikely]]
    pe_out_of_range(pe, routine);
}
// The same checks for the context handle.
inline void check_ctx(const shoal_ctx *ctx, const char *routine) noexcept {
  if (g_runtime == nullptr) [[unlikely]]
    not_running(routine);
  if (ctx == nullptr || ctx->worker == nullptr) [[unlikely]]
    invalid_ctx(ctx, routine);
}
// The world PE of `pe`, which counts within the context's team (contexts made by
// shmem_team_create_ctx); out of range is fatal.
int to_world(const shoal_ctx *ctx, int pe, const char *routine) noexcept;

// ---- the fast path ------------------------------------------------------------------------
// Most calls on one node are a check and a copy. They are inlined into every API entry point
// (always: in api/rma.cpp, which stamps out hundreds of entry points, GCC's unit-growth limit
// otherwise leaves some of them calls); anything else (UCX, the data segment, contexts of other
// teams, errors) takes the full path.

// Where [addr, addr + bytes) of world PE `pe` is mapped here, for a call on a valid context of
// the world team whose target is in the symmetric heap, or the shared part of the data segment
// (globals), of a PE on this node; null for every other call (the full path then checks it and
// reports what is wrong).
[[gnu::always_inline]] inline std::byte *mapped_memory(const shoal_ctx *ctx, const void *addr,
                                                       std::size_t bytes, int pe) noexcept {
  const Runtime *rt = g_runtime;
  if (rt == nullptr || ctx == nullptr || ctx->worker == nullptr) [[unlikely]]
    return nullptr;
  if (ctx->team != nullptr && ctx->team != &shoal_team_world) return nullptr;
  if (static_cast<unsigned>(pe) >= static_cast<unsigned>(rt->n_pes)) [[unlikely]]
    return nullptr;
  const PeerView &peer = rt->peers[static_cast<std::size_t>(pe)];
  const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(addr) - rt->heap_base;
  if (offset >= rt->heap_size) {
    // Globals: from the shared part's start to the segment's end.
    const std::uintptr_t data_offset =
        reinterpret_cast<std::uintptr_t>(addr) - rt->data_base - rt->data_shared_offset;
    const std::uintptr_t shared_bytes = rt->data_size - rt->data_shared_offset;
    if (data_offset >= shared_bytes || bytes > shared_bytes - data_offset) return nullptr;
    return peer.data_mapped ? peer.data_mapped + data_offset : nullptr;
  }
  // A range starting in the user's heap ends before the library's area (see resolve).
  const std::uintptr_t user_end =
      reinterpret_cast<std::uintptr_t>(rt->library_area) - rt->heap_base;
  const std::uintptr_t end = offset < user_end ? user_end : rt->heap_size;
  if (bytes > end - offset) return nullptr;
  return peer.heap_mapped ? peer.heap_mapped + offset : nullptr;
}

// memcpy with the common small sizes unrolled, so an 8-byte put is one store.
[[gnu::always_inline]] inline void copy(void *dest, const void *source,
                                        std::size_t bytes) noexcept {
  switch (bytes) {
    case 8:
      std::memcpy(dest, source, 8);
      return;
    case 4:
      std::memcpy(dest, source, 4);
      return;
    case 16:
      std::memcpy(dest, source, 16);
      return;
    case 1:
      std::memcpy(dest, source, 1);
      return;
    case 2:
      std::memcpy(dest, source, 2);
      return;
    default:
      std::memcpy(dest, source, bytes);
  }
}

enum class Direction { put, get };

// The full path of one contiguous transfer between local memory and the symmetric object
// `remote` of PE pe (counted in the context's team). blocking: return once `local` may be reused
// (put) or holds the data (get); otherwise the transfer completes at the next quiet.
void transfer(Direction dir, bool blocking, shoal_ctx *ctx, void *local, const void *remote,
              std::size_t bytes, int pe, const char *routine) noexcept;

[[gnu::always_inline]] inline void put(shoal_ctx *ctx, void *dest, const void *source,
                                       std::size_t bytes, int pe, const char *routine) noexcept {
  if (std::byte *target = mapped_memory(ctx, dest, bytes, pe)) [[likely]]
    return copy(target, source, bytes);
  transfer(Direction::put, true, ctx, const_cast<void *>(source), dest, bytes, pe, routine);
}
[[gnu::always_inline]] inline void get(shoal_ctx *ctx, void *dest, const void *source,
                                       std::size_t bytes, int pe, const char *routine) noexcept {
  if (const std::byte *target = mapped_memory(ctx, source, bytes, pe)) [[likely]]
    return copy(dest, target, bytes);
  transfer(Direction::get, true, ctx, dest, source, bytes, pe, routine);
}
// On mapped memory a nonblocking transfer is done at once, like a blocking one.
[[gnu::always_inline]] inline void put_nbi(shoal_ctx *ctx, void *dest, const void *source,
                                           std::size_t bytes, int pe,
                                           const char *routine) noexcept {
  if (std::byte *target = mapped_memory(ctx, dest, bytes, pe)) [[likely]]
    return copy(target, source, bytes);
  transfer(Direction::put, false, ctx, const_cast<void *>(source), dest, bytes, pe, routine);
}
[[gnu::always_inline]] inline void get_nbi(shoal_ctx *ctx, void *dest, const void *source,
                                           std::size_t bytes, int pe,
                                           const char *routine) noexcept {
  if (const std::byte *target = mapped_memory(ctx, source, bytes, pe)) [[likely]]
    return copy(dest, target, bytes);
  transfer(Direction::get, false, ctx, dest, source, bytes, pe, routine);
}

// Strided transfers: nblocks blocks of block_elems contiguous elements of elem_size bytes; the
// starts of consecutive blocks are dest_stride and source_stride elements apart. iput/iget are
// the case block_elems == 1.
void put_strided(shoal_ctx *ctx, void *dest, const void *source, std::ptrdiff_t dest_stride,
                 std::ptrdiff_t source_stride, std::size_t block_elems, std::size_t nblocks,
                 std::size_t elem_size, int pe, const char *routine) noexcept;
void get_strided(shoal_ctx *ctx, void *dest, const void *source, std::ptrdiff_t dest_stride,
                 std::ptrdiff_t source_stride, std::size_t block_elems, std::size_t nblocks,
                 std::size_t elem_size, int pe, const char *routine) noexcept;

// Sends the puts the context combined for pe (rma/put_batch.hpp) ahead of another operation to
// pe, so that operations to one PE leave in the order they were issued.
inline void send_combined_puts(shoal_ctx *ctx, int pe, const char *routine) noexcept {
  if (ctx->batches != nullptr) ctx->batches->send(pe, routine);
}

// The full path of quiet: sends the combined puts and flushes the context's UCX worker.
void quiet_ucx(shoal_ctx *ctx, const char *routine) noexcept;

// Completes every put and get this context issued (shmem_quiet). Stores to mapped memory become
// visible in program order; the fence keeps the compiler and the CPU from moving them past this
// point. Only a context that handed something to UCX since its last quiet needs a flush.
// Without a progress thread (SMA_PROGRESS_THREAD=0) a PE serves other PEs' operations only
// inside the library, so a quiet with nothing to complete still passes over its worker once: a
// PE that polls memory and quiets in between does not leave a peer's quiet waiting for it.
inline void quiet(shoal_ctx *ctx, const char *routine) noexcept {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (g_runtime != nullptr && ctx != nullptr && ctx->worker != nullptr &&
      !ctx->ucx_pending.load(std::memory_order_relaxed) && !ctx->used_at_once()) [[likely]] {
    if (!g_runtime->config.progress_thread) [[unlikely]]
      ctx->worker->progress();
    return;
  }
  quiet_ucx(ctx, routine);
}
// Orders this context's puts to each PE (shmem_fence).
void fence(shoal_ctx *ctx, const char *routine) noexcept;

}  // namespace shoal::rma
