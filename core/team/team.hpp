// struct shoal_team is what the public shmem_team_t points to. SHMEM_TEAM_WORLD and
// SHMEM_TEAM_SHARED are filled in by shmem_init; others come from the splits and live until
// shmem_team_destroy (or shmem_finalize).
#pragma once

#include <shmem.h>

#include <vector>

#include "collectives/slot.hpp"

struct shoal_team {
  int my_pe = -1;            // this PE's number in the team, -1 if not a member
  int n_pes = 0;
  std::vector<int> members;  // world PE of each team PE, in team order
  shmem_team_config_t config{};
  long config_mask = 0;
  shoal::coll::Slot slot;    // symmetric flags and scratch of the team's collectives
  // Active sets (deprecated collectives) have no slot of their own: they all share one whose
  // counters are indexed by world PE, which is sound because every PE runs its collectives one
  // after another in an order consistent with its peers'.
  shoal::coll::Slot *shared_slot = nullptr;
  bool predefined = false;   // SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED: never destroyed
  // Whether every member's symmetric heap is mapped in this process; -1 until first asked.
  signed char heaps_mapped = -1;
  // The same for the shared part of every member's data segment (globals).
  signed char globals_mapped = -1;

  // The world PE of team PE `pe`, or -1 when pe is not a PE of the team.
  int world_pe(int pe) const noexcept {
    return pe >= 0 && pe < n_pes ? members[static_cast<std::size_t>(pe)] : -1;
  }
  // The team PE number of world PE `pe`, or -1.
  int team_pe(int world) const noexcept;
  // The slot the team's channels use, and the index of team PE `pe` in its counter arrays.
  shoal::coll::Slot &channel_slot() noexcept { return shared_slot ? *shared_slot : slot; }
  int slot_index(int pe) const noexcept {
    return shared_slot ? members[static_cast<std::size_t>(pe)] : pe;
  }
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

// The specification's team routines; return values as the specification gives them.
int split_strided(shmem_team_t parent, int start, int stride, int size,
                  const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team,
                  const char *routine) noexcept;
int split_2d(shmem_team_t parent, int xrange, const shmem_team_config_t *xaxis_config,
             long xaxis_mask, shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
             long yaxis_mask, shmem_team_t *yaxis_team, const char *routine) noexcept;
void destroy(shmem_team_t team, const char *routine) noexcept;
int translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team) noexcept;
int get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config,
               const char *routine) noexcept;

// The team of an active set (deprecated collectives): PE_start, 2^logPE_stride, PE_size. Made on
// first use and kept until shmem_finalize; pSync is not needed and never written.
shoal_team *active_set(int PE_start, int logPE_stride, int PE_size, long *pSync,
                       const char *routine) noexcept;
// The slot every active set shares (bound by the collectives at start-up).
shoal::coll::Slot &active_sets_slot() noexcept;
}  // namespace shoal::team
