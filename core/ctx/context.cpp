#include "ctx/context.hpp"

#include "team/team.hpp"

// The objects behind SHMEM_CTX_DEFAULT, SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED: their addresses
// are the handles, fixed at link time as the specification asks.
shoal_ctx shoal_ctx_default;
shoal_team shoal_team_world;
shoal_team shoal_team_shared;
