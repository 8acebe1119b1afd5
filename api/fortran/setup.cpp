// Fortran setup, queries, ordering and cache routines: SHMEM_INIT, SHMEM_FINALIZE, START_PES,
// MY_PE, NUM_PES, SHMEM_MY_PE, SHMEM_N_PES, SHMEM_GLOBAL_EXIT, SHMEM_FENCE, SHMEM_QUIET,
// SHMEM_PE_ACCESSIBLE, SHMEM_ADDR_ACCESSIBLE, SHMEM_PTR, SHMEM_INFO_GET_{VERSION,NAME} and the
// cache routines of 1.0 (no-ops: the memory of a PE is coherent).
#include <algorithm>
#include <cstring>

#include "api/export.hpp"
#include "api/library.hpp"
#include "fortran.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"

using shoal::library::running;

using shoal::fortran::Fint;

// ---- setup -----------------------------------------------------------------------------------
SMA_F_API void pshmem_init_() noexcept { pshmem_init(); }
SMA_F_ALIAS(shmem_init_)
SMA_F_API void pshmem_finalize_() noexcept { pshmem_finalize(); }
SMA_F_ALIAS(shmem_finalize_)
// START_PES(npes): npes is ignored (the launcher decides); the job finalizes at exit.
SMA_F_API void pstart_pes_(const Fint *npes) noexcept { pstart_pes(*npes); }
SMA_F_ALIAS(start_pes_)
SMA_F_API void pshmem_global_exit_(const Fint *status) noexcept { pshmem_global_exit(*status); }
SMA_F_ALIAS(shmem_global_exit_)

// ---- queries ---------------------------------------------------------------------------------
SMA_F_API Fint pshmem_my_pe_() noexcept { return running("SHMEM_MY_PE").my_pe; }
SMA_F_ALIAS(shmem_my_pe_)
SMA_F_API Fint pshmem_n_pes_() noexcept { return running("SHMEM_N_PES").n_pes; }
SMA_F_ALIAS(shmem_n_pes_)
SMA_F_API Fint pmy_pe_() noexcept { return running("MY_PE").my_pe; }
SMA_F_ALIAS(my_pe_)
SMA_F_API Fint pnum_pes_() noexcept { return running("NUM_PES").n_pes; }
SMA_F_ALIAS(num_pes_)

// LOGICAL functions: gfortran's default LOGICAL is 4 bytes, .TRUE. is 1.
SMA_F_API Fint pshmem_pe_accessible_(const Fint *pe) noexcept {
  return pshmem_pe_accessible(*pe) != 0;
}
SMA_F_ALIAS(shmem_pe_accessible_)
SMA_F_API Fint pshmem_addr_accessible_(const void *addr, const Fint *pe) noexcept {
  return pshmem_addr_accessible(addr, *pe) != 0;
}
SMA_F_ALIAS(shmem_addr_accessible_)

// SHMEM_PTR(target, pe): the address (for a Cray pointer) of target on pe, or 0 when pe's memory
// cannot be reached with loads and stores. A bad PE or a non-symmetric target is fatal.
SMA_F_API void *pshmem_ptr_(const void *target, const Fint *pe) noexcept {
  return shoal::rma::resolve(target, 0, *pe, "SHMEM_PTR").direct;
}
SMA_F_ALIAS(shmem_ptr_)

SMA_F_API void pshmem_info_get_version_(Fint *major, Fint *minor) noexcept {
  *major = SHMEM_MAJOR_VERSION;
  *minor = SHMEM_MINOR_VERSION;
}
SMA_F_ALIAS(shmem_info_get_version_)

// name is CHARACTER*(*): the vendor string, blank-padded (Fortran has no terminating NUL) and
// cut at the variable's length.
SMA_F_API void pshmem_info_get_name_(char *name, std::size_t length) noexcept {
  const std::size_t n = std::min(length, std::strlen(SHMEM_VENDOR_STRING));
  std::memcpy(name, SHMEM_VENDOR_STRING, n);
  std::memset(name + n, ' ', length - n);
}
SMA_F_ALIAS(shmem_info_get_name_)

// ---- ordering --------------------------------------------------------------------------------
SMA_F_API void pshmem_fence_() noexcept { shoal::rma::fence(&shoal_ctx_default, "SHMEM_FENCE"); }
SMA_F_ALIAS(shmem_fence_)
SMA_F_API void pshmem_quiet_() noexcept { shoal::rma::quiet(&shoal_ctx_default, "SHMEM_QUIET"); }
SMA_F_ALIAS(shmem_quiet_)

// ---- cache management (1.0): nothing to do ----------------------------------------------------
SMA_F_API void pshmem_set_cache_inv_() noexcept {}
SMA_F_ALIAS(shmem_set_cache_inv_)
SMA_F_API void pshmem_set_cache_line_inv_(void *) noexcept {}
SMA_F_ALIAS(shmem_set_cache_line_inv_)
SMA_F_API void pshmem_clear_cache_inv_() noexcept {}
SMA_F_ALIAS(shmem_clear_cache_inv_)
SMA_F_API void pshmem_clear_cache_line_inv_(void *) noexcept {}
SMA_F_ALIAS(shmem_clear_cache_line_inv_)
SMA_F_API void pshmem_udcflush_() noexcept {}
SMA_F_ALIAS(shmem_udcflush_)
SMA_F_API void pshmem_udcflush_line_(void *) noexcept {}
SMA_F_ALIAS(shmem_udcflush_line_)
