// Ordering and completion (fence, quiet), the deprecated cache routines, profiling control and
// the shmemx error-text extension.
#include "api/export.hpp"
#include "rma/rma.hpp"
#include "status.hpp"

extern "C" void pshmem_fence(void) noexcept { shoal::rma::fence(&shoal_ctx_default, "shmem_fence"); }
SMA_WEAK_ALIAS(shmem_fence)
extern "C" void pshmem_ctx_fence(shmem_ctx_t ctx) noexcept { shoal::rma::fence(ctx, "shmem_ctx_fence"); }
SMA_WEAK_ALIAS(shmem_ctx_fence)
extern "C" void pshmem_quiet(void) noexcept { shoal::rma::quiet(&shoal_ctx_default, "shmem_quiet"); }
SMA_WEAK_ALIAS(shmem_quiet)
extern "C" void pshmem_ctx_quiet(shmem_ctx_t ctx) noexcept { shoal::rma::quiet(ctx, "shmem_ctx_quiet"); }
SMA_WEAK_ALIAS(shmem_ctx_quiet)

// Completing everything also completes what was issued to the listed PEs.
extern "C" void pshmem_pe_quiet(const int *target_pes, size_t npes) noexcept {
  for (size_t i = 0; i < npes; ++i) (void)shoal::rma::resolve(nullptr, 0, target_pes[i], "shmem_pe_quiet");
  shoal::rma::quiet(&shoal_ctx_default, "shmem_pe_quiet");
}
SMA_WEAK_ALIAS(shmem_pe_quiet)
extern "C" void pshmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes) noexcept {
  shoal::rma::quiet(ctx, "shmem_ctx_pe_quiet");
  (void)target_pes;
  (void)npes;
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
