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
#include "rma/put_batch.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"

namespace shoal::ctx {

// What the waits of a thread drive of a created context (send_own_batches): its worker, whether
// it handed operations to UCX since its last quiet, and the batches of its small puts.
struct WaitLink : std::enable_shared_from_this<WaitLink> {
  ucx::UcxWorker *worker = nullptr;
  const std::atomic<bool> *pending = nullptr;
  rma::PutBatches batches;  // enabled() where its puts combine
};

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
  ctx->batches = nullptr;
  ctx->wait_link.reset();  // the quiet sent its batches; the waits forget it
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

// Contexts whose waits drive them (send_own_batches): the calling thread's private ones, below
// SHMEM_THREAD_MULTIPLE the others, and under it the shared ones (options 0: a thread-safe
// worker, locked batches). Forgotten once the context releases its link (retire).
std::vector<std::weak_ptr<WaitLink>> &serialized_links() {
  static auto *links = new std::vector<std::weak_ptr<WaitLink>>;  // never freed, as retired()
  return *links;
}
thread_local std::vector<std::weak_ptr<WaitLink>> t_private_links;
// The shared contexts under SHMEM_THREAD_MULTIPLE, which threads create and drive at once.
struct SharedLinks {
  std::mutex mutex;
  std::vector<std::weak_ptr<WaitLink>> links;
  std::atomic<std::size_t> count{0};  // links.size(), read without the mutex
};
SharedLinks &shared_links() {
  static auto *shared = new SharedLinks;  // never freed, as retired()
  return *shared;
}

// Calls f on every live link of `links`, and forgets those whose context released them.
template <typename F>
void for_each_link(std::vector<std::weak_ptr<WaitLink>> &links, F &&f) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < links.size(); ++i) {
    const std::shared_ptr<WaitLink> link = links[i].lock();
    if (!link) continue;
    f(*link);
    if (kept != i) links[kept] = std::move(links[i]);  // never onto itself: that empties it
    ++kept;
  }
  links.resize(kept);
}

template <typename F>
void for_each_own_link(F &&f) {
  Runtime *rt = g_runtime;
  if (rt == nullptr) return;
  if (!t_private_links.empty()) for_each_link(t_private_links, f);
  if (rt->thread_level < SHMEM_THREAD_MULTIPLE) {
    if (!serialized_links().empty()) for_each_link(serialized_links(), f);
    return;
  }
  SharedLinks &shared = shared_links();
  if (shared.count.load(std::memory_order_relaxed) == 0) return;
  // f sends and progresses: not under the mutex, which other threads' waits take too.
  thread_local std::vector<std::shared_ptr<WaitLink>> alive;
  {
    std::lock_guard lock(shared.mutex);
    for_each_link(shared.links, [](WaitLink &link) { alive.push_back(link.shared_from_this()); });
    shared.count.store(shared.links.size(), std::memory_order_relaxed);
  }
  for (const std::shared_ptr<WaitLink> &link : alive) f(*link);
  alive.clear();
}

// The link of a context with a worker of its own, with batches for its small puts to other
// nodes where those combine: every context; under SHMEM_THREAD_MULTIPLE the shared and
// SERIALIZED ones have thread-safe workers and locked batches, which any thread's wait drives.
std::shared_ptr<WaitLink> link_of(Runtime &rt, shoal_ctx &ctx, const char *routine) {
  const bool private_ctx = (ctx.options & SHMEM_CTX_PRIVATE) != 0;
  auto link = std::make_shared<WaitLink>();
  link->worker = ctx.own_worker.get();
  link->pending = &ctx.ucx_pending;
  if (rt.combines_puts()) {
    if (link->batches.accept_answers(*link->worker) == Status::ok)
      link->batches.init(rt, link->worker);
    else
      SMA_LOG_WARN("ctx", "{}: the context's small puts to other nodes will not be combined",
                   routine);
  }
  if (private_ctx) {
    t_private_links.push_back(link);
  } else if (ctx.multithreaded) {
    SharedLinks &shared = shared_links();
    std::lock_guard lock(shared.mutex);
    shared.links.push_back(link);
    shared.count.store(shared.links.size(), std::memory_order_relaxed);
  } else {
    serialized_links().push_back(link);
  }
  return link;
}
}  // namespace

shoal_ctx *create(long options, shoal_team *team, const char *routine) noexcept {
  Runtime *rt = g_runtime;
  rma::check_ctx(&shoal_ctx_default, routine);
  if ((options & ~kKnownOptions) != 0)
    SMA_LOG_WARN("ctx", "{}: unknown option bits {:#x} ignored", routine, options & ~kKnownOptions);
  try {
    // A worker needs UCX's locking when several threads may drive it at once: under
    // SHMEM_THREAD_MULTIPLE a shared context's users, and a SERIALIZED one's user beside other
    // threads' waits, which send what it combined (its user may be waiting on another thread
    // for the answer to a put still combined). A private context's only thread does both.
    const bool serialized_use = (options & SHMEM_CTX_PRIVATE) == 0 &&
                                (options & SHMEM_CTX_SERIALIZED) != 0 &&
                                rt->thread_level == SHMEM_THREAD_MULTIPLE;
    const bool multithreaded =
        (options & SHMEM_CTX_PRIVATE) == 0 && rt->thread_level == SHMEM_THREAD_MULTIPLE;
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
    ctx->serialized_use = serialized_use;
    ctx->worker = ctx->own_worker ? ctx->own_worker.get() : &rt->worker;
    if (ctx->own_worker) {
      ctx->wait_link = link_of(*rt, *ctx, routine);
      ctx->batches =
          ctx->wait_link && ctx->wait_link->batches.enabled() ? &ctx->wait_link->batches : nullptr;
    } else {
      ctx->batches = shoal_ctx_default.batches;  // the default worker's batches
    }
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

void send_own_batches(const char *routine) noexcept {
  for_each_own_link([routine](WaitLink &link) {
    if (link.batches.any()) link.batches.send_all(routine);
  });
}

unsigned progress_own_workers() noexcept {
  unsigned events = 0;
  for_each_own_link([&events](WaitLink &link) {
    if (link.pending->load(std::memory_order_relaxed)) events += link.worker->progress();
  });
  return events;
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
