// Many distinct active sets in one program. The specification puts no limit on how many
// different (PE_start, logPE_stride, PE_size) triplets a program may use, and the active-set
// routines return nothing, so a program cannot learn that a call did not happen: every call on
// every set must work, however many sets came before. These runs set SMA_TEAMS_MAX low so that
// the sets outnumber the library's team slots several times over (see CMakeLists.txt): active
// sets must not depend on them.
#include "active_set_util.hpp"

#include <vector>

using namespace shoal::test;
using namespace shoal::test::aset;

namespace {

// Every valid active set with at least two PEs, then every PE alone under several strides
// (the same one-PE set spelled differently).
std::vector<ActiveSet> all_sets(int n) {
  std::vector<ActiveSet> out;
  for (int log = 0; (1 << log) < n; ++log)
    for (int size = 2; (size - 1) * (1 << log) < n; ++size)
      for (int start = 0; start + (size - 1) * (1 << log) < n; ++start)
        out.push_back({start, log, size});
  for (int log = 0; log < 3; ++log)
    for (int start = 0; start < n; ++start) out.push_back({start, log, 1});
  return out;
}

long g_src[8], g_dst[8], g_wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 8];

}  // namespace

TEST(ActiveSetMany, EverySetWorksPastAnyPerSetResourceLimit) {
  const int n = npes();
  const std::vector<ActiveSet> sets = all_sets(n);
  if (me() == 0) std::printf("[info] %zu distinct active sets, used twice\n", sets.size());
  init_psyncs();
  int wrong_bcast = 0, wrong_reduce = 0, wrong_psync = 0;
  std::string first_bcast, first_reduce;
  for (int pass = 0; pass < 2; ++pass) {
    for (const ActiveSet& s : sets) {
      const int k = s.index_of(me());
      for (long& v : g_dst) v = -1;
      for (int i = 0; i < 8; ++i) g_src[i] = 1000 * (me() + 1) + i;
      shmem_barrier_all();
      if (k >= 0) {
        const int root = s.size - 1;
        shmem_broadcast64(g_dst, g_src, 8, root, s.start, s.log_stride, s.size, g_psync);
        for (int i = 0; i < 8 && k != root; ++i) {
          if (g_dst[i] != 1000 * (s.pe(root) + 1) + i) {
            if (wrong_bcast++ == 0) first_bcast = s.str();
            break;
          }
        }
        barrier_on(s);
        shmem_long_sum_to_all(g_dst, g_src, 8, s.start, s.log_stride, s.size, g_wrk, g_psync);
        for (int i = 0; i < 8; ++i) {
          long want = 0;
          for (int j = 0; j < s.size; ++j) want += 1000 * (s.pe(j) + 1) + i;
          if (g_dst[i] != want) {
            if (wrong_reduce++ == 0) first_reduce = s.str();
            break;
          }
        }
        if (!psync_restored("pSync", g_psync, kSyncSize)) ++wrong_psync;
      }
      shmem_barrier_all();
    }
  }
  EXPECT_EQ(wrong_bcast, 0) << "shmem_broadcast64 calls with wrong results; first on "
                            << first_bcast;
  EXPECT_EQ(wrong_reduce, 0) << "shmem_long_sum_to_all calls with wrong results; first on "
                             << first_reduce;
  EXPECT_EQ(wrong_psync, 0);
}
