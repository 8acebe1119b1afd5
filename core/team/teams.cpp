// Team handles: which are alive, lookup with clear errors, and the queries that need no
// communication (translate, get_config). Creation is in split.cpp, active sets in active_set.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <mutex>
#include <set>

#include "log/log.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"
#include "team/registry.hpp"
#include "team/state.hpp"
#include "team/team.hpp"

int shoal_team::team_pe(int world) const noexcept {
  const auto it = std::find(members.begin(), members.end(), world);
  return it == members.end() ? -1 : static_cast<int>(it - members.begin());
}

namespace shoal::team {
void add_live(shoal_team *team) {
  State &s = state();
  std::lock_guard lock(s.mutex);
  s.live.insert(team);
}

bool is_live(shmem_team_t team) noexcept {
  if (team == nullptr || g_runtime == nullptr) return false;
  if (team == &shoal_team_world || team == &shoal_team_shared) return true;
  if (!bound()) return false;
  State &s = state();
  std::lock_guard lock(s.mutex);
  return s.live.count(team) != 0;
}

shoal_team *lookup(shmem_team_t team, const char *routine, InvalidTeam invalid) noexcept {
  rma::check_ctx(&shoal_ctx_default, routine);  // a call outside init..finalize is fatal
  if (team == nullptr) {
    if (invalid == InvalidTeam::legal)
      SMA_LOG_DEBUG("team", "{}: PE {} passed SHMEM_TEAM_INVALID", routine, g_runtime->my_pe);
    else
      SMA_LOG_ERROR("team", "{}: PE {} passed SHMEM_TEAM_INVALID", routine, g_runtime->my_pe);
    return nullptr;
  }
  if (!is_live(team)) {
    SMA_LOG_ERROR("team",
                  "{}: PE {} passed team {}, which is not a team (destroyed, or never "
                  "created)",
                  routine, g_runtime->my_pe, static_cast<const void *>(team));
    return nullptr;
  }
  return team;
}

void destroy(shmem_team_t team, const char *routine) noexcept {
  rma::check_ctx(&shoal_ctx_default, routine);
  if (team == nullptr) return;
  if (team == &shoal_team_world || team == &shoal_team_shared) {
    SMA_LOG_ERROR("team", "{}: the predefined teams cannot be destroyed", routine);
    return;
  }
  if (lookup(team, routine) == nullptr) return;
  {
    State &s = state();
    std::lock_guard lock(s.mutex);
    s.live.erase(team);
  }
  delete team;  // and with it the collectives' state, which gives the team's slot back
}

void destroy_all() noexcept {
  if (!bound()) return;  // nothing made yet (a start that failed early)
  forget_active_sets();
  std::set<const shoal_team *> live;
  {
    State &s = state();
    std::lock_guard lock(s.mutex);
    live.swap(s.live);
  }
  for (const shoal_team *t : live) delete t;
}

int translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team) noexcept {
  if (!is_live(src_team) || !is_live(dest_team)) return -1;
  const int world = src_team->world_pe(src_pe);
  return world < 0 ? -1 : dest_team->team_pe(world);
}

int get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config,
               const char *routine) noexcept {
  if (lookup(team, routine, InvalidTeam::legal) == nullptr) return -1;
  if (config == nullptr) {
    if (config_mask != 0) SMA_LOG_ERROR("team", "{}: config is NULL", routine);
    return config_mask != 0 ? -1 : 0;
  }
  if (config_mask & SHMEM_TEAM_NUM_CONTEXTS) config->num_contexts = team->config.num_contexts;
  return 0;
}

}  // namespace shoal::team
