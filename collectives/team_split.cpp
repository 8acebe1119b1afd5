// Team creation from a parent team: shmem_team_split_strided and shmem_team_split_2d. Every PE
// of the parent calls; the members agree on a slot of the collective area free on each of them
// through an OR reduction (over the parent) of the slots each member has in use, commit its
// memory and agree on the new team's generation on that slot (a MAX reduction), clear it, and
// synchronize over the parent before the new team is used. The teams themselves (lookup, the
// live set, destruction) are core's (core/team); the agreement needs a collective, so the splits
// live here.
#include "collectives/team_split.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "collectives/collectives.hpp"
#include "collectives/slots.hpp"
#include "log/log.hpp"
#include "runtime.hpp"
#include "team/team.hpp"

namespace shoal::coll {
namespace {

using team::InvalidTeam;
using team::lookup;

// The team PEs of `parent` that form a new team, or empty when the arguments name PEs outside
// the parent (the caller reports it).
std::vector<int> strided_members(const shoal_team &parent, int start, int stride, int size) {
  std::vector<int> members;
  if (size < 1 || start < 0 || start >= parent.n_pes || (stride == 0 && size > 1)) return members;
  for (int i = 0; i < size; ++i) {
    const long long pe = start + static_cast<long long>(i) * stride;
    if (pe < 0 || pe >= parent.n_pes) return {};
    members.push_back(parent.world_pe(static_cast<int>(pe)));
  }
  return members;
}

// The slots in use on any member of the new team(s): OR, over the parent, of what each PE has in
// use, where a PE that joins no new team adds nothing. Only the members mark the slot chosen,
// so counting a non-member's slots would let disjoint splits exhaust the slots long before any
// PE has SMA_TEAMS_MAX teams.
std::vector<std::uint64_t> used_by_members(shoal_team &parent, bool member, const char *routine,
                                           bool &ok) {
  std::vector<std::uint64_t> mine =
      member ? slots::in_use() : std::vector<std::uint64_t>(kMaskWords, 0);
  std::uint64_t *masks = channel_slot(parent).masks;
  ok = reduce(&parent, masks, mine.data(), kMaskWords, sizeof(std::uint64_t),
              combine<ReduceOp::bit_or, std::uint64_t>, routine) == 0;
  return std::vector<std::uint64_t>(masks, masks + kMaskWords);
}

// Takes slots `indices` for new teams: a member commits their memory here (they may never
// have been used on this PE), and all agree on the new teams' generations (Slot::generation):
// for each slot, one past the highest any member has had on it, so on every member it differs
// from the generation of each team the slot had before, and a raise still in flight for one of
// those cannot move a word of the new team (cache_lines.hpp). One MAX reduction over the
// parent, where a PE that joins no new team adds nothing, carries both, and whether any member
// could not commit: then every PE fails the split together. Empty after an error.
std::vector<std::uint64_t> claim_slots(shoal_team &parent, const std::vector<int> &indices,
                                       bool member, const char *routine) {
  std::uint64_t commit_failed = 0;
  std::vector<std::uint64_t> mine;
  for (int slot : indices) {
    mine.push_back(member ? slots::generation(slot) : 0);
    if (!member || commit_failed != 0) continue;
    const slots::Range range = slots::range_of(slot);
    if (Failure f = g_runtime->commit_library_area(range.offset, range.bytes)) {
      SMA_LOG_ERROR("team", "{}: PE {}: {}", routine, g_runtime->my_pe, f.why());
      commit_failed = 1;
    }
  }
  mine.push_back(commit_failed);
  // The mask reduction's result is copied out, so its words are free again.
  std::uint64_t *highest = channel_slot(parent).masks;
  if (reduce(&parent, highest, mine.data(), mine.size(), sizeof(std::uint64_t),
             combine<ReduceOp::max, std::uint64_t>, routine) != 0)
    return {};
  if (highest[indices.size()] != 0) {
    if (commit_failed == 0)
      SMA_LOG_ERROR("team",
                    "{}: a member of the new team could not commit memory for the team's "
                    "collective state (its own message says why): no team was made",
                    routine);
    return {};
  }
  std::vector<std::uint64_t> next;
  for (std::size_t i = 0; i < indices.size(); ++i)
    next.push_back((highest[i] + 1) & ((std::uint64_t{1} << kGenerationBits) - 1));
  return next;
}

void mark(std::vector<std::uint64_t> &used, int slot) {
  used[static_cast<std::size_t>(slot) / 64] |= std::uint64_t{1} << (slot % 64);
}

// A team of the given world PEs on `slot`, or null when this PE is not among them.
shoal_team *make_team(const std::vector<int> &members, int slot, std::uint64_t generation,
                      const shmem_team_config_t *config, long config_mask) {
  const int me = g_runtime->my_pe;
  auto team = std::make_unique<shoal_team>();
  team->members = members;
  team->n_pes = static_cast<int>(members.size());
  team->my_pe = team->team_pe(me);
  if (team->my_pe < 0) return nullptr;
  team->config_mask = config_mask;
  if (config != nullptr && (config_mask & SHMEM_TEAM_NUM_CONTEXTS)) team->config = *config;
  slots::assign(*team, slot, true, generation);
  shoal_team *raw = team.release();
  shoal::team::add_live(raw);
  return raw;
}

// The parent of a split, or null after an error (not a team, or this PE is not in it).
shoal_team *parent_team(shmem_team_t handle, const char *routine) {
  shoal_team *parent = lookup(handle, routine, InvalidTeam::legal);
  if (parent != nullptr && parent->my_pe < 0) {
    SMA_LOG_ERROR("team", "{}: PE {} is not a member of the parent team", routine,
                  g_runtime->my_pe);
    return nullptr;
  }
  return parent;
}

// Split teams alive on this PE.
int split_slots_in_use() {
  int n = 0;
  for (std::uint64_t word : slots::in_use()) n += __builtin_popcountll(word);
  return n - slots::kReservedSlots;
}

std::string slots_exhausted(const char *routine) {
  return fmt::format(
      "{}: no team slot is free on every member of the new team: each PE has "
      "SMA_TEAMS_MAX={} for teams made by splits, and PE {} has {} of them alive "
      "(raise SMA_TEAMS_MAX, or destroy teams no longer needed)",
      routine, slots::split_capacity(), g_runtime->my_pe, split_slots_in_use());
}

}  // namespace

int split_strided(shmem_team_t parent_handle, int start, int stride, int size,
                  const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team,
                  const char *routine) noexcept {
  if (new_team == nullptr) {
    SMA_LOG_ERROR("team", "{}: new_team is NULL", routine);
    return -1;
  }
  *new_team = SHMEM_TEAM_INVALID;
  shoal_team *parent = parent_team(parent_handle, routine);
  if (parent == nullptr) return -1;
  const std::vector<int> members = strided_members(*parent, start, stride, size);
  if (members.empty()) {
    // Every PE of the parent sees the same arguments and returns here together. A legal call:
    // the specification defines the result (SHMEM_TEAM_INVALID, nonzero), so no message.
    SMA_LOG_DEBUG("team",
                  "{}: start {}, stride {}, size {} do not name PEs of the parent team "
                  "(it has PEs 0 to {})",
                  routine, start, stride, size, parent->n_pes - 1);
    return -1;
  }
  bool ok = false;
  const bool member = std::find(members.begin(), members.end(), g_runtime->my_pe) != members.end();
  const std::vector<std::uint64_t> used = used_by_members(*parent, member, routine, ok);
  const int slot = ok ? slots::first_free(used) : -1;
  if (slot < 0) {
    if (ok) SMA_LOG_ERROR("team", "{}", slots_exhausted(routine));
    return -1;
  }
  const std::vector<std::uint64_t> generation = claim_slots(*parent, {slot}, member, routine);
  if (generation.empty()) return -1;
  shoal_team *team = make_team(members, slot, generation[0], config, config_mask);
  // Nobody uses the new team before every member has cleared its slot.
  if (sync(parent, routine) != 0) return -1;
  *new_team = team;
  return 0;
}

int split_2d(shmem_team_t parent_handle, int xrange, const shmem_team_config_t *xaxis_config,
             long xaxis_mask, shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
             long yaxis_mask, shmem_team_t *yaxis_team, const char *routine) noexcept {
  if (xaxis_team == nullptr || yaxis_team == nullptr) {
    SMA_LOG_ERROR("team", "{}: xaxis_team and yaxis_team must not be NULL", routine);
    return -1;
  }
  *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
  shoal_team *parent = parent_team(parent_handle, routine);
  if (parent == nullptr) return -1;
  if (xrange < 1) {
    SMA_LOG_ERROR("team", "{}: xrange {} must be at least 1", routine, xrange);
    return -1;
  }
  const int n = parent->n_pes;
  const int x = std::min(xrange, n);
  const int me = parent->my_pe;
  // Row (x-axis team) of consecutive parent PEs, column (y-axis team) of PEs x apart.
  std::vector<int> row, column;
  for (int pe = me / x * x; pe < std::min(n, me / x * x + x); ++pe)
    row.push_back(parent->world_pe(pe));
  for (int pe = me % x; pe < n; pe += x) column.push_back(parent->world_pe(pe));
  // Every PE of the parent joins one row and one column, so every PE marks both slots.
  bool ok = false;
  std::vector<std::uint64_t> used = used_by_members(*parent, true, routine, ok);
  const int x_slot = ok ? slots::first_free(used) : -1;
  if (x_slot >= 0) mark(used, x_slot);
  const int y_slot = x_slot >= 0 ? slots::first_free(used) : -1;
  if (y_slot < 0) {
    if (ok) SMA_LOG_ERROR("team", "{}", slots_exhausted(routine));
    return -1;
  }
  const std::vector<std::uint64_t> generation =
      claim_slots(*parent, {x_slot, y_slot}, true, routine);
  if (generation.empty()) return -1;
  shoal_team *xt = make_team(row, x_slot, generation[0], xaxis_config, xaxis_mask);
  shoal_team *yt = make_team(column, y_slot, generation[1], yaxis_config, yaxis_mask);
  if (sync(parent, routine) != 0) return -1;
  *xaxis_team = xt;
  *yaxis_team = yt;
  return 0;
}

}  // namespace shoal::coll
