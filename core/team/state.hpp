// The teams' process state, all of it in one team::State: the teams alive and the active sets.
// One State lives from shmem_init to shmem_finalize, owned by the library (api/library.cpp),
// which binds it before the predefined teams are made and unbinds it once they are gone; core/
// team reaches it through state().
#pragma once

#include <map>
#include <mutex>
#include <set>
#include <tuple>

struct shoal_team;

namespace shoal::team {

struct State {
  std::mutex mutex;  // teams may be created and destroyed by several threads
  std::set<const shoal_team *> live;
  // The teams of the active sets by (PE_start, stride, PE_size) (active_set.cpp), under their
  // own lock, taken before `mutex`.
  std::mutex active_sets_mutex;
  std::map<std::tuple<int, int, int>, shoal_team *> active_sets;
};

namespace detail {
inline State *g_bound = nullptr;  // null before start and after stop
}  // namespace detail

// The running library's team state: only while the library runs (is_live() checks that first);
// bound() tells the others.
inline State &state() noexcept { return *detail::g_bound; }
inline bool bound() noexcept { return detail::g_bound != nullptr; }
// The owner's calls (api/library.cpp).
inline void bind_state(State *s) noexcept { detail::g_bound = s; }

}  // namespace shoal::team
