// Library setup and exit (specification section "Library Setup, Exit, and Query Routines"). The
// library's start and stop, and the order of its layers, are api/library.hpp.
#include <cstdio>
#include <cstdlib>

#include "api/export.hpp"
#include "api/library.hpp"
#include "log/log.hpp"
#include "runtime.hpp"

using namespace shoal;

extern "C" void pshmem_init(void) noexcept {
  if (library::start(SHMEM_THREAD_SINGLE, nullptr) != 0) fatal("shmem_init failed (see above)");
}
SMA_WEAK_ALIAS(shmem_init)

extern "C" int pshmem_init_thread(int requested, int *provided) noexcept {
  return library::start(requested, provided);
}
SMA_WEAK_ALIAS(shmem_init_thread)

extern "C" void pshmem_finalize(void) noexcept { library::stop(); }
SMA_WEAK_ALIAS(shmem_finalize)

extern "C" void pshmem_global_exit(int status) noexcept {
  library::exiting();
  std::fflush(nullptr);
  // The PEs of other nodes are told first: as the launcher ends them, they must not report
  // each other as lost. Nor must this PE, which counts itself as told: a PE the launcher ends
  // before this one is a consequence too (the progress thread would otherwise report it).
  note_job_ending();
  if (g_runtime) g_runtime->worker.announce_job_end();
  if (g_runtime && g_runtime->bootstrap) g_runtime->bootstrap->abort(status, "");
  std::exit(status);
}
SMA_WEAK_ALIAS(shmem_global_exit)
