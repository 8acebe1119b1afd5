// Names from OpenSHMEM 1.0-1.1 and SGI SHMEM that old programs still call. Their profiling
// twins are "p" + name (pstart_pes, pshmalloc, p_my_pe), as other implementations spell them.
#include "api/export.hpp"
#include "api/library.hpp"
#include "runtime.hpp"

extern "C" void pstart_pes(int npes) noexcept {
  (void)npes;  // the launcher decides the number of PEs
  shoal::library::stop_at_exit_for_start_pes();
  pshmem_init();
}
SMA_WEAK_ALIAS(start_pes)

extern "C" int p_my_pe(void) noexcept { return pshmem_my_pe(); }
SMA_WEAK_ALIAS(_my_pe)
extern "C" int p_num_pes(void) noexcept { return pshmem_n_pes(); }
SMA_WEAK_ALIAS(_num_pes)
extern "C" int pmy_pe(void) noexcept { return pshmem_my_pe(); }
SMA_WEAK_ALIAS(my_pe)
extern "C" int pnum_pes(void) noexcept { return pshmem_n_pes(); }
SMA_WEAK_ALIAS(num_pes)

extern "C" void *pshmalloc(size_t size) noexcept { return pshmem_malloc(size); }
SMA_WEAK_ALIAS(shmalloc)
extern "C" void pshfree(void *ptr) noexcept { pshmem_free(ptr); }
SMA_WEAK_ALIAS(shfree)
extern "C" void *pshrealloc(void *ptr, size_t size) noexcept { return pshmem_realloc(ptr, size); }
SMA_WEAK_ALIAS(shrealloc)
extern "C" void *pshmemalign(size_t alignment, size_t size) noexcept {
  return pshmem_align(alignment, size);
}
SMA_WEAK_ALIAS(shmemalign)
