// struct shoal_team is what the public shmem_team_t points to. SHMEM_TEAM_WORLD and
// SHMEM_TEAM_SHARED are filled in by shmem_init; the team API (splits) comes with the
// collectives.
#pragma once

#include <vector>

struct shoal_team {
  int my_pe = -1;           // this PE's number in the team, -1 if not a member
  int n_pes = 0;
  std::vector<int> members;  // world PE of each team PE, in team order

  // The world PE of team PE `pe`, or -1 when pe is not a PE of the team.
  int world_pe(int pe) const noexcept {
    return pe >= 0 && pe < n_pes ? members[static_cast<std::size_t>(pe)] : -1;
  }
};

extern "C" {
__attribute__((visibility("default"))) extern shoal_team shoal_team_world;
__attribute__((visibility("default"))) extern shoal_team shoal_team_shared;
}

namespace shoal::team {
// Fills the predefined teams from the job layout (world: every PE; shared: this node's PEs).
void init_predefined(int my_pe, int n_pes, const std::vector<int> &local_peers);
void reset_predefined() noexcept;
}  // namespace shoal::team
