// The non-template part of point-to-point synchronization: validating the comparison operator.
#include "atomics/p2p_sync.hpp"

#include <spdlog/fmt/fmt.h>

#include "rma/rma.hpp"
#include "status.hpp"

namespace shoal::p2p {

Cmp check(int cmp, const char *routine) noexcept {
  // Misuse before shmem_init / after shmem_finalize is reported first: the worker we would
  // progress does not exist then.
  rma::check_ctx(&shoal_ctx_default, routine);
  if (cmp < static_cast<int>(Cmp::eq) || cmp > static_cast<int>(Cmp::ge))
    fatal(fmt::format("{}: invalid comparison operator {} (expected one of SHMEM_CMP_EQ, "
                      "SHMEM_CMP_NE, SHMEM_CMP_GT, SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE)",
                      routine, cmp));
  return static_cast<Cmp>(cmp);
}

}  // namespace shoal::p2p
