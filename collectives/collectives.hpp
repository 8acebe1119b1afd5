// The collective operations as the API layer calls them: each checks its arguments, finds the
// algorithm through the registry and runs it on the team's channels. Team PE numbers throughout;
// every function returns 0 on success and a nonzero value (after logging why) on a recoverable
// error, as the team-based routines of the specification do.
#pragma once

#include <cstddef>
#include <string>

#include "collectives/algorithm.hpp"
#include "collectives/reduce_ops.hpp"
#include "status.hpp"

struct shoal_team;

namespace shoal {
class Runtime;
}

namespace shoal::coll {

// The symmetric area every team's flags and scratch live in; reserved by every PE at start-up.
Failure init_collectives(Runtime &rt);
void finalize_collectives() noexcept;

int sync(shoal_team *team, const char *routine) noexcept;     // arrival of every team PE
int barrier(shoal_team *team, const char *routine) noexcept;  // quiet, then sync
void sync_all(const char *routine) noexcept;                  // world
void barrier_all(const char *routine) noexcept;               // world

// `root_dest`: whether the root's dest receives source too (the team forms; the active-set
// forms leave it untouched).
int broadcast(shoal_team *team, void *dest, const void *source, std::size_t nelems,
              std::size_t elem_size, int root, const char *routine, bool root_dest = true) noexcept;
int collect(shoal_team *team, void *dest, const void *source, std::size_t nelems,
            std::size_t elem_size, const char *routine) noexcept;
int fcollect(shoal_team *team, void *dest, const void *source, std::size_t nelems,
             std::size_t elem_size, const char *routine) noexcept;
int alltoall(shoal_team *team, void *dest, const void *source, std::size_t nelems,
             std::size_t elem_size, const char *routine) noexcept;
int alltoalls(shoal_team *team, void *dest, const void *source, std::ptrdiff_t dst,
              std::ptrdiff_t sst, std::size_t nelems, std::size_t elem_size,
              const char *routine) noexcept;
int reduce(shoal_team *team, void *dest, const void *source, std::size_t nreduce,
           std::size_t elem_size, Combine combine, const char *routine) noexcept;
int scan(shoal_team *team, void *dest, const void *source, std::size_t nelems,
         std::size_t elem_size, Combine combine, bool exclusive, const char *routine) noexcept;

}  // namespace shoal::coll
