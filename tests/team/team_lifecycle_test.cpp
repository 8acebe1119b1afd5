// Team lifetimes on real PEs: hundreds of create/destroy cycles (the library's per-team
// resources must be recycled), many teams alive at once and destroyed out of order, PEs that
// belong to different numbers of teams, running out of team resources (the split must then fail
// on every PE of the parent, and work again once a team is destroyed), and shmem_team_sync on
// overlapping and disjoint teams.
//
// SMA_TEAMS_MAX (the library's per-PE team limit) is small in the team_limits_* runs, which
// only run TeamLimits.*: see CMakeLists.txt.
#include "team_util.hpp"

#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace shoal::test;
using namespace shoal::test::team;

namespace {

struct Shape {
  int start, stride, size;
};

// A few shapes valid at every PE count (falling back to the whole world).
Shape shape(int i, int n) {
  const Shape all[] = {{0, 1, n},          {n - 1, -1, n},        {0, 2, (n + 1) / 2},
                       {1, 2, n / 2},      {n / 2, 1, n - n / 2}, {n - 1, 0, 1},
                       {0, 3, (n + 2) / 3}};
  const Shape s = all[i % 7];
  return valid_triplet(n, s.start, s.stride, s.size) ? s : Shape{0, 1, n};
}

std::vector<int> members(const Shape& s) {
  return triplet_members(world_list(), s.start, s.stride, s.size);
}

// Collective over the world. Returns the new team (SHMEM_TEAM_INVALID on non-members and on
// failure) and stores the return code.
shmem_team_t split(const Shape& s, int* rc_out = nullptr) {
  shmem_team_t t = SHMEM_TEAM_INVALID;
  const int rc =
      shmem_team_split_strided(SHMEM_TEAM_WORLD, s.start, s.stride, s.size, nullptr, 0, &t);
  if (rc_out != nullptr) *rc_out = rc;
  return t;
}

// Bytes of memory the kernel holds for the shared-memory file that `address` lies in, when
// that is a PE's symmetric heap (/memfd:shoal-heap), else -1: the heap is private memory when
// the PE is alone on its node or SMA_SHARED_MEMORY=0.
long long heap_file_bytes(const void* address) {
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  std::FILE* maps = std::fopen("/proc/self/maps", "r");
  if (maps == nullptr) return -1;
  char line[512];
  long long bytes = -1;
  while (std::fgets(line, sizeof line, maps) != nullptr) {
    unsigned long long from = 0, to = 0;
    char path[256] = "";
    if (std::sscanf(line, "%llx-%llx %*s %*s %*s %*s %255s", &from, &to, path) < 2) continue;
    if (a < from || a >= to) continue;
    struct stat st {};
    if (std::string(path) == "/memfd:shoal-heap" &&
        stat(("/proc/self/map_files/" + std::string(line, std::strcspn(line, " "))).c_str(), &st) ==
            0)
      bytes = static_cast<long long>(st.st_blocks) * 512;
    break;
  }
  std::fclose(maps);
  return bytes;
}

}  // namespace

// The collectives' area at the end of the heap holds a slot per team (SMA_TEAMS_MAX of them
// for splits, about 20 MiB in all): a slot's memory is committed when a team takes it, not at
// start, where most programs would pay for slots they never use. First in this file, so that
// the split takes a slot no team of this process has had.
TEST(TeamMemory, SlotCommittedWhenTaken) {
  void* probe = shmem_malloc(64);
  const long long before = heap_file_bytes(probe);
  if (sum_over_pes(before >= 0 ? 1 : 0) != npes()) {
    shmem_free(probe);
    GTEST_SKIP() << "the heap is private memory here (one PE on its node, or "
                    "SMA_SHARED_MEMORY=0)";
  }
  const shmem_team_t t = split(Shape{0, 1, npes()});
  EXPECT_NE(t, SHMEM_TEAM_INVALID);
  EXPECT_EQ(shmem_team_sync(t), 0);
  const long long after = heap_file_bytes(probe);
  // Every slot holds at least SMA_COLL_SCRATCH_SIZE (128 KiB by default) of scratch.
  EXPECT_GE(after - before, 128 * 1024)
      << "committed before: " << before << " bytes, after the split: " << after
      << ": the new team's slot was committed before any team took it";
  shmem_team_destroy(t);
  shmem_free(probe);
  shmem_barrier_all();
}

TEST(TeamLifecycle, CreateDestroyCycles) {
  const int n = npes();
  constexpr int kCycles = 200;
  int bad_rc = 0, bad_team = 0, bad_sync = 0, bad_ring = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int c = 0; c < kCycles; ++c) {
    const Shape s = shape(c, n);
    int rc = -1;
    shmem_team_t t = split(s, &rc);
    if (rc != 0) ++bad_rc;
    if (!team_matches(t, members(s))) ++bad_team;
    if (t != SHMEM_TEAM_INVALID) {
      if (shmem_team_sync(t) != 0) ++bad_sync;
      if (c % 10 == 0 && ring_rounds(t, 1, c / 10) != 0) ++bad_ring;
      shmem_team_destroy(t);
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(bad_rc, 0) << "splits that failed (team resources not recycled?)";
  EXPECT_EQ(bad_team, 0) << "teams with wrong numbering";
  EXPECT_EQ(bad_sync, 0);
  EXPECT_EQ(bad_ring, 0);
  if (me() == 0) std::printf("[info] %d create/sync/destroy cycles in %.2f s\n", kCycles, secs);
  shmem_barrier_all();
}

TEST(TeamLifecycle, ManyLiveTeamsDestroyedOutOfOrder) {
  const int n = npes();
  constexpr int kLive = 20;
  std::vector<shmem_team_t> teams;
  std::vector<Shape> shapes;
  for (int i = 0; i < kLive; ++i) {
    shapes.push_back(shape(i, n));
    int rc = -1;
    teams.push_back(split(shapes.back(), &rc));
    EXPECT_EQ(rc, 0) << "team " << i << " of " << kLive;
  }
  auto check_all = [&](const char* when) {
    for (std::size_t i = 0; i < teams.size(); ++i) {
      if (shapes[i].size == 0) continue;  // destroyed
      EXPECT_TRUE(team_matches(teams[i], members(shapes[i]))) << when << ", team " << i;
      if (teams[i] != SHMEM_TEAM_INVALID) EXPECT_EQ(shmem_team_sync(teams[i]), 0) << when;
    }
  };
  check_all("all alive");
  // A barrier after each ring: PEs belong to different subsets of these teams.
  for (std::size_t i = 0; i < teams.size(); i += 3) {
    if (teams[i] != SHMEM_TEAM_INVALID) EXPECT_EQ(ring_rounds(teams[i], 2, 1 + i), 0);
    shmem_barrier_all();
  }
  shmem_barrier_all();

  // Destroy every other team (from the back), then check the survivors and add ten more.
  for (int i = kLive - 1; i >= 0; i -= 2) {
    if (teams[i] != SHMEM_TEAM_INVALID) shmem_team_destroy(teams[i]);
    teams[i] = SHMEM_TEAM_INVALID;
    shapes[i].size = 0;
  }
  check_all("after destroying half");
  for (int i = 0; i < 10; ++i) {
    shapes.push_back(shape(i + 3, n));
    int rc = -1;
    teams.push_back(split(shapes.back(), &rc));
    EXPECT_EQ(rc, 0) << "team created after destroying half";
  }
  check_all("after recreating");
  for (std::size_t i = 0; i < teams.size(); i += 2) {
    if (teams[i] != SHMEM_TEAM_INVALID) EXPECT_EQ(ring_rounds(teams[i], 2, 100 + i), 0);
    shmem_barrier_all();
  }
  shmem_barrier_all();
  for (std::size_t i = 0; i < teams.size(); ++i)
    if (teams[i] != SHMEM_TEAM_INVALID) shmem_team_destroy(teams[i]);
  shmem_barrier_all();
}

// PE 0 and the last PE belong to several one-PE teams, the others to none, so every PE has a
// different set of teams alive; teams over everyone must still be created and work, also after
// some of the one-PE teams are gone.
TEST(TeamLifecycle, PesWithDifferentTeamCounts) {
  const int n = npes();
  std::vector<shmem_team_t> solo0, solo_last;
  for (int i = 0; i < 5; ++i) solo0.push_back(split({0, 1, 1}));
  for (int i = 0; i < 3; ++i) solo_last.push_back(split({n - 1, 1, 1}));
  for (shmem_team_t t : solo0) EXPECT_TRUE(team_matches(t, {0}));
  for (shmem_team_t t : solo_last) EXPECT_TRUE(team_matches(t, {n - 1}));

  int rc = -1;
  shmem_team_t w1 = split({0, 1, n}, &rc);
  EXPECT_EQ(rc, 0);
  EXPECT_TRUE(team_matches(w1, world_list()));
  EXPECT_EQ(ring_rounds(w1, 3, 1), 0);
  // PE 0 alone drops two of its teams (a one-PE team is destroyed by its only member).
  if (me() == 0) {
    shmem_team_destroy(solo0[1]);
    shmem_team_destroy(solo0[3]);
    EXPECT_EQ(shmem_team_sync(solo0[0]), 0);
  }
  shmem_team_t w2 = split({n - 1, -1, n}, &rc);
  EXPECT_EQ(rc, 0);
  EXPECT_TRUE(team_matches(w2, members({n - 1, -1, n})));
  shmem_team_t ev = split({0, 2, (n + 1) / 2}, &rc);
  EXPECT_EQ(rc, 0);
  EXPECT_TRUE(team_matches(ev, members({0, 2, (n + 1) / 2})));
  EXPECT_EQ(ring_rounds(w2, 3, 2), 0);
  if (ev != SHMEM_TEAM_INVALID) EXPECT_EQ(ring_rounds(ev, 3, 3), 0);
  EXPECT_EQ(ring_rounds(w1, 3, 4), 0);
  if (me() == 0) {
    for (int i : {0, 2, 4}) shmem_team_destroy(solo0[i]);
  }
  if (me() == n - 1) {
    for (shmem_team_t t : solo_last) shmem_team_destroy(t);
  }
  if (ev != SHMEM_TEAM_INVALID) shmem_team_destroy(ev);
  shmem_team_destroy(w2);
  shmem_team_destroy(w1);
  shmem_barrier_all();
}

TEST(TeamSync, OverlappingAndDisjointTeams) {
  const int n = npes();
  int rc = -1;
  shmem_team_t all = split({0, 1, n}, &rc);
  ASSERT_EQ(rc, 0);
  shmem_team_t evens = split({0, 2, (n + 1) / 2}, &rc);
  ASSERT_EQ(rc, 0);
  shmem_team_t odds = split(n >= 2 ? Shape{1, 2, n / 2} : Shape{0, 1, 1}, &rc);
  ASSERT_EQ(rc, 0);
  shmem_team_t top = split({n - 1, -1, (n + 1) / 2}, &rc);  // upper half, descending
  ASSERT_EQ(rc, 0);
  long salt = 10;
  // Disjoint teams side by side.
  if (evens != SHMEM_TEAM_INVALID) EXPECT_EQ(ring_rounds(evens, 20, salt), 0);
  if (odds != SHMEM_TEAM_INVALID) EXPECT_EQ(ring_rounds(odds, 20, salt), 0);
  ++salt;
  // Overlapping teams interleaved, in the same order on every PE.
  for (int r = 0; r < 10; ++r) {
    EXPECT_EQ(ring_rounds(all, 1, salt++), 0);
    if (top != SHMEM_TEAM_INVALID) EXPECT_EQ(ring_rounds(top, 1, salt), 0);
    ++salt;
    if (evens != SHMEM_TEAM_INVALID) EXPECT_EQ(shmem_team_sync(evens), 0);
    if (odds != SHMEM_TEAM_INVALID) EXPECT_EQ(shmem_team_sync(odds), 0);
    EXPECT_EQ(shmem_team_sync(all), 0);
    EXPECT_EQ(shmem_team_sync(SHMEM_TEAM_WORLD), 0);
  }
  for (shmem_team_t t : {top, odds, evens, all})
    if (t != SHMEM_TEAM_INVALID) shmem_team_destroy(t);
  shmem_barrier_all();
}

// Team resources may run out (the library reserves a fixed number per PE). A split that cannot
// be created must fail on every PE of the parent with SHMEM_TEAM_INVALID everywhere, and work
// again once a team is destroyed.
TEST(TeamLimits, WorldSplitsUntilExhausted) {
  const int n = npes();
  constexpr int kCap = 100;
  std::vector<shmem_team_t> teams;
  bool failed = false;
  for (int i = 0; i < kCap && !failed; ++i) {
    int rc = -1;
    shmem_team_t t = split({0, 1, n}, &rc);
    const int failures = sum_over_pes(rc != 0 ? 1 : 0);
    EXPECT_TRUE(failures == 0 || failures == n)
        << "split " << i << " failed on " << failures << " of " << n << " PEs";
    if (rc != 0) {
      failed = true;
      EXPECT_EQ(t, SHMEM_TEAM_INVALID);
    } else {
      teams.push_back(t);
    }
  }
  if (me() == 0)
    std::printf("[info] %zu world teams alive at once%s\n", teams.size(),
                failed ? " before a split failed" : " (no limit reached)");
  if (failed) {
    ASSERT_FALSE(teams.empty()) << "not even one team could be created";
    shmem_team_destroy(teams.back());
    teams.pop_back();
    int rc = -1;
    shmem_team_t again = split({n - 1, -1, n}, &rc);
    EXPECT_EQ(rc, 0) << "a split after a destroy must find the freed resources";
    EXPECT_TRUE(team_matches(again, members({n - 1, -1, n})));
    if (again != SHMEM_TEAM_INVALID) {
      EXPECT_EQ(ring_rounds(again, 2, 1), 0);
      teams.push_back(again);
    }
  }
  // Every team still works.
  for (shmem_team_t t : teams) EXPECT_EQ(shmem_team_sync(t), 0);
  for (shmem_team_t t : teams) shmem_team_destroy(t);
  shmem_barrier_all();
}

// Only PE 0 runs out: it joins one-PE teams until a split fails. That failure, and the failure
// of a split over everyone while PE 0 has nothing left, must be reported on every PE.
TEST(TeamLimits, OnePeExhaustedFailsEveryPe) {
  const int n = npes();
  constexpr int kCap = 100;
  std::vector<shmem_team_t> mine;
  bool failed = false;
  for (int i = 0; i < kCap && !failed; ++i) {
    int rc = -1;
    shmem_team_t t = split({0, 1, 1}, &rc);
    const int failures = sum_over_pes(rc != 0 ? 1 : 0);
    EXPECT_TRUE(failures == 0 || failures == n)
        << "one-PE split " << i << " failed on " << failures << " of " << n << " PEs";
    if (rc != 0) {
      failed = true;
      EXPECT_EQ(t, SHMEM_TEAM_INVALID);
    } else if (t != SHMEM_TEAM_INVALID) {
      mine.push_back(t);
    }
  }
  if (me() == 0)
    std::printf("[info] PE 0 alone in %zu teams%s\n", mine.size(),
                failed ? " before a split failed" : " (no limit reached)");
  if (failed) {
    int rc = -1;
    shmem_team_t w = split({0, 1, n}, &rc);
    const int failures = sum_over_pes(rc != 0 ? 1 : 0);
    EXPECT_TRUE(failures == 0 || failures == n)
        << "world split with PE 0 exhausted failed on " << failures << " of " << n << " PEs";
    if (rc == 0) {
      EXPECT_EQ(shmem_team_sync(w), 0);
      shmem_team_destroy(w);
    } else {
      EXPECT_EQ(w, SHMEM_TEAM_INVALID);
    }
    if (me() == 0 && !mine.empty()) {
      shmem_team_destroy(mine.back());
      mine.pop_back();
    }
    w = split({0, 1, n}, &rc);
    EXPECT_EQ(rc, 0) << "PE 0 freed a team: a split over everyone must work";
    if (w != SHMEM_TEAM_INVALID) {
      EXPECT_EQ(ring_rounds(w, 2, 3), 0);
      shmem_team_destroy(w);
    }
  }
  for (shmem_team_t t : mine) shmem_team_destroy(t);
  shmem_barrier_all();
}
