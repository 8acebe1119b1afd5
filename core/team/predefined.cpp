#include <algorithm>

#include "team/registry.hpp"
#include "team/team.hpp"

namespace shoal::team {

void init_predefined(int my_pe, int n_pes, const std::vector<int> &local_peers) {
  shoal_team_world.members.resize(static_cast<std::size_t>(n_pes));
  for (int pe = 0; pe < n_pes; ++pe) shoal_team_world.members[pe] = pe;
  shoal_team_world.n_pes = n_pes;
  shoal_team_world.my_pe = my_pe;
  shoal_team_world.predefined = true;

  // The PEs that share memory with this one: those the launcher placed on this node.
  shoal_team_shared.members = local_peers;
  std::sort(shoal_team_shared.members.begin(), shoal_team_shared.members.end());
  shoal_team_shared.n_pes = static_cast<int>(shoal_team_shared.members.size());
  const auto me =
      std::find(shoal_team_shared.members.begin(), shoal_team_shared.members.end(), my_pe);
  shoal_team_shared.my_pe = static_cast<int>(me - shoal_team_shared.members.begin());
  shoal_team_shared.predefined = true;
}

void reset_predefined() noexcept {
  destroy_all();
  shoal_team_world = shoal_team{};
  shoal_team_shared = shoal_team{};
}

}  // namespace shoal::team
