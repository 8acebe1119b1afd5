// struct shoal_team is what the public shmem_team_t points to. For now the two predefined
// teams exist so SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED link; the team API comes with the
// collectives.
#pragma once

struct shoal_team {
  int my_pe = -1;   // this PE's number in the team
  int n_pes = 0;
  int start = 0;    // first world PE
  int stride = 1;   // world PE distance between consecutive team members
};

extern "C" {
__attribute__((visibility("default"))) extern shoal_team shoal_team_world;
__attribute__((visibility("default"))) extern shoal_team shoal_team_shared;
}
