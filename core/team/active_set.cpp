// The teams behind the deprecated active-set collectives (PE_start, logPE_stride, PE_size, pSync).
// An active set becomes a team on its first use and stays one until shmem_finalize. All active
// sets share one slot of the collectives whose counters are indexed by world PE (the teams are
// marked shoal_team::active_set), so any number of distinct sets works, nothing needs agreeing
// on, and pSync is never written (it is trivially "restored" on return, as the specification
// requires).
#include <fmt/format.h>

#include <map>
#include <mutex>
#include <tuple>

#include "log/log.hpp"
#include "runtime.hpp"
#include "team/registry.hpp"
#include "team/state.hpp"
#include "team/team.hpp"

namespace shoal::team {
namespace {
using Key = std::tuple<int, int, int>;  // PE_start, stride, PE_size
}  // namespace

shoal_team *active_set(int PE_start, int logPE_stride, int PE_size, long *pSync,
                       const char *routine) noexcept {
  (void)pSync;
  const Runtime *rt = g_runtime;
  if (rt == nullptr) return lookup(nullptr, routine);  // reports the misuse
  const long long stride = logPE_stride >= 0 && logPE_stride < 31 ? 1LL << logPE_stride : -1;
  const long long last = PE_start + (PE_size - 1) * stride;
  if (PE_start < 0 || PE_size < 1 || stride < 1 || last >= rt->n_pes) {
    SMA_LOG_ERROR("team",
                  "{}: the active set PE_start {}, logPE_stride {}, PE_size {} names PEs "
                  "outside 0 to {}",
                  routine, PE_start, logPE_stride, PE_size, rt->n_pes - 1);
    return nullptr;
  }
  if (rt->my_pe < PE_start || rt->my_pe > last || (rt->my_pe - PE_start) % stride != 0) {
    SMA_LOG_ERROR("team",
                  "{}: PE {} is not in the active set PE_start {}, logPE_stride {}, "
                  "PE_size {}",
                  routine, rt->my_pe, PE_start, logPE_stride, PE_size);
    return nullptr;
  }
  const Key key{PE_start, PE_size == 1 ? 1 : static_cast<int>(stride), PE_size};
  State &s = state();
  std::lock_guard lock(s.active_sets_mutex);
  if (auto it = s.active_sets.find(key); it != s.active_sets.end()) return it->second;
  auto *team = new shoal_team;
  for (int i = 0; i < PE_size; ++i)
    team->members.push_back(PE_start + static_cast<int>(i * stride));
  team->n_pes = PE_size;
  team->my_pe = team->team_pe(rt->my_pe);
  team->active_set = true;
  add_live(team);
  s.active_sets.emplace(key, team);
  return team;
}

void forget_active_sets() noexcept {
  if (!bound()) return;
  State &s = state();
  std::lock_guard lock(s.active_sets_mutex);
  s.active_sets.clear();  // the teams themselves are freed with every other team
}

}  // namespace shoal::team
