// struct shoal_ctx is what the public shmem_ctx_t points to. SHMEM_CTX_DEFAULT is the address of
// shoal_ctx_default, which issues on the runtime's own worker. With the progress thread running
// (the default) every context created later owns a worker of its own, so a quiet on one context
// waits only for that context's operations and contexts of different threads never contend for
// one worker. Without it, contexts issue on the runtime's worker (see ctx::create).
#pragma once

#include <atomic>
#include <memory>

#include "transport/ucx_worker.hpp"

struct shoal_team;
namespace shoal::rma {
class PutBatches;
}
namespace shoal::ctx {
struct WaitLink;
}

struct shoal_ctx {
  shoal::ucx::UcxWorker *worker = nullptr;  // null once destroyed (and before shmem_init)
  // Set before an operation is handed to UCX, cleared by quiet: a quiet with nothing handed to
  // UCX since the last one (on-node traffic only) skips the flush.
  std::atomic<bool> ucx_pending{false};
  // Set with ucx_pending when the operation is a put or an AMO for a PE of this node, whose
  // mapped memory a later store may reach: a fence then completes rather than orders (rma::fence).
  std::atomic<bool> ucx_pending_here{false};
  long options = 0;
  shoal_team *team = nullptr;
  std::unique_ptr<shoal::ucx::UcxWorker>
      own_worker;              // null for the default, and without progress thread
  bool multithreaded = false;  // own_worker is thread-safe
  // SHMEM_CTX_SERIALIZED under SHMEM_THREAD_MULTIPLE: its worker is thread-safe, because other
  // threads' waits send the puts it combined, but the program lets one thread at a time use it.
  bool serialized_use = false;
  // Where its small puts to other nodes are combined (rma/put_batch.hpp), or null: its own
  // batches (in wait_link), the default context's where it issues on the default worker, or
  // none where combining is off or its batches could not be set up.
  shoal::rma::PutBatches *batches = nullptr;
  // Its worker and batches, for the waits of the threads that may drive them (see
  // send_own_batches below); null for the default context and for contexts that issue on the
  // default worker.
  std::shared_ptr<shoal::ctx::WaitLink> wait_link;

  // Whether several threads may use it at once (the default and shared contexts under
  // SHMEM_THREAD_MULTIPLE): then one thread's quiet cannot tell from ucx_pending what another
  // thread handed to UCX, so it always completes, and a fence completes rather than orders.
  bool used_at_once() const noexcept { return worker->thread_safe() && !serialized_use; }
};

extern "C" {
__attribute__((visibility("default"))) extern shoal_ctx shoal_ctx_default;
}

namespace shoal::ctx {

// Creates a context on `team` with its own UCX worker connected to every PE. Returns null and
// logs why when that fails.
shoal_ctx *create(long options, shoal_team *team, const char *routine) noexcept;
// Completes the context's operations and releases it.
void destroy(shoal_ctx *ctx, const char *routine) noexcept;
// Destroys the contexts the program left alive (shmem_finalize), so their operations complete
// before the final barrier and their UCX workers close before the UCX context does.
void destroy_all(const char *routine) noexcept;

// The created contexts that the calling thread's waits inside the library drive, as they drive
// the default context: its private contexts, and below SHMEM_THREAD_MULTIPLE (one thread at a
// time inside the library) every context with a worker of its own. A wait's answer may depend on
// what they issued: a PE that puts on a context and then waits for an answer to it must not
// wait for its own put, still combined, or pending in a worker nobody progresses.
// Sends the puts they combined (rma/put_batch.hpp).
void send_own_batches(const char *routine) noexcept;
// Progresses the workers of those that handed operations to UCX since their last quiet;
// returns the events handled.
unsigned progress_own_workers() noexcept;

}  // namespace shoal::ctx
