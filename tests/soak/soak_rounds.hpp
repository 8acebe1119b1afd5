// The rounds that are not a mix of point-to-point components (see soak_round.cpp for those).
#pragma once

#include <cstddef>
#include <vector>

#include "soak_component.hpp"

namespace soak {

// Team management: strided and 2D splits of live teams (world or split), destruction, and
// contexts made on teams and on the world. Every PE runs the same actions; a PE outside a
// parent team skips that split.
void team_round();

// Symmetric allocations: malloc, calloc, align, malloc_with_hints, realloc and free of random
// sizes (the same on every PE), each allocation's contents checked remotely and before it is
// freed, so an overlap with anything else is caught.
void heap_round();
void heap_cleanup();

// Collectives on a random live team (world, strided or 2D split): broadcast, reductions,
// collect, fcollect, alltoall(s), scans and syncs, with random sizes, roots and types.
class CollSteps {
 public:
  static constexpr int kMaxSteps = 3;
  CollSteps();  // collective: allocates the steps' buffers
  // Plans `count` steps of this round and fills this PE's buffers (local).
  void prepare(int count);
  // One operation per step this PE takes part in; each checks its result as soon as it returns.
  void ops(std::vector<Op>& out);

 private:
  unsigned char* arena_;
  int count_ = 0;
};

}  // namespace soak
