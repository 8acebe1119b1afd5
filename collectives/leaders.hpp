// The leaders of a team spread over nodes, for the algorithms that let only one PE of each node
// cross the network (barrier/node_leaders, collect/node_leaders): the lowest team PE of each
// memory group (Channel::memory_group: the PEs of a node), in team order. Every PE computes the
// same leaders, so each knows whom it hands its part to and whom the leaders talk to.
#pragma once

#include "collectives/channel.hpp"

namespace shoal::coll {

// Teams above this size keep the algorithms that do not plan by node: the plan looks at every
// PE in every call.
inline constexpr int kLeadersMaxPes = 64;

struct Leaders {
  int rank[kLeadersMaxPes];   // by leader index: its team PE
  int group[kLeadersMaxPes];  // by leader index: its memory group
  int count = 0;

  // For teams of at most kLeadersMaxPes PEs.
  explicit Leaders(const Channel &ch) noexcept {
    for (int p = 0; p < ch.size(); ++p) {
      const int g = ch.memory_group(p);
      bool seen = false;
      for (int i = 0; i < count && !seen; ++i) seen = group[i] == g;
      if (!seen) {
        rank[count] = p;
        group[count++] = g;
      }
    }
  }
  // The leader index of memory group g (one of the team's).
  int index_of(int g) const noexcept {
    int i = 0;
    while (i < count - 1 && group[i] != g) ++i;
    return i;
  }
};

}  // namespace shoal::coll
