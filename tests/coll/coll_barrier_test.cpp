// shmem_team_sync (and its C++ overload shmem_sync(team)), shmem_barrier_all and shmem_sync_all
// on every team of coll_test_util.hpp, run once per SMA_BARRIER_ALGORITHM.
//
// A sync must not let any PE leave before every team PE arrived. The counter test checks that
// with fetching AMOs (complete when they return): each round every member adds 1 to a counter
// on team PE 0 and syncs; after the sync the counter must hold at least round * size, and at
// most one round more (a fast PE may already have added for the next round, but cannot pass
// the next sync). One PE per round arrives late on purpose.
#include "coll_test_util.hpp"

#include <chrono>
#include <thread>

using namespace shoal::test;
using namespace shoal::test::coll;

namespace {

constexpr int kRounds = 8;
constexpr int kMaxTeamPes = 8;

// Every team gets its own counter and slots: PEs of different teams run concurrently.
struct SyncArea {
  long long counter;
  int slots[2][kMaxTeamPes];
};

}  // namespace

TEST(CollBarrier, SplitsGiveTheExpectedTeams) {
  const auto& all = teams();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(shmem_team_n_pes(SHMEM_TEAM_WORLD), npes());
  int member_of = 0;
  for (const TeamCase& t : all) member_of += t.member ? 1 : 0;
  EXPECT_GE(member_of, 1);
}

TEST(CollBarrier, TeamSyncWaitsForEveryMember) {
  const auto& all = teams();
  SymArray<SyncArea> area(all.size());
  ASSERT_TRUE(area);
  std::memset(area.get(), 0, all.size() * sizeof(SyncArea));
  shmem_barrier_all();

  for (std::size_t ti = 0; ti < all.size(); ++ti) {
    const TeamCase& t = all[ti];
    if (!t.member) continue;
    const int root = t.world_pe(0);
    long long* counter = &area[ti].counter;
    for (int r = 0; r < kRounds; ++r) {
      // Team PE r % size arrives late.
      if (t.size > 1 && t.my == r % t.size)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      shmem_longlong_atomic_fetch_add(counter, 1, root);
      const int rc = (r % 2 == 0) ? shmem_team_sync(t.team) : shmem_sync(t.team);
      EXPECT_EQ(rc, 0) << where("shmem_team_sync", t, "-", 0);
      const long long seen = shmem_longlong_atomic_fetch(counter, root);
      EXPECT_GE(seen, static_cast<long long>(r + 1) * t.size)
          << where("shmem_team_sync", t, "-", 0) << ": round " << r
          << ": a PE left the sync before every member arrived";
      EXPECT_LE(seen, static_cast<long long>(r + 2) * t.size)
          << where("shmem_team_sync", t, "-", 0) << ": round " << r;
    }
  }
  shmem_barrier_all();
}

// quiet + team_sync publishes puts to every member (the classic barrier built from sync).
// Slots are double-buffered by round: a PE can only be one round ahead.
TEST(CollBarrier, QuietThenTeamSyncPublishesPuts) {
  const auto& all = teams();
  SymArray<SyncArea> area(all.size());
  ASSERT_TRUE(area);
  std::memset(area.get(), 0, all.size() * sizeof(SyncArea));
  shmem_barrier_all();

  for (std::size_t ti = 0; ti < all.size(); ++ti) {
    const TeamCase& t = all[ti];
    if (!t.member || t.size > kMaxTeamPes) continue;  // the programs run on up to 8 PEs
    for (int r = 0; r < kRounds; ++r) {
      int* slots = area[ti].slots[r % 2];
      const int value = 1000 * (r + 1) + t.my;
      for (int j = 0; j < t.size; ++j) shmem_int_p(&slots[t.my], value, t.world_pe(j));
      shmem_quiet();
      EXPECT_EQ(shmem_team_sync(t.team), 0) << where("shmem_team_sync", t, "-", 0);
      for (int j = 0; j < t.size; ++j) {
        const int got = *static_cast<volatile int*>(&slots[j]);
        EXPECT_EQ(got, 1000 * (r + 1) + j) << where("shmem_team_sync", t, "-", 0) << ": round " << r
                                           << ", slot of team PE " << j << " not published";
      }
    }
  }
  shmem_barrier_all();
}

// shmem_barrier_all completes the puts before it (no quiet); shmem_sync_all after a quiet.
TEST(CollBarrier, BarrierAllAndSyncAllPublishPuts) {
  SymArray<int> slots(2 * 2);
  ASSERT_TRUE(slots);
  std::memset(slots.get(), 0, 4 * sizeof(int));
  shmem_barrier_all();
  const int rounds = 3 * kRounds;
  for (int r = 0; r < rounds; ++r) {
    const bool use_sync_all = (r % 3 == 2);
    int* s = &slots[(use_sync_all ? 2 : 0) + r % 2];
    if (me() == r % npes()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    shmem_int_p(s, 100 * (r + 1) + me(), right());
    if (use_sync_all) {
      shmem_quiet();
      shmem_sync_all();
    } else {
      shmem_barrier_all();
    }
    EXPECT_EQ(*static_cast<volatile int*>(s), 100 * (r + 1) + left())
        << (use_sync_all ? "shmem_sync_all" : "shmem_barrier_all") << ": round " << r << " ("
        << algorithm_env() << ")";
  }
  shmem_barrier_all();
}

// Many syncs in a row on every team with nothing in between but the sync itself, then one
// check that the counters agree (catches a sync that miscounts after many rounds).
TEST(CollBarrier, ManySyncsInARow) {
  const auto& all = teams();
  SymArray<SyncArea> area(all.size());
  ASSERT_TRUE(area);
  std::memset(area.get(), 0, all.size() * sizeof(SyncArea));
  shmem_barrier_all();
  constexpr int kSyncs = 40;
  for (std::size_t ti = 0; ti < all.size(); ++ti) {
    const TeamCase& t = all[ti];
    if (!t.member) continue;
    for (int r = 0; r < kSyncs; ++r) EXPECT_EQ(shmem_team_sync(t.team), 0);
    shmem_longlong_atomic_fetch_add(&area[ti].counter, 1, t.world_pe(0));
    EXPECT_EQ(shmem_team_sync(t.team), 0);
    EXPECT_EQ(shmem_longlong_atomic_fetch(&area[ti].counter, t.world_pe(0)), t.size)
        << where("shmem_team_sync", t, "-", 0);
  }
  shmem_barrier_all();
}
