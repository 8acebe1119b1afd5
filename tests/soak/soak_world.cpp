#include "soak_world.hpp"

#include <algorithm>

#include "soak_check.hpp"

namespace soak {

World g_world;

std::string list_str(const std::vector<int>& pes) {
  std::string s = "{";
  for (std::size_t i = 0; i < pes.size(); ++i) s += (i ? "," : "") + std::to_string(pes[i]);
  return s + "}";
}

int index_in(const std::vector<int>& v, int x) {
  const auto it = std::find(v.begin(), v.end(), x);
  return it == v.end() ? -1 : static_cast<int>(it - v.begin());
}

std::string TeamSlot::describe() const {
  std::string s = "team #" + std::to_string(id) + " " + how;
  if (const auto* m = mine()) s += " " + list_str(*m);
  return s;
}

void World::init() {
  TeamSlot world;
  world.id = 0;
  world.how = "world";
  std::vector<int> all(static_cast<std::size_t>(g_run.n));
  for (int i = 0; i < g_run.n; ++i) all[static_cast<std::size_t>(i)] = i;
  world.groups.push_back(all);
  world.my_group = 0;
  world.team = SHMEM_TEAM_WORLD;
  world.has_ctx.assign(static_cast<std::size_t>(g_run.n), 0);
  slots.push_back(world);
}

void World::quiet_all() const {
  shmem_quiet();
  for (shmem_ctx_t c : ctxs) shmem_ctx_quiet(c);
  for (const TeamSlot& s : slots)
    if (s.ctx != SHMEM_CTX_INVALID) shmem_ctx_quiet(s.ctx);
}

shmem_ctx_t World::any_ctx(Rng& rng) const {
  const std::size_t pick = rng.below(ctxs.size() + 2);  // the default context half the time
  return pick < ctxs.size() ? ctxs[pick] : SHMEM_CTX_DEFAULT;
}

void World::destroy_all() {
  for (shmem_ctx_t c : ctxs) shmem_ctx_destroy(c);
  ctxs.clear();
  for (std::size_t i = slots.size(); i-- > 1;) {
    TeamSlot& s = slots[i];
    if (s.ctx != SHMEM_CTX_INVALID) shmem_ctx_destroy(s.ctx);
    if (s.team != SHMEM_TEAM_INVALID) shmem_team_destroy(s.team);
  }
  slots.resize(1);
}

}  // namespace soak
