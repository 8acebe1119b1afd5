// Put and get of bytes between this PE and any PE: plain loads and stores where the target
// memory is mapped here (this PE, or a heap of a PE on the same node), UCX otherwise.
// Every routine takes the context it issues on and the name of the API routine, for errors.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ctx/context.hpp"
#include "runtime.hpp"

namespace shoal::rma {

// Where one symmetric range lives on a target PE.
struct Target {
  std::byte *direct;        // reachable with loads/stores from here, or null
  std::uintptr_t remote;    // its address in the target PE (when direct is null)
  int segment;
};

// Checks the library is running, pe is a PE of the job and [addr, addr+bytes) is symmetric
// memory of this PE; otherwise reports the error naming the routine and ends the job.
Target resolve(const void *addr, std::size_t bytes, int pe, const char *routine) noexcept;
// Checks the library is running and pe is a PE of the job.
void check_pe(int pe, const char *routine) noexcept;
// The same checks for the context handle.
void check_ctx(const shoal_ctx *ctx, const char *routine) noexcept;
// The world PE of `pe`, which counts within the context's team (contexts made by
// shmem_team_create_ctx); out of range is fatal.
int to_world(const shoal_ctx *ctx, int pe, const char *routine) noexcept;

void put(shoal_ctx *ctx, void *dest, const void *source, std::size_t bytes, int pe,
         const char *routine) noexcept;
void get(shoal_ctx *ctx, void *dest, const void *source, std::size_t bytes, int pe,
         const char *routine) noexcept;
void put_nbi(shoal_ctx *ctx, void *dest, const void *source, std::size_t bytes, int pe,
             const char *routine) noexcept;
void get_nbi(shoal_ctx *ctx, void *dest, const void *source, std::size_t bytes, int pe,
             const char *routine) noexcept;

// Strided transfers: nblocks blocks of block_elems contiguous elements of elem_size bytes; the
// starts of consecutive blocks are dest_stride and source_stride elements apart. iput/iget are
// the case block_elems == 1.
void put_strided(shoal_ctx *ctx, void *dest, const void *source, std::ptrdiff_t dest_stride,
                 std::ptrdiff_t source_stride, std::size_t block_elems, std::size_t nblocks,
                 std::size_t elem_size, int pe, const char *routine) noexcept;
void get_strided(shoal_ctx *ctx, void *dest, const void *source, std::ptrdiff_t dest_stride,
                 std::ptrdiff_t source_stride, std::size_t block_elems, std::size_t nblocks,
                 std::size_t elem_size, int pe, const char *routine) noexcept;

// Completes every put and get this context issued (shmem_quiet).
void quiet(shoal_ctx *ctx, const char *routine) noexcept;
// Orders this context's puts to each PE (shmem_fence).
void fence(shoal_ctx *ctx, const char *routine) noexcept;

}  // namespace shoal::rma
