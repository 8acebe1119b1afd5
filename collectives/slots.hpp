// The symmetric area behind every team's Slot: SMA_TEAMS_MAX slots, each three arrays of one
// counter per world PE (notifications, credits, collect's counts) plus SMA_COLL_SCRATCH_SIZE
// scratch bytes. The area sits at the end of the symmetric heap segment, outside what
// shmem_malloc hands out, at the same offset on every PE.
// Which slots are in use is per PE; a new team takes a slot free on all its members (agreed by
// a reduction over the parent team).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "collectives/slot.hpp"

namespace shoal {
struct Config;
}

namespace shoal::coll::slots {

// Bytes the area needs for this configuration and job size.
std::size_t area_bytes(const Config &config, int world_pes) noexcept;
// Bytes at its start that must be committed before other PEs connect: the reserved slots, which
// peers may write as soon as they are up. A split team's slot is committed when the team
// takes it (range_of, before the members synchronize), so memory goes to the slots in use.
std::size_t committed_at_start(const Config &config, int world_pes) noexcept;
// Adopts the area (zeroed memory of area_bytes() bytes, symmetric).
void attach(std::byte *area, const Config &config, int world_pes) noexcept;
void detach() noexcept;

// Where slot `index` lies in the area, in bytes from its start.
struct Range {
  std::size_t offset = 0;
  std::size_t bytes = 0;
};
Range range_of(int index) noexcept;

// Slots 0, 1 and 2 belong to SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED and the active sets; the
// SMA_TEAMS_MAX others to teams made by splits.
constexpr int kReservedSlots = 3;
int count() noexcept;           // slots in the area
int split_capacity() noexcept;  // SMA_TEAMS_MAX
// The slots in use on this PE, one bit each (kMaskWords words of 64 bits).
std::vector<std::uint64_t> in_use() noexcept;
// The lowest slot free in `used` (bits of every member's in_use() OR-ed), or -1.
int first_free(const std::vector<std::uint64_t> &used) noexcept;
// The generation of the last team bound to slot `index` here (0: none yet).
std::uint64_t generation(int index) noexcept;
// Gives `slot` the slot `index` for a team of team_pes PEs and `generation` (Slot::generation)
// and marks it in use here. With `clear`, zeroes the slot's counters here and sets its
// acknowledgement words to the generation's zero: a recycled slot holds its previous team's
// counts, so every member clears and then synchronizes (over the parent team) before the first
// use. The predefined teams start on fresh memory, generation 0, and must not clear (a peer may
// have signalled already).
void bind(Slot &slot, int index, int team_pes, bool clear, std::uint64_t generation) noexcept;
// The same for a team: its collective state becomes a new Slot bound to `index`, which is free
// here again once the team (or its state) is destroyed.
void assign(shoal_team &team, int index, bool clear, std::uint64_t generation);

}  // namespace shoal::coll::slots
