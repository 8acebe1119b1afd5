// Bookkeeping shared by the files of core/team (not part of the team API).
#pragma once

struct shoal_team;

namespace shoal::team {
// Frees every created team (shmem_finalize).
void destroy_all() noexcept;
// Drops the table of active-set teams (shmem_finalize, before destroy_all).
void forget_active_sets() noexcept;
}  // namespace shoal::team
