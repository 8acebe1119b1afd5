// The calls no algorithm sees, completed in one place for the library's dispatcher and the
// in-process tests alike: a call that moves nothing (collect: nothing gathered at all), and
// any call on a team of one PE, which only copies its own contribution into dest. Algorithms
// may therefore assume a team of two PEs or more and something to move (a barrier: a team of
// two or more).
#pragma once

#include "collectives/algorithm.hpp"

namespace shoal::coll {

// Whether a call on a team of team_size PEs needs no algorithm (see above). The same on every
// PE of the team.
bool needs_no_algorithm(Collective c, int team_size, const Args &args) noexcept;

// Completes a call that needs no algorithm: on a team of one PE, dest receives what the
// collective gives it (its own vector or block; zero bytes for an exclusive scan). Needs no
// channel: a team of one PE may have no slot (SHMEM_TEAM_SELF).
void complete_alone(Collective c, int team_size, const Args &args) noexcept;

// Runs one call: complete_alone() when it needs no algorithm, otherwise algorithm.run(),
// which the caller has checked applies.
void run_call(const Algorithm &algorithm, Channel &channel, const Args &args) noexcept;

}  // namespace shoal::coll
