// shmem_TYPENAME_broadcast and shmem_broadcastmem on every team of coll_test_util.hpp, run once
// per SMA_BCAST_ALGORITHM. Team-based broadcast updates dest on every PE, the root included
// (OpenSHMEM 1.5+); bytes past nelems stay untouched and source is not modified. Non-root PEs
// hold different data in their source, so reading the wrong PE's source is caught.
#include "coll_ops.hpp"

using namespace shoal::test;
using namespace shoal::test::coll;

namespace {

constexpr std::size_t kGuardBytes = 64;

// The roots a case runs with on a team of n PEs: 0, the last and the middle one, without repeats.
std::vector<int> roots_for(int n) {
  std::vector<int> r{0};
  if (n - 1 != 0) r.push_back(n - 1);
  if (n / 2 != 0 && n / 2 != n - 1) r.push_back(n / 2);
  return r;
}

// One broadcast of n elements of A::type from team PE `root`, checked on every member.
// dest and source are symmetric buffers of at least n elements + kGuardBytes.
template <class A>
void broadcast_case(const TeamCase& t, std::size_t n, int root, unsigned salt, void* dest_buf,
                    void* source_buf) {
  using T = typename A::type;
  T* dest = static_cast<T*>(dest_buf);
  T* source = static_cast<T*>(source_buf);
  const std::size_t bytes = n * sizeof(T);
  const int self = t.world_pe(t.my);
  const int root_pe = t.world_pe(root);
  for (std::size_t i = 0; i < n; ++i) source[i] = data_value<T>(self, i, salt);
  fill_guard(dest, 0, bytes + kGuardBytes);

  const int rc = A::broadcast(t.team, dest, source, n, root);

  const std::string w = where("broadcast", t, A::name, n) + " root " + std::to_string(root);
  EXPECT_EQ(rc, 0) << w;
  EXPECT_TRUE(check_elems(w + ": dest", dest, 0, n,
                          [&](std::size_t i) { return data_value<T>(root_pe, i, salt); }));
  EXPECT_TRUE(check_guard(w + ": past dest", dest, bytes, bytes + kGuardBytes));
  EXPECT_TRUE(check_elems(w + ": source changed", source, 0, n,
                          [&](std::size_t i) { return data_value<T>(self, i, salt); }));
}

}  // namespace

// Every type of the RMA table and the mem form, on the representative teams, an odd count,
// first and last root.
TEST(CollBroadcast, EveryType) {
  constexpr std::size_t n = 13;
  SymBuffer dest(n * 16 + kGuardBytes), source(n * 16 + kGuardBytes);
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : representative_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(1, *t);
    for (int root : {0, t->size - 1}) {
#define SHOAL_RUN(TN, T)                    \
  if constexpr (kTested<Rma_##TN, RmaRows>) \
    broadcast_case<Rma_##TN>(*t, n, root, salt++, dest.get(), source.get());
      SMA_RMA_TYPES(SHOAL_RUN)
#undef SHOAL_RUN
      broadcast_case<Rma_mem>(*t, n, root, salt++, dest.get(), source.get());
    }
  }
  shmem_barrier_all();
}

// Every team, sizes 0, 1, odd and a few KiB, every root position.
TEST(CollBroadcast, EveryTeamSizeAndRoot) {
  const std::size_t counts[] = {0, 1, 7, 1001};
  SymBuffer dest(1001 * 8 + kGuardBytes), source(1001 * 8 + kGuardBytes);
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : all_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(100, *t);
    for (int root : roots_for(t->size))
      for (std::size_t n : counts) {
        broadcast_case<Rma_int64>(*t, n, root, salt++, dest.get(), source.get());
        broadcast_case<Rma_mem>(*t, n + (n > 1 ? 2 : 0), root, salt++, dest.get(), source.get());
      }
  }
  shmem_barrier_all();
}

// Above the scratch: 300,001 bytes and 37,501 doubles, on the world and split teams.
TEST(CollBroadcast, LargerThanScratch) {
  const std::size_t nd = odd_count_for<double>(kLargeBytes);
  const std::size_t cap = std::max(nd * sizeof(double), kLargeBytes + 1) + kGuardBytes;
  SymBuffer dest(cap), source(cap);
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : large_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(500, *t);
    broadcast_case<Rma_mem>(*t, kLargeBytes + 1, t->size / 2, salt++, dest.get(), source.get());
    broadcast_case<Rma_double>(*t, nd, t->size - 1, salt++, dest.get(), source.get());
  }
  shmem_barrier_all();
}

// 50 broadcasts in a row into one dest, the root moving and the data changing each time, no
// barrier between them; then a chain where the dest of one broadcast is the source of the next.
TEST(CollBroadcast, BackToBack) {
  constexpr std::size_t n = 61;
  SymBuffer a(n * sizeof(std::uint32_t) + kGuardBytes), b(n * sizeof(std::uint32_t) + kGuardBytes);
  ASSERT_TRUE(a && b);
  std::vector<const TeamCase*> ts{&teams().front()};
  if (const TeamCase* s = large_teams().back(); s != ts.front()) ts.push_back(s);
  for (const TeamCase* t : ts) {
    if (!t->member) continue;
    for (int k = 0; k < 50; ++k)
      broadcast_case<Rma_uint32>(*t, n, k % t->size, 1000u + static_cast<unsigned>(k), a.get(),
                                 b.get());

    // Chain: root r broadcasts its `in`; every PE's `out` then holds the same data and becomes
    // the source of the next broadcast (root r + 1), with nothing in between.
    auto* x = a.as<std::uint32_t>();
    auto* y = b.as<std::uint32_t>();
    const int root0_pe = t->world_pe(0);
    for (std::size_t i = 0; i < n; ++i) x[i] = data_value<std::uint32_t>(t->world_pe(t->my), i, 77);
    for (int k = 0; k < 20; ++k) {
      std::uint32_t* in = (k % 2 == 0) ? x : y;
      std::uint32_t* out = (k % 2 == 0) ? y : x;
      const int root = k % t->size;
      const int rc = shmem_uint32_broadcast(t->team, out, in, n, root);
      EXPECT_EQ(rc, 0);
      // Round 0 spreads team PE 0's data; every later round rebroadcasts it.
      EXPECT_TRUE(check_elems(
          where("broadcast chain", *t, "uint32", n) + " step " + std::to_string(k), out, 0, n,
          [&](std::size_t i) { return data_value<std::uint32_t>(root0_pe, i, 77); }));
    }
  }
  shmem_barrier_all();
}

// Sizes on both sides of the largest broadcast that cache_line sends across nodes in one message
// per reader (512 KiB; binomial above), back to back with no barrier, the root moving: a reader's
// receive buffer of a line grows from 64 KiB, and consecutive calls switch algorithms.
TEST(CollBroadcast, AroundTheNetworkMessageLimit) {
  const std::size_t sizes[] = {(512 << 10) - 1, (512 << 10) + 1, 70001, 512 << 10, 8,
                               (512 << 10) + 1};
  constexpr std::size_t kMax = (512 << 10) + 1;
  SymBuffer dest(kMax + kGuardBytes), source(kMax + kGuardBytes);
  ASSERT_TRUE(dest && source);
  const TeamCase& world = teams().front();
  unsigned salt = team_salt(900, world);
  int k = 0;
  for (std::size_t n : sizes)
    broadcast_case<Rma_mem>(world, n, k++ % world.size, salt++, dest.get(), source.get());
  shmem_barrier_all();
}

// Sizes on both sides of the on-node algorithms' limits (56 B in one cache line, a broadcast
// entry of 2 KiB with 8 PEs, 4 KiB with 4, 8 KiB with 2, larger ones copied straight from the
// root's source, 64 KiB+), back to back with no barrier, the root moving each time, on every
// team: consecutive calls switch between algorithms on the same buffers. Then 40 broadcasts of
// one element and 40 of 1000 bytes from one root in a row (the ring of lines and entries wraps
// several times, so the root depends on its readers' acknowledgements), and 40 from every root.
TEST(CollBroadcast, LineSizesBackToBack) {
  const std::size_t sizes[] = {1,    8,    48,   55, 56,   57,   63,   64, 65,    200, 2047,
                               2048, 2049, 4095, 8,  4096, 4097, 8192, 56, 70001, 1};
  SymBuffer dest(70001 + kGuardBytes), source(70001 + kGuardBytes);
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : all_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(700, *t);
    int k = 0;
    for (std::size_t n : sizes)
      broadcast_case<Rma_mem>(*t, n, k++ % t->size, salt++, dest.get(), source.get());
    for (int i = 0; i < 40; ++i)
      broadcast_case<Rma_int64>(*t, 1, 0, salt++, dest.get(), source.get());
    for (int i = 0; i < 40; ++i)
      broadcast_case<Rma_mem>(*t, 1000, 0, salt++, dest.get(), source.get());
    for (int i = 0; i < 40; ++i)
      broadcast_case<Rma_int64>(*t, 7 + 60 * (i % 2), i % t->size, salt++, dest.get(),
                                source.get());
  }
  shmem_barrier_all();
}

// Teams made and destroyed in turn, which take the same slot of the collective area, with
// memberships that change so that the PEs' histories of that slot differ (a PE left out of a
// team misses its generation). Each team runs 20 one-element broadcasts from one root -- the
// cache-line ring wraps, so the root depends on its readers' acknowledgements, which across
// nodes name the team's generation on the slot -- and is destroyed right after the last one,
// with no barrier. Members that disagreed on the generation would drop each other's
// acknowledgements, and the root would wait for them forever.
TEST(CollBroadcast, TeamsRecycleTheirSlot) {
  const int n = shmem_n_pes(), me = shmem_my_pe();
  SymBuffer dest(sizeof(long)), source(sizeof(long));
  ASSERT_TRUE(dest && source);
  struct Shape {
    int start, stride, size;
  };
  const Shape shapes[] = {{0, 1, n},     {1, 1, n - 1}, {0, 2, (n + 1) / 2}, {0, 1, n - 1},
                          {1, 2, n / 2}, {0, 1, n},     {n - 2, 1, 2},       {0, n - 1, 2}};
  long* d = dest.as<long>();
  long* s = source.as<long>();
  int round = 0;
  for (int pass = 0; pass < 3; ++pass)
    for (const Shape& shape : shapes) {
      ++round;
      if (shape.size < 2 || shape.size > n || shape.start < 0) continue;  // the same everywhere
      shmem_team_t team = SHMEM_TEAM_INVALID;
      const int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, shape.start, shape.stride,
                                              shape.size, nullptr, 0, &team);
      EXPECT_EQ(rc, 0) << "round " << round;
      if (team == SHMEM_TEAM_INVALID) continue;  // not a member
      const int root = round % shmem_team_n_pes(team);
      const int root_pe = shmem_team_translate_pe(team, root, SHMEM_TEAM_WORLD);
      for (long i = 0; i < 20; ++i) {
        *s = me * 1000000L + round * 100L + i;
        *d = -1;
        EXPECT_EQ(shmem_long_broadcast(team, d, s, 1, root), 0);
        EXPECT_EQ(*d, root_pe * 1000000L + round * 100L + i)
            << "round " << round << ", broadcast " << i << " from team PE " << root;
      }
      shmem_team_destroy(team);
    }
  shmem_barrier_all();
}

// The deprecated active-set form (shmem_broadcast64 over every PE) leaves the root's dest as it
// was, where the team form writes it: every algorithm skips only that last copy. Small, odd and
// above-the-scratch sizes from every root position; the other PEs get the root's data.
TEST(CollBroadcast, ActiveSetLeavesTheRootsDest) {
  static long psync[SHMEM_BCAST_SYNC_SIZE];
  for (long& word : psync) word = SHMEM_SYNC_VALUE;
  const int n = shmem_n_pes(), me = shmem_my_pe();
  const std::size_t counts[] = {1, 7, 1001, kLargeBytes / 8 + 1};
  constexpr std::size_t kMax = kLargeBytes / 8 + 1;
  SymBuffer dest(kMax * 8 + kGuardBytes), source(kMax * 8);
  ASSERT_TRUE(dest && source);
  auto* d = dest.as<std::uint64_t>();
  auto* s = source.as<std::uint64_t>();
  unsigned salt = 1300;
  shmem_barrier_all();  // pSync is initialized everywhere
  for (int root : roots_for(n))
    for (std::size_t count : counts) {
      ++salt;
      for (std::size_t i = 0; i < count; ++i) s[i] = data_value<std::uint64_t>(me, i, salt);
      fill_guard(d, 0, count * 8 + kGuardBytes);
      shmem_broadcast64(d, s, count, root, 0, 0, n, psync);
      const std::string w = "shmem_broadcast64 of " + std::to_string(count) + " words from PE " +
                            std::to_string(root) + " on PE " + std::to_string(me);
      if (me == root)
        EXPECT_TRUE(check_guard(w + ": the root's dest", d, 0, count * 8 + kGuardBytes));
      else {
        EXPECT_TRUE(check_elems(w + ": dest", d, 0, count, [&](std::size_t i) {
          return data_value<std::uint64_t>(root, i, salt);
        }));
        EXPECT_TRUE(check_guard(w + ": past dest", d, count * 8, count * 8 + kGuardBytes));
      }
      shmem_barrier_all();  // before pSync and the buffers are used again
    }
}
