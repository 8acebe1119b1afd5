// What lives across rounds: the split teams (known on every PE, members or not) and this PE's
// communication contexts.
#pragma once

#include <shmem.h>

#include <string>
#include <vector>

namespace soak {

// Teams made by one split: a strided split gives one group per parent group, a 2D split one
// group per row (x axis) or column (y axis). Every PE knows every group; it holds a handle only
// for the group it belongs to.
struct TeamSlot {
  int id = 0;                            // creation number, for messages
  std::string how;                       // "world", "strided(start,stride,size) of #id", ...
  std::vector<std::vector<int>> groups;  // world PEs of each team, in team order
  int my_group = -1;                     // index into groups, -1: not a member
  shmem_team_t team = SHMEM_TEAM_INVALID;
  std::vector<char> has_ctx;            // per world PE: made a context on its team
  shmem_ctx_t ctx = SHMEM_CTX_INVALID;  // this PE's context on its team, if any

  const std::vector<int>* mine() const {
    return my_group < 0 ? nullptr : &groups[static_cast<std::size_t>(my_group)];
  }
  std::string describe() const;
};

struct World {
  std::vector<TeamSlot> slots;    // slots[0] is SHMEM_TEAM_WORLD
  std::vector<shmem_ctx_t> ctxs;  // this PE's contexts on the world team
  int next_team_id = 1;

  void init();
  // Completes this PE's operations on every context it uses.
  void quiet_all() const;
  // The context an operation uses: the default one or one made by shmem_ctx_create.
  shmem_ctx_t any_ctx(class Rng& rng) const;
  void destroy_all();
};
extern World g_world;

std::string list_str(const std::vector<int>& pes);
int index_in(const std::vector<int>& v, int x);

}  // namespace soak
