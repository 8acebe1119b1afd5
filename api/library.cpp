#include "api/library.hpp"

#include <shmem.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>

#include "collectives/collectives.hpp"
#include "collectives/slots.hpp"
#include "ctx/context.hpp"
#include "log/log.hpp"
#include "observe/observe.hpp"
#include "team/registry.hpp"
#include "team/team.hpp"

namespace shoal::library {
namespace {

// shmem_init/shmem_init_thread calls not yet matched by a shmem_finalize (OpenSHMEM 1.6: the
// library stops at the last one; a later shmem_init starts it anew).
int g_depth = 0;
// The PMIx session outlives a stopped library: a later start reuses it, and it ends at exit.
// (Open MPI's server refuses fences, "PARTIAL SUCCESS", among clients of which one finalized
// PMIx and initialized it again.)
std::unique_ptr<boot::Bootstrap> g_session;
bool g_exiting = false;
bool g_stop_at_exit = false;
std::mutex g_mutex;

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

// Start steps 1 and 2 (library.hpp).
Failure start_layers(Runtime &rt, int requested) {
  // The heap ends with the collectives' area, which they lay out (collectives/slots.hpp).
  if (Failure f = rt.start(requested, coll::slots::area_bytes)) return f;
  team::init_predefined(rt.my_pe, rt.n_pes, rt.bootstrap->local_peers());
  return coll::init_collectives(rt);
}

// Stop steps 3 to 5 (library.hpp). A finalize keeps the PMIx session for a later start; after
// a failed start the other PEs may be gone (no waiting for them) and the session ends.
enum class After { finalize, failed_start };
void stop_layers(Runtime &rt, After after) noexcept {
  team::reset_predefined();
  coll::finalize_collectives();
  const bool finalizing = after == After::finalize;
  rt.stop(/*peers_alive=*/finalizing, /*end_session=*/!finalizing);
  if (finalizing) g_session = std::move(rt.bootstrap);
}

void stop_at_exit();

}  // namespace

int start(int requested, int *provided) noexcept {
  std::lock_guard lock(g_mutex);
  if (library_state() == LibraryState::running) {
    ++g_depth;
    if (provided) *provided = g_runtime->thread_level;
    return 0;
  }
  install_terminate_handler();
  try {
    auto rt = std::make_unique<Runtime>();
    rt->bootstrap = std::move(g_session);
    if (const Failure f = start_layers(*rt, requested)) {
      const std::string error = "shmem_init: " + f.why();
      log::logger().error("{}", error);
      set_last_error(error);
      if (rt->bootstrap) rt->bootstrap->abort(1, error.c_str());
      stop_layers(*rt, After::failed_start);  // when the abort returns: tear down in order
      return 1;
    }
    g_runtime = rt.release();
    note_library_state(LibraryState::running);
    g_depth = 1;
    print_banner(*g_runtime);
    if (provided) *provided = g_runtime->thread_level;
    // Programs written for start_pes often never call shmem_finalize: stop for them.
    static bool registered = false;
    if (!registered) registered = std::atexit(stop_at_exit) == 0;
    observe::start(*g_runtime);
    SMA_OBSERVE_CALL(lifecycle, "shmem_init", 0, -1);  // a hang report names the barrier's call
    coll::barrier_all("shmem_init");
    return 0;
  } catch (const std::exception &e) {
    log::logger().error("shmem_init: {}", e.what());
    return 1;
  }
}

void stop() noexcept {
  std::lock_guard lock(g_mutex);
  if (library_state() != LibraryState::running) return;
  if (--g_depth > 0) return;  // an inner start's finalize
  {
    SMA_OBSERVE_CALL(lifecycle, "shmem_finalize", 0, -1);
    ctx::destroy_all("shmem_finalize");
    coll::barrier_all("shmem_finalize");
  }
  observe::finish(*g_runtime);  // the profile's report, while every layer runs
  stop_layers(*g_runtime, After::finalize);
  delete g_runtime;
  g_runtime = nullptr;
  note_library_state(LibraryState::finalized);
}

void stop_at_exit_for_start_pes() noexcept { g_stop_at_exit = true; }

void exiting() noexcept { g_exiting = true; }

namespace {

void stop_at_exit() {
  if (g_exiting) return;
  if (library_state() == LibraryState::running) {
    if (!g_stop_at_exit) {
      // Since OpenSHMEM 1.4 every shmem_init is matched by a shmem_finalize. Stopping here
      // would be collective: its barrier could complete one that the other PEs wait in for
      // another reason, and the job would hang. So this PE ends unfinalized, and the launcher
      // ends the job.
      log::logger().error("exiting without calling shmem_finalize");
      std::fflush(nullptr);
      return;
    }
    g_depth = 1;  // start_pes programs: stop whatever the nesting
    stop();
  }
  if (g_session) {  // the PMIx session ends with the process
    (void)g_session->finalize();
    g_session.reset();
  }
}

}  // namespace
}  // namespace shoal::library
