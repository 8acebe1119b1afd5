// Team entry points (specification section "Team Management Routines") and shmem_team_sync.
// The work is in core/team/ (the splits: collectives/team_split.cpp); these return what it
// returns. shmem_team_ptr is in query.cpp and shmem_team_create_ctx in ctx.cpp, with the other
// pointer queries and contexts.
#include "api/export.hpp"
#include "observe/observe.hpp"
#include "collectives/collectives.hpp"
#include "collectives/team_split.hpp"
#include "rma/rma.hpp"
#include "team/team.hpp"

namespace {
// The queries below answer -1 for a bad handle, but a call outside init..finalize is fatal.
void check_running(const char *routine) noexcept {
  shoal::rma::check_ctx(&shoal_ctx_default, routine);
}
}  // namespace

// SHMEM_TEAM_INVALID (or a destroyed team) gives -1, as the specification says; no message.
extern "C" int pshmem_team_my_pe(shmem_team_t team) noexcept {
  check_running("shmem_team_my_pe");
  return shoal::team::is_live(team) ? team->my_pe : -1;
}
SMA_WEAK_ALIAS(shmem_team_my_pe)

extern "C" int pshmem_team_n_pes(shmem_team_t team) noexcept {
  check_running("shmem_team_n_pes");
  return shoal::team::is_live(team) ? team->n_pes : -1;
}
SMA_WEAK_ALIAS(shmem_team_n_pes)

extern "C" int pshmem_team_get_config(shmem_team_t team, long config_mask,
                                      shmem_team_config_t *config) noexcept {
  return shoal::team::get_config(team, config_mask, config, "shmem_team_get_config");
}
SMA_WEAK_ALIAS(shmem_team_get_config)

extern "C" int pshmem_team_translate_pe(shmem_team_t src_team, int src_pe,
                                        shmem_team_t dest_team) noexcept {
  check_running("shmem_team_translate_pe");
  return shoal::team::translate_pe(src_team, src_pe, dest_team);
}
SMA_WEAK_ALIAS(shmem_team_translate_pe)

extern "C" int pshmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                                         const shmem_team_config_t *config, long config_mask,
                                         shmem_team_t *new_team) noexcept {
  return shoal::coll::split_strided(parent_team, start, stride, size, config, config_mask, new_team,
                                    "shmem_team_split_strided");
}
SMA_WEAK_ALIAS(shmem_team_split_strided)

extern "C" int pshmem_team_split_2d(shmem_team_t parent_team, int xrange,
                                    const shmem_team_config_t *xaxis_config, long xaxis_mask,
                                    shmem_team_t *xaxis_team,
                                    const shmem_team_config_t *yaxis_config, long yaxis_mask,
                                    shmem_team_t *yaxis_team) noexcept {
  return shoal::coll::split_2d(parent_team, xrange, xaxis_config, xaxis_mask, xaxis_team,
                               yaxis_config, yaxis_mask, yaxis_team, "shmem_team_split_2d");
}
SMA_WEAK_ALIAS(shmem_team_split_2d)

extern "C" void pshmem_team_destroy(shmem_team_t team) noexcept {
  shoal::team::destroy(team, "shmem_team_destroy");
}
SMA_WEAK_ALIAS(shmem_team_destroy)

// Also what the C11/C++ generic shmem_sync(team) calls.
extern "C" int pshmem_team_sync(shmem_team_t team) noexcept {
  SMA_OBSERVE_CALL(barrier, "shmem_team_sync", 0, team);
  return shoal::coll::sync(team, "shmem_team_sync");
}
SMA_WEAK_ALIAS(shmem_team_sync)
