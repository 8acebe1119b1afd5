// Ordering and completion (fence, quiet), the deprecated cache routines, profiling control and
// the shmemx error-text extension.
#include "api/export.hpp"
#include "observe/observe.hpp"
#include "rma/rma.hpp"
#include "status.hpp"

extern "C" void pshmem_fence(void) noexcept {
  SMA_OBSERVED(quiet, "shmem_fence", 0, -1, shoal::rma::fence(&shoal_ctx_default, "shmem_fence"));
}
SMA_WEAK_ALIAS(shmem_fence)
// On SHMEM_CTX_INVALID, fence and quiet perform no operation (OpenSHMEM 1.5, 1.6); a call
// outside init..finalize is still an error.
namespace {
bool invalid_ctx(shmem_ctx_t ctx, const char *routine) noexcept {
  if (ctx != SHMEM_CTX_INVALID) return false;
  shoal::rma::check_ctx(&shoal_ctx_default, routine);
  return true;
}
}  // namespace

extern "C" void pshmem_ctx_fence(shmem_ctx_t ctx) noexcept {
  if (invalid_ctx(ctx, "shmem_ctx_fence")) return;
  SMA_OBSERVED(quiet, "shmem_ctx_fence", 0, -1, shoal::rma::fence(ctx, "shmem_ctx_fence"));
}
SMA_WEAK_ALIAS(shmem_ctx_fence)
extern "C" void pshmem_quiet(void) noexcept {
  SMA_OBSERVED(quiet, "shmem_quiet", 0, -1, shoal::rma::quiet(&shoal_ctx_default, "shmem_quiet"));
}
SMA_WEAK_ALIAS(shmem_quiet)
extern "C" void pshmem_ctx_quiet(shmem_ctx_t ctx) noexcept {
  if (invalid_ctx(ctx, "shmem_ctx_quiet")) return;
  SMA_OBSERVED(quiet, "shmem_ctx_quiet", 0, -1, shoal::rma::quiet(ctx, "shmem_ctx_quiet"));
}
SMA_WEAK_ALIAS(shmem_ctx_quiet)

// Completing everything the context issued also completes what went to the listed PEs.
namespace {
void pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes, const char *routine) noexcept {
  for (size_t i = 0; i < npes; ++i) shoal::rma::check_pe(target_pes[i], routine);
  shoal::rma::quiet(ctx, routine);
}
}  // namespace

extern "C" void pshmem_pe_quiet(const int *target_pes, size_t npes) noexcept {
  SMA_OBSERVED(quiet, "shmem_pe_quiet", 0, -1,
               pe_quiet(&shoal_ctx_default, target_pes, npes, "shmem_pe_quiet"));
}
SMA_WEAK_ALIAS(shmem_pe_quiet)
extern "C" void pshmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes) noexcept {
  if (invalid_ctx(ctx, "shmem_ctx_pe_quiet")) return;
  SMA_OBSERVED(quiet, "shmem_ctx_pe_quiet", 0, -1,
               pe_quiet(ctx, target_pes, npes, "shmem_ctx_pe_quiet"));
}
SMA_WEAK_ALIAS(shmem_ctx_pe_quiet)

// Cache management is a no-op on cache-coherent machines (deprecated since OpenSHMEM 1.3).
extern "C" void pshmem_set_cache_inv(void) noexcept {}
SMA_WEAK_ALIAS(shmem_set_cache_inv)
extern "C" void pshmem_set_cache_line_inv(void *) noexcept {}
SMA_WEAK_ALIAS(shmem_set_cache_line_inv)
extern "C" void pshmem_clear_cache_inv(void) noexcept {}
SMA_WEAK_ALIAS(shmem_clear_cache_inv)
extern "C" void pshmem_clear_cache_line_inv(void *) noexcept {}
SMA_WEAK_ALIAS(shmem_clear_cache_line_inv)
extern "C" void pshmem_udcflush(void) noexcept {}
SMA_WEAK_ALIAS(shmem_udcflush)
extern "C" void pshmem_udcflush_line(void *) noexcept {}
SMA_WEAK_ALIAS(shmem_udcflush_line)

// Profiling levels are for tools that intercept shmem_pcontrol; the library itself has none.
extern "C" void pshmem_pcontrol(const int level, ...) noexcept { (void)level; }
SMA_WEAK_ALIAS(shmem_pcontrol)

extern "C" const char *pshmemx_last_error_string(void) noexcept { return shoal::last_error(); }
SMA_WEAK_ALIAS(shmemx_last_error_string)
