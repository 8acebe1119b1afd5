// SHPALLOC, SHPDEALLC and SHPCLMOVE: the 1.0 Fortran symmetric heap routines, on the C heap
// routines. addr is the Cray pointer (an address-sized integer) the block goes into; length
// counts 32-bit words. Errors come back in errcode as the 1.0 text's codes made negative:
//   -1 length is not positive, -2 no memory, -3 addr is not in the symmetric heap,
//   -4 the block was freed already, -5 addr is inside a block but not at its start;
// with abort nonzero an error ends the job with a message naming the routine instead.
// Every PE makes the same call (they are collective), so every PE finds the same error and
// none of them enters the barrier of the heap routine.
#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "api/export.hpp"
#include "api/library.hpp"
#include "fortran.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"
#include "status.hpp"

using shoal::library::running;

using shoal::fortran::Fint;

namespace {

constexpr Fint kBadLength = -1, kNoMemory = -2, kNotInHeap = -3, kFreed = -4, kNotStart = -5;

const char *describe(Fint code) noexcept {
  switch (code) {
    case kBadLength:
      return "length must be a positive number of 32-bit words";
    case kNoMemory:
      return "not enough symmetric memory (raise SHMEM_SYMMETRIC_SIZE)";
    case kNotInHeap:
      return "the address is not in the symmetric heap";
    case kFreed:
      return "the block was freed already";
    case kNotStart:
      return "the address is not the start of a block";
    default:
      return "error";
  }
}

// Reports an error: in errcode, or (abort nonzero) as a fatal error naming the routine.
void fail(Fint code, Fint *errcode, const Fint *abort, const char *routine,
          const std::string &detail) noexcept {
  const std::string message =
      fmt::format("{}: {}{} (error {})", routine, describe(code), detail, code);
  if (*abort != 0) shoal::fatal(message);
  shoal::set_last_error(message);
  *errcode = code;
}

// 0 when addr starts a live block of the symmetric heap, else the error code.
Fint check_block(const void *addr) noexcept {
  const shoal::Runtime &rt = *shoal::g_runtime;
  const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(addr) - rt.heap_base;
  if (offset >= rt.heap_size) return kNotInHeap;
  if (rt.allocator.block_size(offset)) return 0;
  return rt.allocator.inside_block(offset) ? kNotStart : kFreed;
}

}  // namespace

SMA_F_API void pshpalloc_(void **addr, const Fint *length, Fint *errcode,
                          const Fint *abort) noexcept {
  running("SHPALLOC");
  if (*length <= 0)
    return fail(kBadLength, errcode, abort, "SHPALLOC", fmt::format(" (length {})", *length));
  const std::size_t bytes = static_cast<std::size_t>(*length) * 4;
  // A request no free block can hold is -2 at once: the errcode is the report (shmem_malloc
  // would log an error naming itself). Every PE's heap is the same, so every PE agrees.
  void *p = bytes > shoal::g_runtime->allocator.largest_free() ? nullptr : pshmem_malloc(bytes);
  if (p == nullptr)
    return fail(kNoMemory, errcode, abort, "SHPALLOC",
                fmt::format(" ({} words asked for)", *length));
  *addr = p;
  *errcode = 0;
}
SMA_F_ALIAS(shpalloc_)

SMA_F_API void pshpdeallc_(void **addr, Fint *errcode, const Fint *abort) noexcept {
  running("SHPDEALLC");
  if (const Fint code = check_block(*addr); code != 0)
    return fail(code, errcode, abort, "SHPDEALLC", fmt::format(" (address {})", *addr));
  pshmem_free(*addr);
  *errcode = 0;
}
SMA_F_ALIAS(shpdeallc_)

// errcode 0: resized in place; 1: moved (addr holds the new address, the contents copied).
SMA_F_API void pshpclmove_(void **addr, const Fint *length, Fint *errcode,
                           const Fint *abort) noexcept {
  running("SHPCLMOVE");
  if (*length <= 0)
    return fail(kBadLength, errcode, abort, "SHPCLMOVE", fmt::format(" (length {})", *length));
  if (const Fint code = check_block(*addr); code != 0)
    return fail(code, errcode, abort, "SHPCLMOVE", fmt::format(" (address {})", *addr));
  void *p = pshmem_realloc(*addr, static_cast<std::size_t>(*length) * 4);
  if (p == nullptr)  // the block stays where it was, as it was
    return fail(kNoMemory, errcode, abort, "SHPCLMOVE",
                fmt::format(" ({} words asked for)", *length));
  *errcode = p == *addr ? 0 : 1;
  *addr = p;
}
SMA_F_ALIAS(shpclmove_)
