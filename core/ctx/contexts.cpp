#include <spdlog/fmt/fmt.h>

#include <mutex>

#include "api/export.hpp"
#include "ctx/context.hpp"
#include "log/log.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"

namespace shoal::ctx {
namespace {
std::mutex g_pool_mutex;  // contexts may be created and destroyed by several threads at once
constexpr long kKnownOptions = SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE;
}  // namespace

shoal_ctx *create(long options, shoal_team *team, const char *routine) noexcept {
  Runtime *rt = g_runtime;
  rma::check_ctx(&shoal_ctx_default, routine);
  if ((options & ~kKnownOptions) != 0)
    SMA_LOG_WARN("ctx", "{}: unknown option bits {:#x} ignored", routine, options & ~kKnownOptions);
  try {
    auto ctx = std::make_unique<shoal_ctx>();
    ctx->options = options;
    ctx->team = team;
    // A worker needs UCX's locking only when several threads may use it at once: a shared
    // context under SHMEM_THREAD_MULTIPLE. Private and serialized contexts never are.
    const bool shared = (options & (SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED)) == 0;
    const bool multithreaded = shared && rt->thread_level == SHMEM_THREAD_MULTIPLE;
    std::lock_guard lock(g_pool_mutex);
    auto &pool = rt->spare_workers[multithreaded ? 1 : 0];
    if (!pool.empty()) {
      ctx->own_worker = std::move(pool.back());
      pool.pop_back();
    } else {
      ctx->own_worker = std::make_unique<ucx::UcxWorker>();
      if (ctx->own_worker->init(rt->ucx, multithreaded, rt->n_pes) != Status::ok ||
          rt->connect_worker(*ctx->own_worker) != Status::ok) {
        SMA_LOG_ERROR("ctx", "{}: cannot create the context's UCX worker", routine);
        return nullptr;
      }
    }
    ctx->multithreaded = multithreaded;
    ctx->own_worker->also_serve(rt->config.progress_thread ? nullptr : &rt->worker);
    ctx->worker = ctx->own_worker.get();
    return ctx.release();
  } catch (const std::exception &e) {
    SMA_LOG_ERROR("ctx", "{}: {}", routine, e.what());
    return nullptr;
  }
}

void destroy(shoal_ctx *ctx, const char *routine) noexcept {
  if (ctx == nullptr) return;  // SHMEM_CTX_INVALID: nothing to do, as the specification says
  if (ctx == &shoal_ctx_default)
    fatal(fmt::format("{}: SHMEM_CTX_DEFAULT cannot be destroyed", routine));
  rma::quiet(ctx, routine);  // reports a context destroyed twice, or use after finalize
  ctx->worker = nullptr;
  {
    // The quiet left the worker idle and still connected: keep it for the next context.
    std::lock_guard lock(g_pool_mutex);
    g_runtime->spare_workers[ctx->multithreaded ? 1 : 0].push_back(std::move(ctx->own_worker));
  }
  delete ctx;
}

}  // namespace shoal::ctx
