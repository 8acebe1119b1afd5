// Communication contexts (specification section "Communication Management Routines").
#include <fmt/format.h>

#include "api/export.hpp"
#include "ctx/context.hpp"
#include "log/log.hpp"
#include "rma/rma.hpp"
#include "team/team.hpp"

namespace {

int create_on(shmem_team_t team, long options, shmem_ctx_t *ctx, const char *routine) noexcept {
  shoal::rma::check_ctx(&shoal_ctx_default, routine);  // a call outside init..finalize is fatal
  if (ctx == nullptr) {
    SMA_LOG_ERROR("ctx", "{}: the ctx argument is NULL", routine);
    return 1;
  }
  *ctx = SHMEM_CTX_INVALID;
  // Operations on a context of another team number PEs within that team (rma::to_world).
  if (shoal::team::lookup(team, routine, shoal::team::InvalidTeam::legal) == nullptr) return 1;
  if (team->my_pe < 0) {
    SMA_LOG_ERROR("ctx", "{}: this PE is not a member of the team", routine);
    return 1;
  }
  shoal_ctx *created = shoal::ctx::create(options, team, routine);
  if (created == nullptr) return 1;
  *ctx = created;
  return 0;
}

}  // namespace

extern "C" int pshmem_ctx_create(long options, shmem_ctx_t *ctx) noexcept {
  return create_on(SHMEM_TEAM_WORLD, options, ctx, "shmem_ctx_create");
}
SMA_WEAK_ALIAS(shmem_ctx_create)

extern "C" int pshmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx) noexcept {
  return create_on(team, options, ctx, "shmem_team_create_ctx");
}
SMA_WEAK_ALIAS(shmem_team_create_ctx)

extern "C" void pshmem_ctx_destroy(shmem_ctx_t ctx) noexcept {
  shoal::ctx::destroy(ctx, "shmem_ctx_destroy");
}
SMA_WEAK_ALIAS(shmem_ctx_destroy)

extern "C" int pshmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team) noexcept {
  shoal::rma::check_ctx(&shoal_ctx_default, "shmem_ctx_get_team");
  if (team == nullptr) return 1;
  if (ctx == SHMEM_CTX_INVALID || ctx->worker == nullptr) {
    *team = SHMEM_TEAM_INVALID;
    return 1;
  }
  *team = ctx == SHMEM_CTX_DEFAULT || ctx->team == nullptr ? SHMEM_TEAM_WORLD : ctx->team;
  return 0;
}
SMA_WEAK_ALIAS(shmem_ctx_get_team)

// Sessions (1.6) only announce a burst of operations; every context already completes them
// correctly without the hint, so the hint is checked and accepted.
extern "C" void pshmem_ctx_session_start(shmem_ctx_t ctx, long options,
                                         const shmem_ctx_session_config_t *config,
                                         long config_mask) noexcept {
  shoal::rma::check_ctx(ctx, "shmem_ctx_session_start");
  (void)options;
  (void)config;
  (void)config_mask;
}
SMA_WEAK_ALIAS(shmem_ctx_session_start)

extern "C" void pshmem_ctx_session_stop(shmem_ctx_t ctx) noexcept {
  shoal::rma::quiet(ctx, "shmem_ctx_session_stop");
}
SMA_WEAK_ALIAS(shmem_ctx_session_stop)
