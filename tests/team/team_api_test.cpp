// The team management API of OpenSHMEM 1.6 on real PEs: shmem_team_my_pe / n_pes on the
// predefined teams and SHMEM_TEAM_INVALID, shmem_team_split_strided (positive, negative and
// zero strides, splits of splits, invalid triplets), shmem_team_split_2d (xrange dividing the
// parent or not, larger than it, one), shmem_team_translate_pe both ways and with non-members,
// shmem_team_get_config, shmem_team_create_ctx / shmem_ctx_get_team with RMA and AMOs through
// a team context (team-relative PE numbers), and shmem_team_ptr on split teams.
#include "host_pes.hpp"
#include "team_util.hpp"

#include <set>
#include <string>
#include <vector>

using namespace shoal::test;
using namespace shoal::test::team;

namespace {

struct Triplet {
  int start, stride, size;
};

std::string str(const Triplet& t) {
  return "(start " + std::to_string(t.start) + ", stride " + std::to_string(t.stride) + ", size " +
         std::to_string(t.size) + ")";
}

// Valid triplets over a parent of n PEs, negative and zero strides included.
std::vector<Triplet> valid_triplets(int n) {
  const std::vector<Triplet> all{
      {0, 1, n},                 // everyone
      {0, 2, (n + 1) / 2},       // evens
      {1, 2, n / 2},             // odds
      {n - 1, -1, n},            // everyone, reversed
      {n - 1, -2, (n + 1) / 2},  // every other PE from the top, descending
      {n - 2, -3, (n - 2) / 3 + 1},
      {0, 3, (n + 2) / 3},
      {n / 2, 1, n - n / 2},  // upper half
      {1, 1, n - 2},          // all but the ends
      {n - 1, 0, 1},          // stride 0 with size 1
      {0, 1, 1},
      {1, 1000, 1},  // a stride far past the parent, size 1
      {n - 1, -1000, 1},
  };
  std::vector<Triplet> out;
  for (const Triplet& t : all)
    if (valid_triplet(n, t.start, t.stride, t.size)) out.push_back(t);
  return out;
}

// Triplets the specification calls invalid: the split must fail on every PE of the parent.
std::vector<Triplet> invalid_triplets(int n) {
  return {
      {0, 1, n + 1},  // larger than the parent
      {0, 2, n},      // runs past the last PE (n >= 2), or larger than the parent (n = 1)
      {n, 1, 1},      // start past the last PE
      {-1, 1, 1},     // negative start
      {0, 1, 0},      // empty
      {0, 1, -3},     // negative size
      {0, -1, 2},     // descends below PE 0
      {n - 1, 1, 2},  // one past the end
  };
}

// Splits `parent` (world PEs `parent_members`) by `t` and checks the result on every PE of the
// parent. Returns the new handle (SHMEM_TEAM_INVALID on non-members). Collective over parent.
shmem_team_t split_and_check(shmem_team_t parent, const std::vector<int>& parent_members,
                             const Triplet& t, const shmem_team_config_t* config = nullptr,
                             long mask = 0) {
  shmem_team_t out = SHMEM_TEAM_INVALID;
  const int rc = shmem_team_split_strided(parent, t.start, t.stride, t.size, config, mask, &out);
  EXPECT_EQ(rc, 0) << "split " << str(t);
  EXPECT_TRUE(team_matches(out, triplet_members(parent_members, t.start, t.stride, t.size)))
      << "split " << str(t) << " of " << list_str(parent_members);
  return out;
}

long g_ident;    // symmetric: 1000 + world PE
long g_box[4];   // symmetric: mailboxes of the context tests
long g_counter;  // symmetric: AMO target

}  // namespace

TEST(TeamQueries, PredefinedTeams) {
  const int n = npes();
  EXPECT_EQ(shmem_team_my_pe(SHMEM_TEAM_WORLD), me());
  EXPECT_EQ(shmem_team_n_pes(SHMEM_TEAM_WORLD), n);
  EXPECT_TRUE(team_matches(SHMEM_TEAM_WORLD, world_list()));

  // With the shared mapping, SHARED holds exactly the PEs on this PE's host (all of WORLD in
  // a one-host run).
  const std::vector<int> my_host = pes_on_my_host();
  const int shared_n = shmem_team_n_pes(SHMEM_TEAM_SHARED);
  const int shared_me = shmem_team_my_pe(SHMEM_TEAM_SHARED);
  ASSERT_GE(shared_n, 1);
  ASSERT_GE(shared_me, 0);
  EXPECT_LT(shared_me, shared_n);
  EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_SHARED, shared_me, SHMEM_TEAM_WORLD), me());
  if (shared_memory_enabled()) {
    EXPECT_EQ(shared_n, static_cast<int>(my_host.size()));
    EXPECT_EQ(shared_me,
              static_cast<int>(std::find(my_host.begin(), my_host.end(), me()) - my_host.begin()));
    EXPECT_TRUE(team_matches(SHMEM_TEAM_SHARED, my_host));
  }
  for (int p = 0; p < shared_n; ++p) {
    const int w = shmem_team_translate_pe(SHMEM_TEAM_SHARED, p, SHMEM_TEAM_WORLD);
    EXPECT_GE(w, 0);
    EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, w, SHMEM_TEAM_SHARED), p);
  }

  shmem_team_config_t cfg{};
  EXPECT_EQ(shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &cfg), 0);
  EXPECT_EQ(shmem_team_get_config(SHMEM_TEAM_SHARED, SHMEM_TEAM_NUM_CONTEXTS, &cfg), 0);

  shmem_team_t team = SHMEM_TEAM_INVALID;
  EXPECT_EQ(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &team), 0);
  EXPECT_EQ(team, SHMEM_TEAM_WORLD);
  EXPECT_EQ(shmem_team_sync(SHMEM_TEAM_WORLD), 0);
  EXPECT_EQ(shmem_team_sync(SHMEM_TEAM_SHARED), 0);
  shmem_barrier_all();
}

TEST(TeamQueries, InvalidHandle) {
  EXPECT_EQ(shmem_team_my_pe(SHMEM_TEAM_INVALID), -1);
  EXPECT_EQ(shmem_team_n_pes(SHMEM_TEAM_INVALID), -1);
  EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD), -1);
  EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID), -1);
  EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_INVALID), -1);
  EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, -1, SHMEM_TEAM_WORLD), -1);
  EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, npes(), SHMEM_TEAM_WORLD), -1);

  shmem_team_config_t cfg{};
  cfg.num_contexts = 12345;
  EXPECT_NE(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &cfg), 0);
  EXPECT_EQ(shmem_team_ptr(SHMEM_TEAM_INVALID, &g_ident, 0), nullptr);

  shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
  EXPECT_NE(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &ctx), 0);
  EXPECT_EQ(ctx, SHMEM_CTX_INVALID);

  // A split of SHMEM_TEAM_INVALID creates nothing and fails (local: no PE waits for another).
  shmem_team_t t = SHMEM_TEAM_WORLD;
  EXPECT_NE(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, nullptr, 0, &t), 0);
  EXPECT_EQ(t, SHMEM_TEAM_INVALID);
  shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
  EXPECT_NE(shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, nullptr, 0, &x, nullptr, 0, &y), 0);
  EXPECT_EQ(x, SHMEM_TEAM_INVALID);
  EXPECT_EQ(y, SHMEM_TEAM_INVALID);

  // Destroying SHMEM_TEAM_INVALID does nothing.
  shmem_team_destroy(SHMEM_TEAM_INVALID);
  EXPECT_EQ(shmem_team_sync(SHMEM_TEAM_WORLD), 0);
  shmem_barrier_all();
}

TEST(TeamSplitStrided, ValidTriplets) {
  const std::vector<int> world = world_list();
  long salt = 1;
  for (const Triplet& t : valid_triplets(npes())) {
    SCOPED_TRACE("triplet " + str(t));
    shmem_team_t team = split_and_check(SHMEM_TEAM_WORLD, world, t);
    if (team != SHMEM_TEAM_INVALID) {
      EXPECT_EQ(ring_rounds(team, 4, salt), 0) << "shmem_team_sync on the new team";
      shmem_team_destroy(team);
    }
    ++salt;
    shmem_barrier_all();
  }
}

TEST(TeamSplitStrided, FromSharedTeam) {
  const std::vector<int> shared = world_members_of(SHMEM_TEAM_SHARED);
  const int n = static_cast<int>(shared.size());
  long salt = 40;
  for (const Triplet& t : {Triplet{0, 1, n}, Triplet{n - 1, -1, n}, Triplet{0, 2, (n + 1) / 2}}) {
    SCOPED_TRACE("triplet " + str(t));
    shmem_team_t team = split_and_check(SHMEM_TEAM_SHARED, shared, t);
    if (team != SHMEM_TEAM_INVALID) {
      EXPECT_EQ(ring_rounds(team, 3, salt++), 0);
      shmem_team_destroy(team);
    }
  }
  shmem_barrier_all();
}

// Negative strides number the new team in reverse order of the parent: team PE i is parent
// PE start + stride * i, start being the highest parent PE of the subset.
TEST(TeamSplitStrided, NegativeStrideOrder) {
  const int n = npes();
  shmem_team_t rev = SHMEM_TEAM_INVALID;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, nullptr, 0, &rev), 0);
  ASSERT_NE(rev, SHMEM_TEAM_INVALID);
  EXPECT_EQ(shmem_team_my_pe(rev), n - 1 - me());
  EXPECT_EQ(shmem_team_translate_pe(rev, 0, SHMEM_TEAM_WORLD), n - 1);
  EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, rev), n - 1);
  EXPECT_EQ(ring_rounds(rev, 4, 50), 0);
  shmem_team_destroy(rev);
  shmem_barrier_all();
}

TEST(TeamSplitStrided, SplitsOfSplits) {
  const int n = npes();
  const std::vector<int> world = world_list();
  // evens -> reversed evens -> every other of those (negative stride again) -> its last PE.
  shmem_team_t evens = split_and_check(SHMEM_TEAM_WORLD, world, {0, 2, (n + 1) / 2});
  const std::vector<int> evens_m = triplet_members(world, 0, 2, (n + 1) / 2);
  const int ne = static_cast<int>(evens_m.size());

  shmem_team_t rev = SHMEM_TEAM_INVALID, sub = SHMEM_TEAM_INVALID, last = SHMEM_TEAM_INVALID;
  const Triplet rev_t{ne - 1, -1, ne};
  const std::vector<int> rev_m = triplet_members(evens_m, rev_t.start, rev_t.stride, rev_t.size);
  const Triplet sub_t{ne - 1, -2, (ne + 1) / 2};
  const std::vector<int> sub_m = triplet_members(rev_m, sub_t.start, sub_t.stride, sub_t.size);
  const int ns = static_cast<int>(sub_m.size());
  const Triplet last_t{ns - 1, 1, 1};
  if (evens != SHMEM_TEAM_INVALID) {
    rev = split_and_check(evens, evens_m, rev_t);
    if (rev != SHMEM_TEAM_INVALID) sub = split_and_check(rev, rev_m, sub_t);
    if (sub != SHMEM_TEAM_INVALID) last = split_and_check(sub, sub_m, last_t);
  } else {
    // Outside the parent: a split of SHMEM_TEAM_INVALID fails locally.
    shmem_team_t none = SHMEM_TEAM_WORLD;
    EXPECT_NE(shmem_team_split_strided(evens, 0, 1, 1, nullptr, 0, &none), 0);
    EXPECT_EQ(none, SHMEM_TEAM_INVALID);
  }
  EXPECT_TRUE(team_matches(rev, rev_m));
  EXPECT_TRUE(team_matches(sub, sub_m));
  EXPECT_TRUE(team_matches(last, triplet_members(sub_m, last_t.start, 1, 1)));
  // Translations between nested teams, through the world numbers.
  if (sub != SHMEM_TEAM_INVALID) {
    for (int i = 0; i < ns; ++i) {
      EXPECT_EQ(shmem_team_translate_pe(sub, i, evens), index_in(evens_m, sub_m[i]));
      EXPECT_EQ(shmem_team_translate_pe(sub, i, rev), index_in(rev_m, sub_m[i]));
      EXPECT_EQ(shmem_team_translate_pe(evens, index_in(evens_m, sub_m[i]), sub), i);
    }
    for (int i = 0; i < ne; ++i)
      EXPECT_EQ(shmem_team_translate_pe(evens, i, sub), index_in(sub_m, evens_m[i]));
    EXPECT_EQ(ring_rounds(sub, 3, 60), 0);
  }
  if (rev != SHMEM_TEAM_INVALID) EXPECT_EQ(ring_rounds(rev, 3, 61), 0);
  // Children first, then parents; a parent's destruction must not disturb its children.
  if (evens != SHMEM_TEAM_INVALID) shmem_team_destroy(evens);
  if (rev != SHMEM_TEAM_INVALID) EXPECT_EQ(ring_rounds(rev, 2, 62), 0);
  if (last != SHMEM_TEAM_INVALID) shmem_team_destroy(last);
  if (sub != SHMEM_TEAM_INVALID) shmem_team_destroy(sub);
  if (rev != SHMEM_TEAM_INVALID) shmem_team_destroy(rev);
  shmem_barrier_all();
}

// Invalid triplets: nonzero on every PE of the parent and SHMEM_TEAM_INVALID everywhere.
TEST(TeamSplitStrided, InvalidTripletsFailEverywhere) {
  const int n = npes();
  for (const Triplet& t : invalid_triplets(n)) {
    if (valid_triplet(n, t.start, t.stride, t.size)) continue;  // not invalid at this PE count
    SCOPED_TRACE("triplet " + str(t));
    shmem_team_t team = SHMEM_TEAM_WORLD;
    const int rc =
        shmem_team_split_strided(SHMEM_TEAM_WORLD, t.start, t.stride, t.size, nullptr, 0, &team);
    EXPECT_NE(rc, 0);
    EXPECT_EQ(team, SHMEM_TEAM_INVALID);
    EXPECT_EQ(sum_over_pes(rc != 0 ? 1 : 0), n) << "the failure must be reported on every PE";
    if (team != SHMEM_TEAM_INVALID && team != SHMEM_TEAM_WORLD) shmem_team_destroy(team);
  }
  // Nothing leaked or left half-made: a valid split still works.
  shmem_team_t ok = split_and_check(SHMEM_TEAM_WORLD, world_list(), {0, 1, n});
  if (ok != SHMEM_TEAM_INVALID) {
    EXPECT_EQ(ring_rounds(ok, 2, 70), 0);
    shmem_team_destroy(ok);
  }
  shmem_barrier_all();
}

// shmem_team_split_2d: (x, y) = (pe mod xrange, pe div xrange); the x-team is the calling PE's
// row (same y, numbered by x), the y-team its column (same x, numbered by y).
TEST(TeamSplit2d, Shapes) {
  const int n = npes();
  std::set<int> xranges{1, 2, 3, n, n + 1, 2 * n + 3};
  if (n >= 4) xranges.insert(n / 2);
  if (n >= 3) xranges.insert(n - 1);
  long salt = 100;
  for (int xr : xranges) {
    SCOPED_TRACE("xrange " + std::to_string(xr));
    shmem_team_t xt = SHMEM_TEAM_INVALID, yt = SHMEM_TEAM_INVALID;
    const int rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, xr, nullptr, 0, &xt, nullptr, 0, &yt);
    EXPECT_EQ(rc, 0);
    const int mx = me() % xr, my = me() / xr;
    std::vector<int> row, col;
    for (int p = my * xr; p < std::min(n, (my + 1) * xr); ++p) row.push_back(p);
    for (int p = mx; p < n; p += xr) col.push_back(p);
    EXPECT_TRUE(team_matches(xt, row)) << "x-axis team";
    EXPECT_TRUE(team_matches(yt, col)) << "y-axis team";
    EXPECT_EQ(shmem_team_my_pe(xt), mx);
    EXPECT_EQ(shmem_team_my_pe(yt), my);
    // Row and column share only the calling PE.
    for (int i = 0; i < shmem_team_n_pes(xt); ++i)
      EXPECT_EQ(shmem_team_translate_pe(xt, i, yt), i == mx ? my : -1) << "row PE " << i;
    if (xt != SHMEM_TEAM_INVALID) EXPECT_EQ(ring_rounds(xt, 3, salt++), 0) << "row sync";
    if (yt != SHMEM_TEAM_INVALID) EXPECT_EQ(ring_rounds(yt, 3, salt++), 0) << "column sync";
    if (xt != SHMEM_TEAM_INVALID) shmem_team_destroy(xt);
    if (yt != SHMEM_TEAM_INVALID) shmem_team_destroy(yt);
    shmem_barrier_all();
  }
}

// split_2d of a split (reversed world): coordinates follow the parent's numbering; the two
// axes carry their own configuration.
TEST(TeamSplit2d, OfSplitTeamWithConfigs) {
  const int n = npes();
  shmem_team_t rev = SHMEM_TEAM_INVALID;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, nullptr, 0, &rev), 0);
  const std::vector<int> rev_m = triplet_members(world_list(), n - 1, -1, n);
  const int xr = n >= 4 ? 3 : 2;
  shmem_team_config_t xc{}, yc{};
  xc.num_contexts = 1;
  yc.num_contexts = 2;
  shmem_team_t xt = SHMEM_TEAM_INVALID, yt = SHMEM_TEAM_INVALID;
  EXPECT_EQ(shmem_team_split_2d(rev, xr, &xc, SHMEM_TEAM_NUM_CONTEXTS, &xt, &yc,
                                SHMEM_TEAM_NUM_CONTEXTS, &yt),
            0);
  const int pe = shmem_team_my_pe(rev);
  const int mx = pe % xr, my = pe / xr;
  std::vector<int> row, col;
  for (int p = my * xr; p < std::min(n, (my + 1) * xr); ++p) row.push_back(rev_m[p]);
  for (int p = mx; p < n; p += xr) col.push_back(rev_m[p]);
  EXPECT_TRUE(team_matches(xt, row));
  EXPECT_TRUE(team_matches(yt, col));
  shmem_team_config_t got{};
  got.num_contexts = -1;
  EXPECT_EQ(shmem_team_get_config(xt, SHMEM_TEAM_NUM_CONTEXTS, &got), 0);
  EXPECT_EQ(got.num_contexts, 1);
  got.num_contexts = -1;
  EXPECT_EQ(shmem_team_get_config(yt, SHMEM_TEAM_NUM_CONTEXTS, &got), 0);
  EXPECT_EQ(got.num_contexts, 2);
  EXPECT_EQ(ring_rounds(xt, 2, 150), 0);
  EXPECT_EQ(ring_rounds(yt, 2, 151), 0);
  shmem_team_destroy(xt);
  shmem_team_destroy(yt);
  shmem_team_destroy(rev);
  shmem_barrier_all();
}

TEST(TeamConfig, GetConfigReturnsWhatTheSplitAskedFor) {
  const int n = npes();
  shmem_team_config_t cfg{};
  cfg.num_contexts = 4;
  shmem_team_t with =
      split_and_check(SHMEM_TEAM_WORLD, world_list(), {0, 1, n}, &cfg, SHMEM_TEAM_NUM_CONTEXTS);
  // A mask of 0 ignores the structure: the default (0 contexts) applies.
  cfg.num_contexts = 9;
  shmem_team_t without = split_and_check(SHMEM_TEAM_WORLD, world_list(), {n - 1, -1, n}, &cfg, 0);
  shmem_team_t null_cfg = split_and_check(SHMEM_TEAM_WORLD, world_list(), {0, 1, n}, nullptr, 0);

  shmem_team_config_t got{};
  got.num_contexts = -1;
  EXPECT_EQ(shmem_team_get_config(with, SHMEM_TEAM_NUM_CONTEXTS, &got), 0);
  EXPECT_EQ(got.num_contexts, 4);
  got.num_contexts = -1;
  EXPECT_EQ(shmem_team_get_config(without, SHMEM_TEAM_NUM_CONTEXTS, &got), 0);
  EXPECT_EQ(got.num_contexts, 0) << "default num_contexts";
  got.num_contexts = -1;
  EXPECT_EQ(shmem_team_get_config(null_cfg, SHMEM_TEAM_NUM_CONTEXTS, &got), 0);
  EXPECT_EQ(got.num_contexts, 0) << "default num_contexts";
  shmem_team_destroy(with);
  shmem_team_destroy(without);
  shmem_team_destroy(null_cfg);
  shmem_barrier_all();
}

// A context created on a team numbers PEs relative to the team (RMA and AMOs); its team is
// the one it was created on. The team is the world reversed, or the odd PEs reversed, so team
// and world numbers differ.
TEST(TeamCtx, TeamRelativeNumbering) {
  const int n = npes();
  const std::vector<int> world = world_list();
  const Triplet shapes[] = {{n - 1, -1, n}, {n - 1 - (n % 2 == 0 ? 0 : 1), -2, n / 2}};
  long salt = 200;
  for (const Triplet& shape : shapes) {
    if (!valid_triplet(n, shape.start, shape.stride, shape.size)) continue;
    for (long options : {0L, SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED}) {
      SCOPED_TRACE("team " + str(shape) + " ctx options " + std::to_string(options));
      g_ident = 1000 + me();
      g_counter = 0;
      g_box[0] = g_box[1] = -1;
      shmem_barrier_all();
      shmem_team_config_t cfg{};
      cfg.num_contexts = 2;
      shmem_team_t t =
          split_and_check(SHMEM_TEAM_WORLD, world, shape, &cfg, SHMEM_TEAM_NUM_CONTEXTS);
      if (t != SHMEM_TEAM_INVALID) {
        const int tn = shmem_team_n_pes(t), tk = shmem_team_my_pe(t);
        const int next = (tk + 1) % tn, prev = (tk + tn - 1) % tn;
        shmem_ctx_t ctx = SHMEM_CTX_INVALID;
        const int rc = shmem_team_create_ctx(t, options, &ctx);
        EXPECT_EQ(rc, 0);
        if (rc == 0) {
          shmem_team_t back = SHMEM_TEAM_INVALID;
          EXPECT_EQ(shmem_ctx_get_team(ctx, &back), 0);
          EXPECT_EQ(back, t);
          // put to team PE `next`, get from it, add at team PE 0.
          shmem_ctx_long_p(ctx, &g_box[0], salt * 100 + tk, next);
          const long fetched = shmem_ctx_long_g(ctx, &g_ident, next);
          EXPECT_EQ(fetched, 1000 + shmem_team_translate_pe(t, next, SHMEM_TEAM_WORLD))
              << "get from team PE " << next;
          long got_old = shmem_ctx_long_atomic_fetch_add(ctx, &g_counter, 1, 0);
          EXPECT_GE(got_old, 0);
          EXPECT_LT(got_old, tn);
          long buf[3] = {salt, tk, 7};
          shmem_ctx_long_put(ctx, &g_box[1], &buf[1], 1, next);
          shmem_ctx_quiet(ctx);
          EXPECT_EQ(shmem_team_sync(t), 0);
          EXPECT_EQ(*static_cast<volatile long*>(&g_box[0]), salt * 100 + prev)
              << "mailbox written through the team context by team PE " << prev;
          EXPECT_EQ(*static_cast<volatile long*>(&g_box[1]), prev);
          if (tk == 0) EXPECT_EQ(*static_cast<volatile long*>(&g_counter), tn);
          EXPECT_EQ(shmem_team_sync(t), 0);
          shmem_ctx_destroy(ctx);
        }
        shmem_team_destroy(t);
      }
      shmem_barrier_all();
      if (t == SHMEM_TEAM_INVALID) {
        EXPECT_EQ(g_box[0], -1) << "PE outside the team written";
        EXPECT_EQ(g_counter, 0);
      }
      ++salt;
    }
  }
}

// shmem_team_destroy destroys the shareable contexts of the team (1.5+), so a team may go with
// a live shareable context; done repeatedly, nothing must pile up.
TEST(TeamCtx, DestroyTeamWithLiveShareableContext) {
  const int n = npes();
  for (int round = 0; round < 6; ++round) {
    shmem_team_config_t cfg{};
    cfg.num_contexts = 1;
    shmem_team_t t = SHMEM_TEAM_INVALID;
    ASSERT_EQ(
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &t), 0);
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    ASSERT_EQ(shmem_team_create_ctx(t, 0, &ctx), 0);
    g_box[2] = -1;
    EXPECT_EQ(shmem_team_sync(t), 0);
    shmem_ctx_long_p(ctx, &g_box[2], round, (me() + 1) % n);
    shmem_ctx_quiet(ctx);
    EXPECT_EQ(shmem_team_sync(t), 0);
    EXPECT_EQ(*static_cast<volatile long*>(&g_box[2]), round);
    shmem_team_destroy(t);  // takes ctx with it
  }
  shmem_barrier_all();
}

// shmem_team_ptr on split teams: the PE argument is a team PE number.
TEST(TeamPtr, SplitTeams) {
  const int n = npes();
  long* heap = static_cast<long*>(shmem_malloc(sizeof(long)));
  *heap = 5000 + me();
  g_ident = 1000 + me();
  shmem_barrier_all();
  for (const Triplet& shape :
       {Triplet{n - 1, -1, n}, Triplet{1, 2, n / 2}, Triplet{0, 3, (n + 2) / 3}}) {
    if (!valid_triplet(n, shape.start, shape.stride, shape.size)) continue;
    SCOPED_TRACE("team " + str(shape));
    shmem_team_t t = split_and_check(SHMEM_TEAM_WORLD, world_list(), shape);
    if (t != SHMEM_TEAM_INVALID) {
      const int tn = shmem_team_n_pes(t);
      for (int i = 0; i < tn; ++i) {
        const int w = shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD);
        void* p = shmem_team_ptr(t, heap, i);
        EXPECT_EQ(p, shmem_ptr(heap, w)) << "team PE " << i << " (world " << w << ")";
        if (p != nullptr) EXPECT_EQ(*static_cast<long*>(p), 5000 + w);
        if (w == me()) {
          EXPECT_EQ(p, heap);
          EXPECT_EQ(shmem_team_ptr(t, &g_ident, i), &g_ident);
        }
      }
      EXPECT_EQ(shmem_team_ptr(t, heap, tn), nullptr);
      EXPECT_EQ(shmem_team_ptr(t, heap, -1), nullptr);
      shmem_team_destroy(t);
    }
    shmem_barrier_all();
  }
  shmem_free(heap);
}
