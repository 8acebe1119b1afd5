// SHMEM_DEBUG's collective-mismatch check: before a collective runs on a team, every PE hands a
// record of its call (routine, collective, sizes, root) to its team successor and compares it
// with its predecessor's. If the records around the ring all agree, every PE entered the same
// call; otherwise a PE that sees two different ones ends the job with an error naming both,
// before anyone enters the collective, so the mismatch cannot hang.
//
// The exchange has words of its own in the team's slot (the predecessor sets the record's
// sequence number, the successor acknowledges reading it), so it never disturbs the counters of
// the algorithms. Active sets (the deprecated collectives) are not checked: their slot is shared
// by sets of different members.
#pragma once

#include <cstddef>

#include "collectives/algorithm.hpp"

struct shoal_team;

namespace shoal::coll {

// What every PE of the team must agree on. nelems is not compared for collect (each PE gives
// its own count); root only for broadcast, the strides only for alltoall(s).
struct CallRecord {
  Collective collective;
  const char *routine;
  std::size_t nelems = 0;
  std::size_t elem_size = 0;
  int root = -1;
  std::ptrdiff_t dst_stride = 1, sst_stride = 1;
};

// The check, when SHMEM_DEBUG is on (a no-op otherwise and for active sets and teams of one
// PE); a mismatch is fatal.
void check_same_call(shoal_team &team, const CallRecord &call) noexcept;

}  // namespace shoal::coll
