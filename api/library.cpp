#include "api/library.hpp"

#include <shmem.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>

#include "collectives/collectives.hpp"
#include "collectives/slots.hpp"
#include "collectives/state.hpp"
#include "ctx/context.hpp"
#include "log/log.hpp"
#include "observe/observe.hpp"
#include "observe/state.hpp"
#include "rma/rma.hpp"
#include "team/registry.hpp"
#include "team/state.hpp"
#include "team/team.hpp"
#include "wait.hpp"

namespace shoal::library {
namespace {

// One life of the library, shmem_init to shmem_finalize: the process state of every layer, as
// members in start order (library.hpp). Making one starts nothing: Library::start starts the
// layers down this list and Library::stop stops them up it; destroying it (after the stop)
// frees them in the same reverse order.
struct Life {
  Runtime runtime;    // core (with its contexts); bound as g_runtime once the whole start succeeded
  team::State teams;  // core/team; bound (team::state()) before the predefined teams are made
  coll::LayerState collectives;  // bound (coll::state()) before the collectives start
  observe::State observe;        // bound before the observation starts (core/observe)
};

enum class After { finalize, failed_start };

// The one owner of the library's process state.
struct Library {
  std::mutex mutex;  // shmem_init and shmem_finalize may come from several threads
  // shmem_init/shmem_init_thread calls not yet matched by a shmem_finalize (OpenSHMEM 1.6: the
  // library stops at the last one; a later shmem_init starts it anew).
  int depth = 0;
  // The PMIx session outlives a life: a later start reuses it, and it ends at exit. (Open MPI's
  // server refuses fences, "PARTIAL SUCCESS", among clients of which one finalized PMIx and
  // initialized it again.) During a life the Runtime holds it.
  std::unique_ptr<boot::Bootstrap> session;
  bool exiting = false;       // shmem_global_exit: the exit handler must not stop the library
  bool start_pes = false;     // a start_pes program: stop at exit
  bool exit_handler = false;  // registered with atexit (once per process)
  std::unique_ptr<Life> life;

  int start(int requested, int *provided) noexcept;
  void stop() noexcept;
  void at_exit() noexcept;
  void stop_progress_thread() noexcept;

 private:
  Failure start_layers(int requested);
  void stop_layers(After after) noexcept;
  void end_life() noexcept;
};

// Never destroyed: the exit handler runs after static destructors may have, and a program that
// skipped shmem_finalize destroys its teams at exit, which still give their slots back to the
// life's collectives state (left alive on purpose: stopping at exit would be collective).
Library &the_library() {
  static Library *const library = new Library;
  return *library;
}

void stop_at_exit() { the_library().at_exit(); }

void print_banner(const Runtime &rt) {
  if (rt.my_pe != 0) return;
  if (rt.config.version)
    std::printf("%s (OpenSHMEM %d.%d)\n", SHMEM_VENDOR_STRING, SHMEM_MAJOR_VERSION,
                SHMEM_MINOR_VERSION);
  if (rt.config.info) {
    rt.config.print(stdout);
    std::printf("AMO route in force: %s\n", rt.amo_route_summary().c_str());
    std::printf("Waiting in force: %s\n", waiting_summary().c_str());
  }
  std::fflush(stdout);
}

// Start steps 1 and 2 (library.hpp).
Failure Library::start_layers(int requested) {
  Runtime &rt = life->runtime;
  // The heap ends with the collectives' area, which they lay out (collectives/slots.hpp).
  if (Failure f = rt.start(requested, {coll::slots::area_bytes, coll::slots::committed_at_start}))
    return f;
  team::bind_state(&life->teams);
  team::init_predefined(rt.my_pe, rt.n_pes, rt.bootstrap->local_peers());
  coll::bind_state(&life->collectives);
  return coll::init_collectives(rt);
}

// Stop steps 3 to 5 (library.hpp). A finalize keeps the PMIx session for a later start; after
// a failed start the other PEs may be gone (no waiting for them) and the session ends.
void Library::stop_layers(After after) noexcept {
  Runtime &rt = life->runtime;
  team::reset_predefined();
  team::bind_state(nullptr);
  if (coll::bound()) {
    coll::finalize_collectives();
    coll::bind_state(nullptr);
  }
  const bool finalizing = after == After::finalize;
  rt.stop(/*peers_alive=*/finalizing, /*end_session=*/!finalizing);
  if (finalizing) session = std::move(rt.bootstrap);
}

// Unbinds what is still bound and frees the life's state, last started first.
void Library::end_life() noexcept {
  observe::bind_state(nullptr);
  g_runtime = nullptr;
  coll::bind_state(nullptr);
  team::bind_state(nullptr);
  life.reset();
}

int Library::start(int requested, int *provided) noexcept {
  std::lock_guard lock(mutex);
  if (library_state() == LibraryState::running) {
    ++depth;
    if (provided) *provided = life->runtime.thread_level;
    return 0;
  }
  install_terminate_handler();
  try {
    life = std::make_unique<Life>();
    life->runtime.bootstrap = std::move(session);
    if (const Failure f = start_layers(requested)) {
      const std::string error = "shmem_init: " + f.why();
      log::write_line(log::Level::error, error);
      set_last_error(error);
      if (life->runtime.bootstrap) life->runtime.bootstrap->abort(1, error.c_str());
      stop_layers(After::failed_start);  // when the abort returns: tear down in order
      end_life();
      return 1;
    }
    g_runtime = &life->runtime;
    note_library_state(LibraryState::running);
    depth = 1;
    print_banner(*g_runtime);
    if (provided) *provided = g_runtime->thread_level;
    // Programs written for start_pes often never call shmem_finalize: stop for them.
    if (!exit_handler) exit_handler = std::atexit(stop_at_exit) == 0;
    observe::bind_state(&life->observe);
    observe::start(*g_runtime);
    SMA_OBSERVE_CALL(lifecycle, "shmem_init", 0, -1);  // a hang report names the barrier's call
    coll::barrier_all("shmem_init");
    return 0;
  } catch (const std::exception &e) {
    log::write(log::Level::error, "shmem_init: ", "{}", e.what());
    if (library_state() != LibraryState::running) end_life();
    return 1;
  }
}

void Library::stop() noexcept {
  std::lock_guard lock(mutex);
  if (library_state() != LibraryState::running) return;
  if (--depth > 0) return;  // an inner start's finalize
  {
    SMA_OBSERVE_CALL(lifecycle, "shmem_finalize", 0, -1);
    ctx::destroy_all("shmem_finalize");
    coll::barrier_all("shmem_finalize");
  }
  observe::finish(life->runtime);  // the profile's report, while every layer runs
  stop_layers(After::finalize);
  end_life();
  note_library_state(LibraryState::finalized);
}

// A PE that leaves without shmem_finalize (shmem_global_exit, or an exit that skipped it)
// stops its progress thread first. Left running, the thread served the receiving worker on
// while exit() destroyed the process's static objects and unloaded UCX; as the launcher ended
// the other PEs, it went on to log about them through a destroyed logger (ASan:
// heap-use-after-free in log::write_line on the progress thread of the PE that called
// shmem_global_exit, 1 run in about 40 under srun beside busy CPUs). It is this PE's thread
// alone: no other PE waits for it.
void Library::stop_progress_thread() noexcept {
  if (life) life->runtime.progress.stop();
}

void Library::at_exit() noexcept {
  if (exiting) return;
  if (library_state() == LibraryState::running) {
    if (!start_pes) {
      // Since OpenSHMEM 1.4 every shmem_init is matched by a shmem_finalize. Stopping here
      // would be collective: its barrier could complete one that the other PEs wait in for
      // another reason, and the job would hang. So this PE ends unfinalized, and the launcher
      // ends the job.
      stop_progress_thread();
      log::write_line(log::Level::error, "exiting without calling shmem_finalize");
      std::fflush(nullptr);
      return;
    }
    depth = 1;  // start_pes programs: stop whatever the nesting
    stop();
  }
  if (session) {  // the PMIx session ends with the process
    (void)session->finalize();
    session.reset();
  }
}

}  // namespace

int start(int requested, int *provided) noexcept {
  return the_library().start(requested, provided);
}

void stop() noexcept { the_library().stop(); }

void stop_at_exit_for_start_pes() noexcept { the_library().start_pes = true; }

void exiting() noexcept {
  Library &library = the_library();
  library.exiting = true;
  library.stop_progress_thread();
}

Runtime &running(const char *routine) noexcept {
  rma::check_ctx(&shoal_ctx_default, routine);  // reports use outside init..finalize
  return *g_runtime;
}

}  // namespace shoal::library
