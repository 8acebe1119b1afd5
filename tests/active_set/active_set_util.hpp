// Shared pieces of the active-set collective tests (deprecated since OpenSHMEM 1.5, still part
// of 1.6): the active sets each PE count exercises, the pSync arrays and their checks.
//
// An active set is (PE_start, logPE_stride, PE_size): world PEs PE_start + k * 2^logPE_stride
// for k in [0, PE_size). A *scenario* is a list of disjoint active sets that run the same
// collective at the same time; PEs in none of them do not call the routine at all (the
// specification makes a call from outside the active set undefined) and check that nothing of
// theirs was written.
//
// pSync rules followed here (specification, "Collective Routines" and each routine's text):
//   * every element is set to SHMEM_SYNC_VALUE, then all PEs synchronize (shmem_barrier_all)
//     before any PE uses the array;
//   * on return from every active-set routine the local pSync holds SHMEM_SYNC_VALUE again
//     (checked after every call);
//   * shmem_barrier and shmem_sync may reuse one pSync on consecutive calls;
//   * any other routine may reuse a pSync only once every PE of the set has finished the
//     previous call that used it: the tests reuse ONE pSync for every data collective and
//     separate consecutive calls with shmem_barrier on a second, barrier-only pSync.
#pragma once

#include "mpp_test.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace shoal::test::aset {

struct ActiveSet {
  int start = 0;
  int log_stride = 0;
  int size = 1;

  int stride() const { return 1 << log_stride; }
  // World PE of the set's k-th PE.
  int pe(int k) const { return start + k * stride(); }
  // Index of world PE `world` in the set, or -1.
  int index_of(int world) const {
    const int d = world - start;
    if (d < 0 || d % stride() != 0) return -1;
    const int k = d / stride();
    return k < size ? k : -1;
  }
  std::string str() const {
    return "(PE_start " + std::to_string(start) + ", logPE_stride " + std::to_string(log_stride) +
           ", PE_size " + std::to_string(size) + ")";
  }
};

struct Scenario {
  std::string name;
  std::vector<ActiveSet> sets;  // disjoint

  // The set world PE `pe` belongs to, or nullptr.
  const ActiveSet* set_of(int pe) const {
    for (const ActiveSet& s : sets)
      if (s.index_of(pe) >= 0) return &s;
    return nullptr;
  }
};

// The scenarios for `n` PEs. Every set is valid: 0 <= PE_start + (PE_size-1)*2^logPE_stride < n.
// Few distinct sets per PE (an implementation may keep state for each set it has seen).
inline std::vector<Scenario> scenarios(int n) {
  std::vector<Scenario> out;
  out.push_back({"world", {{0, 0, n}}});
  if (n >= 2) {
    // Even and odd PEs as two stride-2 sets running at the same time.
    out.push_back({"evens+odds", {{0, 1, (n + 1) / 2}, {1, 1, n / 2}}});
    // Lower and upper halves, contiguous, at the same time.
    out.push_back({"halves", {{0, 0, n / 2}, {n / 2, 0, n - n / 2}}});
    // Stride 4 from PE 1; the others stay out.
    out.push_back({"stride4-from-1", {{1, 2, (n - 2) / 4 + 1}}});
  }
  if (n >= 3) out.push_back({"middle", {{1, 0, n - 2}}});  // PE 0 and PE n-1 stay out
  if (n >= 5) out.push_back({"stride2-from-2", {{2, 1, (n - 3) / 2 + 1}}});  // 2, 4, ...
  // Every PE alone, each with a stride no other PE could use (size 1 ignores it).
  {
    Scenario s{"singletons", {}};
    for (int p = 0; p < n; ++p) s.sets.push_back({p, p % 2 == 0 ? 0 : 5, 1});
    out.push_back(s);
  }
  return out;
}

// Large enough for every routine's pSync.
inline constexpr int kSyncSize =
    std::max({SHMEM_BCAST_SYNC_SIZE, SHMEM_REDUCE_SYNC_SIZE, SHMEM_BARRIER_SYNC_SIZE,
              SHMEM_COLLECT_SYNC_SIZE, SHMEM_ALLTOALL_SYNC_SIZE, SHMEM_ALLTOALLS_SYNC_SIZE,
              SHMEM_SYNC_SIZE});

// The pSync arrays, global and so symmetric: one for the data collectives and one for the
// barriers that separate them.
inline long g_psync[kSyncSize];
inline long g_barrier_psync[SHMEM_BARRIER_SYNC_SIZE];

// Sets both pSync arrays to SHMEM_SYNC_VALUE on every PE and synchronizes, as the
// specification requires before first use. Collective over all PEs.
inline void init_psyncs() {
  shmem_barrier_all();  // nobody is still using them
  std::fill(std::begin(g_psync), std::end(g_psync), SHMEM_SYNC_VALUE);
  std::fill(std::begin(g_barrier_psync), std::end(g_barrier_psync), SHMEM_SYNC_VALUE);
  shmem_barrier_all();
}

// Whether a pSync array holds SHMEM_SYNC_VALUE everywhere (its state on return).
inline ::testing::AssertionResult psync_restored(const char* what, const long* p, int n) {
  return check_range(what, p, 0, static_cast<std::size_t>(n),
                     [](std::size_t) { return static_cast<long>(SHMEM_SYNC_VALUE); });
}

// shmem_barrier over `s` on the barrier-only pSync: after it every PE of the set has finished
// every collective it called before, so g_psync may be reused.
inline void barrier_on(const ActiveSet& s) {
  shmem_barrier(s.start, s.log_stride, s.size, g_barrier_psync);
}

}  // namespace shoal::test::aset
