// A team's share of the symmetric collective area: the flags its point-to-point channels signal
// through and a scratch buffer, at the same address on every PE of the team (see
// docs/collectives.md). The area is reserved at start-up, so creating a team allocates nothing
// from the symmetric heap and shmem_malloc stays in step on every PE.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace shoal::coll {

// Words of a bit set with one bit per slot (SMA_TEAMS_MAX is at most 1024).
constexpr int kMaskWords = 16;

struct Slot {
  int index = -1;                     // which slot of the area; -1: none (not a member)
  std::uint64_t *arrived = nullptr;   // [team PE i]: notifications team PE i has sent this PE
  std::uint64_t *granted = nullptr;   // [team PE i]: credits team PE i has granted this PE
  std::uint64_t *counts = nullptr;    // [team PE i]: collect's element count of team PE i
  std::uint64_t *masks = nullptr;     // kMaskWords: OR of members' slots in use (team splits)
  std::byte *scratch = nullptr;       // symmetric scratch of the team
  std::size_t scratch_bytes = 0;
  // This PE's side of every channel, one entry per team PE (local memory, never remote).
  std::vector<std::uint64_t> sent;        // notifications sent to team PE i
  std::vector<std::uint64_t> received;    // notifications of team PE i consumed here
  std::vector<std::uint64_t> grants_out;  // credits granted to team PE i
  std::vector<std::uint64_t> grants_in;   // credits of team PE i consumed here
};

}  // namespace shoal::coll
