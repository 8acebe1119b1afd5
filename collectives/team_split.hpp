// The team splits of the specification (shmem_team_split_strided, shmem_team_split_2d). They
// live with the collectives, not with the teams in core/team: the members agree on a free slot of
// the collective area through a reduction over the parent. Return values as the specification
// gives them.
#pragma once

#include <shmem.h>

namespace shoal::coll {

int split_strided(shmem_team_t parent, int start, int stride, int size,
                  const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team,
                  const char *routine) noexcept;
int split_2d(shmem_team_t parent, int xrange, const shmem_team_config_t *xaxis_config,
             long xaxis_mask, shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
             long yaxis_mask, shmem_team_t *yaxis_team, const char *routine) noexcept;

}  // namespace shoal::coll
