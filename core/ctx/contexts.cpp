#include <shmem.h>
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include "ctx/context.hpp"
#include "log/log.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"

namespace shoal::ctx {
namespace {
constexpr long kKnownOptions = SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE;

// Destroyed contexts are kept, with a null worker, instead of being freed: a program that uses a
// context after destroying it then gets "invalid context" (check_ctx) instead of reading freed
// memory. Once more than kKeptRetired wait, the oldest is reused for the next new context, which
// bounds the memory (a handle destroyed that long ago then aliases the new context).
constexpr std::size_t kKeptRetired = 256;
std::deque<shoal_ctx *> &retired() {
  static auto *contexts = new std::deque<shoal_ctx *>;  // never freed: handles outlive exit
  return *contexts;
}

// Contexts created and not yet destroyed, in the running library's Runtime.
std::vector<shoal_ctx *> &live() { return g_runtime->live_contexts; }

// Completes a context's operations, gives its worker back to the pool (closed with the pool at
// shmem_finalize) and keeps the handle among the retired ones. Called with Runtime::contexts_mutex
// held.
void retire(shoal_ctx *ctx) {
  ctx->worker = nullptr;
  // The quiet left the worker idle and still connected: keep it for the next context.
  if (ctx->own_worker)
    g_runtime->spare_workers[ctx->multithreaded ? 1 : 0].push_back(std::move(ctx->own_worker));
  auto &alive = live();
  alive.erase(std::find(alive.begin(), alive.end(), ctx));
  retired().push_back(ctx);
}

// A fresh context object: the oldest retired one when enough are kept, else a new one. Called
// with Runtime::contexts_mutex held.
shoal_ctx *new_context() {
  auto &old = retired();
  if (old.size() <= kKeptRetired) return new shoal_ctx;
  shoal_ctx *ctx = old.front();
  old.pop_front();
  ctx->~shoal_ctx();
  return ::new (static_cast<void *>(ctx)) shoal_ctx;
}
}  // namespace

shoal_ctx *create(long options, shoal_team *team, const char *routine) noexcept {
  Runtime *rt = g_runtime;
  rma::check_ctx(&shoal_ctx_default, routine);
  if ((options & ~kKnownOptions) != 0)
    SMA_LOG_WARN("ctx", "{}: unknown option bits {:#x} ignored", routine, options & ~kKnownOptions);
  try {
    // A worker needs UCX's locking only when several threads may use it at once: a shared
    // context under SHMEM_THREAD_MULTIPLE. Private and serialized contexts never are.
    const bool shared = (options & (SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED)) == 0;
    const bool multithreaded = shared && rt->thread_level == SHMEM_THREAD_MULTIPLE;
    std::lock_guard lock(rt->contexts_mutex);
    std::unique_ptr<ucx::UcxWorker> worker;
    // Without a progress thread only this PE's waits drive its workers, and a wait drives one.
    // Replies to a context's own worker would then pile up while this PE waits (in a collective)
    // on the default one, and the peer sending them could not complete its quiet: both PEs
    // would wait for ever. So there every context issues on the default worker.
    if (rt->config.progress_thread) {
      auto &pool = rt->spare_workers[multithreaded ? 1 : 0];
      if (!pool.empty()) {
        worker = std::move(pool.back());
        pool.pop_back();
      } else {
        using Threads = ucx::UcxWorker::Threads;
        worker = std::make_unique<ucx::UcxWorker>();
        const Threads threads = multithreaded ? Threads::multiple : Threads::single;
        if (worker->init(rt->ucx, threads, rt->n_pes) != Status::ok ||
            rt->connect_worker(*worker) != Status::ok) {
          SMA_LOG_ERROR("ctx", "{}: cannot create the context's UCX worker", routine);
          return nullptr;
        }
      }
    }
    shoal_ctx *ctx = new_context();
    ctx->options = options;
    ctx->team = team;
    ctx->own_worker = std::move(worker);
    ctx->multithreaded = multithreaded;
    ctx->worker = ctx->own_worker ? ctx->own_worker.get() : &rt->worker;
    live().push_back(ctx);
    return ctx;
  } catch (const std::exception &e) {
    SMA_LOG_ERROR("ctx", "{}: {}", routine, e.what());
    return nullptr;
  }
}

void destroy(shoal_ctx *ctx, const char *routine) noexcept {
  rma::check_ctx(&shoal_ctx_default, routine);  // a call outside init..finalize is fatal
  if (ctx == nullptr) return;  // SHMEM_CTX_INVALID: nothing to do, as the specification says
  if (ctx == &shoal_ctx_default)
    fatal(fmt::format("{}: SHMEM_CTX_DEFAULT cannot be destroyed", routine));
  rma::quiet(ctx, routine);  // reports a context destroyed twice
  std::lock_guard lock(g_runtime->contexts_mutex);
  retire(ctx);
}

void destroy_all(const char *routine) noexcept {
  std::lock_guard lock(g_runtime->contexts_mutex);
  while (!live().empty()) {
    shoal_ctx *ctx = live().back();
    rma::quiet(ctx, routine);
    retire(ctx);
  }
}

}  // namespace shoal::ctx
