// A team's share of the symmetric collective area: the flags its point-to-point channels signal
// through and a scratch buffer, at the same address on every PE of the team (see
// docs/collectives.md). The area is reserved at start-up, so creating a team allocates nothing
// from the symmetric heap and shmem_malloc stays in step on every PE. The slot's layout and
// the constants the algorithms use are in slot_state.hpp; this is how a team owns one.
#pragma once

#include "collectives/slot_state.hpp"
#include "team/team.hpp"

namespace shoal::coll {

// A team's collective state (shoal_team::collective): made and bound by slots::assign, given back
// to the area when the team is destroyed (slots.cpp).
struct TeamSlot final : team::CollectiveState {
  ~TeamSlot() override;  // marks the slot free on this PE again
  Slot slot;
};

// The slot every active set shares (bound at start-up, slots.cpp).
Slot &active_sets_slot() noexcept;

// The slot a team's channels use, and the index of team PE `pe` in its counter arrays.
inline Slot &channel_slot(shoal_team &team) noexcept {
  return team.active_set ? active_sets_slot() : static_cast<TeamSlot &>(*team.collective).slot;
}
inline int slot_index(const shoal_team &team, int pe) noexcept {
  return team.active_set ? team.members[static_cast<std::size_t>(pe)] : pe;
}

}  // namespace shoal::coll
