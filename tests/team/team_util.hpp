// Helpers of the team tests: expected membership of splits, checks of a team handle against it,
// and a ring exchange that proves a team's synchronization really waits for its members.
#pragma once

#include "mpp_test.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace shoal::test::team {

// World PEs of the team PEs of `t`, in team order (computed through shmem_team_translate_pe).
inline std::vector<int> world_members_of(shmem_team_t t) {
  std::vector<int> out;
  const int n = shmem_team_n_pes(t);
  for (int i = 0; i < n; ++i) out.push_back(shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD));
  return out;
}

inline std::vector<int> world_list() {
  std::vector<int> out(static_cast<std::size_t>(shmem_n_pes()));
  for (int i = 0; i < shmem_n_pes(); ++i) out[static_cast<std::size_t>(i)] = i;
  return out;
}

// Whether (start, stride, size) is a valid triplet over a parent of `parent_n` PEs.
inline bool valid_triplet(int parent_n, int start, int stride, int size) {
  if (size < 1) return false;
  if (stride == 0 && size != 1) return false;
  for (int i = 0; i < size; ++i) {
    const long long pe = static_cast<long long>(start) + static_cast<long long>(stride) * i;
    if (pe < 0 || pe >= parent_n) return false;
  }
  return true;
}

// The world PEs of the team that (start, stride, size) selects from `parent` (world PEs of the
// parent team in team order): team PE i is parent PE start + stride * i.
inline std::vector<int> triplet_members(const std::vector<int>& parent, int start, int stride,
                                        int size) {
  std::vector<int> out;
  for (int i = 0; i < size; ++i)
    out.push_back(parent[static_cast<std::size_t>(start + stride * i)]);
  return out;
}

inline int index_in(const std::vector<int>& v, int x) {
  const auto it = std::find(v.begin(), v.end(), x);
  return it == v.end() ? -1 : static_cast<int>(it - v.begin());
}

inline std::string list_str(const std::vector<int>& v) {
  std::string s = "{";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "}";
}

// Checks `t` on this PE against the expected members (world PEs in team order): a member
// sees its number, the size and consistent translations both ways (to and from non-members
// too); a non-member holds SHMEM_TEAM_INVALID. Local.
inline ::testing::AssertionResult team_matches(shmem_team_t t, const std::vector<int>& members) {
  const int me = shmem_my_pe();
  const int idx = index_in(members, me);
  const int size = static_cast<int>(members.size());
  auto fail = [&]() {
    return ::testing::AssertionFailure()
           << "team " << list_str(members) << " on world PE " << me << ": ";
  };
  if (idx < 0) {
    if (t != SHMEM_TEAM_INVALID)
      return fail() << "a non-member got a handle other than SHMEM_TEAM_INVALID";
    return ::testing::AssertionSuccess();
  }
  if (t == SHMEM_TEAM_INVALID) return fail() << "a member got SHMEM_TEAM_INVALID";
  if (shmem_team_my_pe(t) != idx)
    return fail() << "shmem_team_my_pe " << shmem_team_my_pe(t) << ", expected " << idx;
  if (shmem_team_n_pes(t) != size)
    return fail() << "shmem_team_n_pes " << shmem_team_n_pes(t) << ", expected " << size;
  for (int i = 0; i < size; ++i) {
    const int w = shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD);
    if (w != members[static_cast<std::size_t>(i)])
      return fail() << "translate_pe(team, " << i << ", WORLD) = " << w << ", expected "
                    << members[static_cast<std::size_t>(i)];
  }
  for (int p = 0; p < shmem_n_pes(); ++p) {
    const int got = shmem_team_translate_pe(SHMEM_TEAM_WORLD, p, t);
    if (got != index_in(members, p))
      return fail() << "translate_pe(WORLD, " << p << ", team) = " << got << ", expected "
                    << index_in(members, p) << (index_in(members, p) < 0 ? " (not a member)" : "");
  }
  for (int bad : {-1, size, size + 7}) {
    if (shmem_team_translate_pe(t, bad, SHMEM_TEAM_WORLD) != -1)
      return fail() << "translate_pe(team, " << bad << ", WORLD) is not -1";
  }
  if (shmem_team_translate_pe(t, idx, SHMEM_TEAM_INVALID) != -1 ||
      shmem_team_translate_pe(SHMEM_TEAM_INVALID, idx, t) != -1)
    return fail() << "translate_pe with SHMEM_TEAM_INVALID is not -1";
  if (shmem_team_translate_pe(t, idx, t) != idx)
    return fail() << "translate_pe(team, me, team) != me";
  return ::testing::AssertionSuccess();
}

// Symmetric mailboxes of ring_rounds (inline variables are global, hence symmetric).
inline long g_ring[16];

// Members of `t` only: `rounds` times, each member puts a stamp into the next member's mailbox
// (by world PE), completes it with shmem_quiet and calls shmem_team_sync; the mailbox must then
// hold the predecessor's stamp of this round. Mailboxes alternate by round, so a predecessor
// already in the next round cannot overwrite the one being read. `salt` (the same on every
// member, >= 0) makes the stamps of different runs differ and picks one of 8 mailbox pairs: a
// PE's predecessor in the next ring may start it while this PE still reads the last round of
// this one (when that predecessor is not in this team), so rings that follow each other without
// a barrier over both teams need salts that differ modulo 8. A final shmem_team_sync keeps
// members of this team from starting another ring before everyone read. Returns the number of
// wrong rounds (or failed syncs).
inline int ring_rounds(shmem_team_t t, int rounds, long salt) {
  const int n = shmem_team_n_pes(t);
  const int k = shmem_team_my_pe(t);
  if (n <= 0 || k < 0) return rounds;
  const int next_world = shmem_team_translate_pe(t, (k + 1) % n, SHMEM_TEAM_WORLD);
  const int prev = (k + n - 1) % n;
  int wrong = 0;
  for (int r = 0; r < rounds; ++r) {
    long* box = &g_ring[(salt % 8) * 2 + r % 2];
    shmem_long_p(box, salt * 1000000L + r * 1000L + k, next_world);
    shmem_quiet();
    if (shmem_team_sync(t) != 0) ++wrong;
    const long got = *static_cast<volatile long*>(box);
    if (got != salt * 1000000L + r * 1000L + prev) ++wrong;
  }
  if (shmem_team_sync(t) != 0) ++wrong;
  return wrong;
}

inline bool shared_memory_enabled() {
  const char* v = std::getenv("SMA_SHARED_MEMORY");
  return v == nullptr || std::string(v) != "0";
}

}  // namespace shoal::test::team
