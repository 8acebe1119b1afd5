// Library setup and exit (specification section "Library Setup, Exit, and Query Routines").
#include <spdlog/fmt/fmt.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "api/export.hpp"
#include "collectives/collectives.hpp"
#include "collectives/slots.hpp"
#include "ctx/context.hpp"
#include "log/log.hpp"
#include "runtime.hpp"

namespace shoal {
namespace {

LibraryState g_state = LibraryState::never_initialized;
// shmem_init/shmem_init_thread calls not yet matched by a shmem_finalize (OpenSHMEM 1.6: the
// library finalizes at the last one; a later shmem_init starts it anew).
int g_init_depth = 0;
// The PMIx session outlives a finalized library: a later shmem_init reuses it, and it ends at
// exit. (Open MPI's server refuses fences, "PARTIAL SUCCESS", among clients of which one
// finalized PMIx and initialized it again.)
std::unique_ptr<boot::Bootstrap> g_session;
bool g_exiting = false;  // shmem_global_exit in progress: the exit handler must not finalize
// start_pes programs (OpenSHMEM 1.2 and older) had no shmem_finalize: finalize them at exit.
bool g_finalize_at_exit = false;
std::mutex g_setup_mutex;

void print_banner(const Runtime &rt) {
  if (rt.my_pe != 0) return;
  if (rt.config.version)
    std::printf("%s (OpenSHMEM %d.%d)\n", SHMEM_VENDOR_STRING, SHMEM_MAJOR_VERSION,
                SHMEM_MINOR_VERSION);
  if (rt.config.info) {
    rt.config.print(stdout);
    std::printf("AMO route in force: %s\n", rt.amo_route_summary().c_str());
  }
  std::fflush(stdout);
}

void finalize_at_exit();

// Returns 0 on success; the spec's shmem_init_thread contract.
int initialize(int requested, int *provided) noexcept {
  std::lock_guard lock(g_setup_mutex);
  if (g_state == LibraryState::running) {
    ++g_init_depth;
    if (provided) *provided = g_runtime->thread_level;
    return 0;
  }
  install_terminate_handler();
  try {
    auto rt = std::make_unique<Runtime>();
    rt->bootstrap = std::move(g_session);
    std::string error;
    // The heap ends with the collectives' area, which they lay out (collectives/slots.hpp).
    if (!rt->start(requested, coll::slots::area_bytes, error) ||
        coll::init_collectives(*rt, error) != Status::ok) {
      log::logger().error("shmem_init: {}", error);
      set_last_error(error);
      if (rt->bootstrap) rt->bootstrap->abort(1, error.c_str());
      coll::finalize_collectives();
      rt->stop(/*peers_alive=*/false);  // when the abort returns: tear down in order
      return 1;
    }
    g_runtime = rt.release();
    g_state = LibraryState::running;
    g_init_depth = 1;
    print_banner(*g_runtime);
    if (provided) *provided = g_runtime->thread_level;
    // Programs written for start_pes often never call shmem_finalize: finalize for them.
    static bool registered = false;
    if (!registered) registered = std::atexit(finalize_at_exit) == 0;
    coll::barrier_all("shmem_init");
    return 0;
  } catch (const std::exception &e) {
    log::logger().error("shmem_init: {}", e.what());
    return 1;
  }
}

void finalize() noexcept {
  std::lock_guard lock(g_setup_mutex);
  if (g_state != LibraryState::running) return;
  if (--g_init_depth > 0) return;  // an inner init's finalize
  ctx::destroy_all("shmem_finalize");
  coll::barrier_all("shmem_finalize");
  coll::finalize_collectives();
  g_runtime->stop(/*peers_alive=*/true, /*end_session=*/false);
  g_session = std::move(g_runtime->bootstrap);
  delete g_runtime;
  g_runtime = nullptr;
  g_state = LibraryState::finalized;
}

void finalize_at_exit() {
  if (g_exiting) return;
  if (g_state == LibraryState::running) {
    if (!g_finalize_at_exit) {
      // Since OpenSHMEM 1.4 every shmem_init is matched by a shmem_finalize. Finalizing here
      // would be collective: its barrier could complete one that the other PEs wait in for
      // another reason, and the job would hang. So this PE ends unfinalized, and the launcher
      // ends the job.
      log::logger().error("exiting without calling shmem_finalize");
      std::fflush(nullptr);
      return;
    }
    g_init_depth = 1;  // start_pes programs: finalize whatever the nesting
    finalize();
  }
  if (g_session) {  // the PMIx session ends with the process
    (void)g_session->finalize();
    g_session.reset();
  }
}

}  // namespace

LibraryState library_state() noexcept { return g_state; }

void finalize_implicitly_at_exit() noexcept { g_finalize_at_exit = true; }

}  // namespace shoal

using namespace shoal;

extern "C" void pshmem_init(void) noexcept {
  if (initialize(SHMEM_THREAD_SINGLE, nullptr) != 0) fatal("shmem_init failed (see above)");
}
SMA_WEAK_ALIAS(shmem_init)

extern "C" int pshmem_init_thread(int requested, int *provided) noexcept {
  return initialize(requested, provided);
}
SMA_WEAK_ALIAS(shmem_init_thread)

extern "C" void pshmem_finalize(void) noexcept { finalize(); }
SMA_WEAK_ALIAS(shmem_finalize)

extern "C" void pshmem_global_exit(int status) noexcept {
  g_exiting = true;
  std::fflush(nullptr);
  // The PEs of other nodes are told first: as the launcher ends them, they must not report
  // each other as lost.
  if (g_runtime) g_runtime->worker.announce_job_end();
  if (g_runtime && g_runtime->bootstrap) g_runtime->bootstrap->abort(status, "");
  std::exit(status);
}
SMA_WEAK_ALIAS(shmem_global_exit)
