// The non-template part of point-to-point synchronization: validating the comparison operator.
#include "atomics/p2p_sync.hpp"

#include <fmt/format.h>

#include <cstdint>

#include "rma/rma.hpp"
#include "runtime.hpp"
#include "status.hpp"

namespace shoal::p2p {

Cmp check(int cmp, const char *routine) noexcept {
  // Misuse before shmem_init / after shmem_finalize is reported first: the worker we would
  // progress does not exist then.
  rma::check_ctx(&shoal_ctx_default, routine);
  if (cmp < static_cast<int>(Cmp::eq) || cmp > static_cast<int>(Cmp::ge))
    fatal(
        fmt::format("{}: invalid comparison operator {} (expected one of SHMEM_CMP_EQ, "
                    "SHMEM_CMP_NE, SHMEM_CMP_GT, SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE)",
                    routine, cmp));
  return static_cast<Cmp>(cmp);
}

void check_ivars(const void *ivars, std::size_t n, std::size_t elem_size, std::size_t alignment,
                 const char *routine) noexcept {
  const int me = g_runtime->my_pe;
  const std::size_t bytes = rma::byte_size(n, elem_size, ivars, me, routine);
  if (n == 0) return;  // nothing is read: the array may be anything, even NULL
  if (reinterpret_cast<std::uintptr_t>(ivars) % alignment != 0)
    fatal(fmt::format("{}: the variable {} is not aligned to its {}-byte type", routine, ivars,
                      alignment));
  (void)rma::resolve(ivars, bytes, me, routine);
}

}  // namespace shoal::p2p
