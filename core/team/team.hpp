// struct shoal_team is what the public shmem_team_t points to. SHMEM_TEAM_WORLD and
// SHMEM_TEAM_SHARED are filled in by shmem_init; others come from the splits and live until
// shmem_team_destroy (or shmem_finalize).
#pragma once

#include <shmem.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace shoal::team {
// What the layer above core that runs collectives keeps for a team: its share of the library's
// symmetric area (coll::Slot, collectives/slot.hpp). The team owns it and destroys it with itself;
// core never looks inside.
struct CollectiveState {
  virtual ~CollectiveState() = default;
};
}  // namespace shoal::team

struct shoal_team {
  int my_pe = -1;  // this PE's number in the team, -1 if not a member
  int n_pes = 0;
  std::vector<int> members;  // world PE of each team PE, in team order
  shmem_team_config_t config{};
  long config_mask = 0;
  // The collectives' state of the team, given by the collectives layer when the team is made
  // (the predefined teams: at start-up); null before that and for active sets.
  std::unique_ptr<shoal::team::CollectiveState> collective;
  // Active sets (deprecated collectives) have no state of their own: they all share one whose
  // counters are indexed by world PE, which is sound because every PE runs its collectives one
  // after another in an order consistent with its peers'.
  bool active_set = false;
  bool predefined = false;  // SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED: never destroyed
  // Whether every member's symmetric heap is mapped in this process; -1 until first asked.
  signed char heaps_mapped = -1;
  // The same for the shared part of every member's data segment (globals).
  signed char globals_mapped = -1;
  // Collective calls this PE made on the team while the profile or hang reports were on (the
  // number a hang report gives the collective a PE is in; core/observe).
  std::uint64_t observed_calls = 0;

  // The world PE of team PE `pe`, or -1 when pe is not a PE of the team.
  int world_pe(int pe) const noexcept {
    return pe >= 0 && pe < n_pes ? members[static_cast<std::size_t>(pe)] : -1;
  }
  // The team PE number of world PE `pe`, or -1.
  int team_pe(int world) const noexcept;
};

extern "C" {
__attribute__((visibility("default"))) extern shoal_team shoal_team_world;
__attribute__((visibility("default"))) extern shoal_team shoal_team_shared;
}

namespace shoal::team {
// Fills the predefined teams from the job layout (world: every PE; shared: this node's PEs).
void init_predefined(int my_pe, int n_pes, const std::vector<int> &local_peers);
// Destroys every team still alive and empties the predefined ones (shmem_finalize).
void reset_predefined() noexcept;

// The team behind a handle, or null after logging an error that names the routine when the
// handle is SHMEM_TEAM_INVALID or destroyed. Routines for which the specification defines the
// result of SHMEM_TEAM_INVALID (splits, get_config, team_create_ctx) pass `legal`: that handle
// then gets a debug line only. A call before shmem_init or after shmem_finalize is fatal.
enum class InvalidTeam { error, legal };
shoal_team *lookup(shmem_team_t team, const char *routine,
                   InvalidTeam invalid = InvalidTeam::error) noexcept;
// Whether the handle is a live team (no message; false outside init..finalize).
bool is_live(shmem_team_t team) noexcept;

// Makes a team made by a layer above (the splits, collectives/team_split.cpp) known to lookup();
// from then on destroy() and shmem_finalize free it.
void add_live(shoal_team *team);

// The specification's team routines that need no collective (the splits are in
// collectives/team_split.hpp); return values as the specification gives them.
void destroy(shmem_team_t team, const char *routine) noexcept;
int translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team) noexcept;
int get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config,
               const char *routine) noexcept;

// The team of an active set (deprecated collectives): PE_start, 2^logPE_stride, PE_size. Made on
// first use and kept until shmem_finalize; pSync is not needed and never written.
shoal_team *active_set(int PE_start, int logPE_stride, int PE_size, long *pSync,
                       const char *routine) noexcept;
}  // namespace shoal::team
