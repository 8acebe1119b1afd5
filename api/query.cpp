// Queries: who am I, how many PEs, what can be reached, and the library's identity.
#include <fmt/format.h>

#include <cstring>

#include "api/export.hpp"
#include "api/library.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"
#include "team/team.hpp"

using shoal::library::running;

namespace {

// The address of addr on world PE pe if this PE can load and store it directly, else null. A PE
// out of range or an address that is not symmetric is a fatal error naming the routine.
void *direct_pointer(const void *addr, int pe, const char *routine) noexcept {
  return shoal::rma::resolve(addr, 0, pe, routine).direct;
}

}  // namespace

extern "C" int pshmem_my_pe(void) noexcept { return running("shmem_my_pe").my_pe; }
SMA_WEAK_ALIAS(shmem_my_pe)
extern "C" int pshmem_n_pes(void) noexcept { return running("shmem_n_pes").n_pes; }
SMA_WEAK_ALIAS(shmem_n_pes)

extern "C" int pshmem_pe_accessible(int pe) noexcept {
  const shoal::Runtime &rt = running("shmem_pe_accessible");
  return pe >= 0 && pe < rt.n_pes;
}
SMA_WEAK_ALIAS(shmem_pe_accessible)

extern "C" int pshmem_addr_accessible(const void *addr, int pe) noexcept {
  const shoal::Runtime &rt = running("shmem_addr_accessible");
  if (pe < 0 || pe >= rt.n_pes) return 0;
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  return a - rt.heap_base < rt.heap_size || a - rt.data_base < rt.data_size;
}
SMA_WEAK_ALIAS(shmem_addr_accessible)

extern "C" void *pshmem_ptr(const void *dest, int pe) noexcept {
  return direct_pointer(dest, pe, "shmem_ptr");
}
SMA_WEAK_ALIAS(shmem_ptr)

// pe is numbered within the team; SHMEM_TEAM_INVALID or a PE outside the team gives NULL (the
// specification says so), a non-symmetric address is fatal as for shmem_ptr.
extern "C" void *pshmem_team_ptr(shmem_team_t team, const void *dest, int pe) noexcept {
  running("shmem_team_ptr");
  if (!shoal::team::is_live(team)) return nullptr;  // SHMEM_TEAM_INVALID or destroyed
  const int world_pe = team->world_pe(pe);
  return world_pe < 0 ? nullptr : direct_pointer(dest, world_pe, "shmem_team_ptr");
}
SMA_WEAK_ALIAS(shmem_team_ptr)

extern "C" void pshmem_info_get_version(int *major, int *minor) noexcept {
  if (major) *major = SHMEM_MAJOR_VERSION;
  if (minor) *minor = SHMEM_MINOR_VERSION;
}
SMA_WEAK_ALIAS(shmem_info_get_version)

extern "C" void pshmem_info_get_name(char *name) noexcept {
  if (name == nullptr) return;
  std::strncpy(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN - 1);
  name[SHMEM_MAX_NAME_LEN - 1] = '\0';
}
SMA_WEAK_ALIAS(shmem_info_get_name)

extern "C" void pshmem_query_thread(int *provided) noexcept {
  const shoal::Runtime &rt = running("shmem_query_thread");
  if (provided) *provided = rt.thread_level;
}
SMA_WEAK_ALIAS(shmem_query_thread)

extern "C" void pshmem_query_initialized(int *initialized) noexcept {
  if (initialized) *initialized = shoal::library_state() == shoal::LibraryState::running;
}
SMA_WEAK_ALIAS(shmem_query_initialized)
