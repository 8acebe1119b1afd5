// Which PEs share this PE's host, found without asking the library: the tests of
// SHMEM_TEAM_SHARED and shmem_ptr compare the library's answer with it.
#pragma once

#include <unistd.h>

#include <cstring>
#include <vector>

#include "mpp_test.hpp"

namespace shoal::test {

// World PEs whose host name (gethostname) equals this PE's, in increasing order: the PEs a
// test may expect on this node (SHMEM_TEAM_SHARED, shmem_ptr), also across hosts. Collective.
inline std::vector<int> pes_on_my_host() {
  constexpr std::size_t kName = 256;
  char mine[kName] = {};
  gethostname(mine, kName - 1);
  SymArray<char> name(kName), all(kName * static_cast<std::size_t>(npes()));
  std::memcpy(name.get(), mine, kName);
  shmem_fcollectmem(SHMEM_TEAM_WORLD, all.get(), name.get(), kName);
  std::vector<int> out;
  for (int pe = 0; pe < npes(); ++pe)
    if (std::strncmp(all.get() + static_cast<std::size_t>(pe) * kName, mine, kName) == 0)
      out.push_back(pe);
  shmem_barrier_all();  // nobody frees `all` while a peer may still read it
  return out;
}

}  // namespace shoal::test
