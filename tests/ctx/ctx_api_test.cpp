// Context management: shmem_ctx_create with every option combination, shmem_team_create_ctx,
// shmem_ctx_get_team, shmem_ctx_destroy (including SHMEM_CTX_INVALID and its implicit quiet),
// and many contexts created and destroyed in a row or alive at once.
#include "ctx_test_util.hpp"

#include <memory>
#include <vector>

using namespace shoal::test;
using namespace shoal::test::ctx;

namespace {

// Symmetric (bss) targets for the contexts' traffic: always reached through UCX from other
// PEs, since only the heap is mapped between PEs of a node.
constexpr int kManyContexts = 32;
long g_slots[kManyContexts];
long g_counter;

// One put, one get, one fetching and one non-fetching AMO through `c`, towards the right
// neighbour's heap slot and .bss slot; completed by shmem_ctx_quiet(c) and a barrier, then
// every PE checks what its left neighbour wrote and what it fetched itself. Collective.
void exercise(shmem_ctx_t c, const char* what, long salt) {
  SCOPED_TRACE(what);
  SymArray<long> heap(4);
  SHOAL_ASSERT_ALL_PES(heap);
  heap[0] = heap[1] = -1;
  heap[2] = 100 + me();  // read by the left neighbour
  heap[3] = 0;           // counter
  g_counter = 0;
  g_slots[0] = -1;
  shmem_barrier_all();

  const long v = value_of<long>(me(), static_cast<std::size_t>(salt));
  shmem_ctx_long_put(c, &heap[0], &v, 1, right());
  shmem_ctx_long_p(c, &g_slots[0], v + 1, right());
  const long got = shmem_ctx_long_g(c, &heap[2], right());
  const long old = shmem_ctx_long_atomic_fetch_add(c, &g_counter, 5, right());
  shmem_ctx_long_atomic_inc(c, &heap[3], right());
  shmem_ctx_quiet(c);
  shmem_barrier_all();

  const long from_left = value_of<long>(left(), static_cast<std::size_t>(salt));
  EXPECT_EQ(heap[0], from_left) << "put on the heap";
  EXPECT_EQ(g_slots[0], from_left + 1) << "p on .bss";
  EXPECT_EQ(got, 100 + right()) << "g from the heap";
  EXPECT_EQ(old, 0) << "fetch_add returned the previous value";
  EXPECT_EQ(g_counter, 5) << "fetch_add on .bss";
  EXPECT_EQ(heap[3], 1) << "inc on the heap";
  shmem_barrier_all();
}

}  // namespace

TEST(CtxApi, CreateAndDestroyWithEveryOption) {
  for (const OptionCase& oc : kOptionCases) {
    SCOPED_TRACE(std::string("options ") + oc.name);
    shmem_ctx_t c = SHMEM_CTX_INVALID;
    const int rc = shmem_ctx_create(oc.options, &c);
    SHOAL_ASSERT_ALL_PES(rc == 0 && c != SHMEM_CTX_INVALID);
    EXPECT_NE(c, SHMEM_CTX_DEFAULT) << "a created context must be a new handle";
    exercise(c, oc.name, oc.options + 1);
    shmem_ctx_destroy(c);
    shmem_barrier_all();
  }
}

// Eight contexts alive together: distinct handles, all of SHMEM_TEAM_WORLD.
TEST(CtxApi, CreatedContextsAreDistinctAndInWorld) {
  std::vector<std::unique_ptr<ScopedCtx>> ctxs;
  for (const OptionCase& oc : kOptionCases) ctxs.push_back(std::make_unique<ScopedCtx>(oc.options));
  bool all_ok = true;
  for (auto& c : ctxs) all_ok = all_ok && c->ok();
  SHOAL_ASSERT_ALL_PES(all_ok);
  for (std::size_t i = 0; i < ctxs.size(); ++i) {
    SCOPED_TRACE(std::string("options ") + kOptionCases[i].name);
    EXPECT_NE(ctxs[i]->get(), SHMEM_CTX_DEFAULT);
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(ctxs[i]->get(), ctxs[j]->get());
    shmem_team_t team = SHMEM_TEAM_INVALID;
    EXPECT_EQ(shmem_ctx_get_team(ctxs[i]->get(), &team), 0);
    EXPECT_EQ(team, SHMEM_TEAM_WORLD) << "a shmem_ctx_create context belongs to SHMEM_TEAM_WORLD";
  }
  ctxs.clear();
  shmem_barrier_all();
}

TEST(CtxApi, GetTeamOfDefaultAndInvalid) {
  shmem_team_t team = SHMEM_TEAM_INVALID;
  EXPECT_EQ(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &team), 0);
  EXPECT_EQ(team, SHMEM_TEAM_WORLD) << "SHMEM_CTX_DEFAULT belongs to SHMEM_TEAM_WORLD";
  team = SHMEM_TEAM_WORLD;  // must be overwritten
  EXPECT_NE(shmem_ctx_get_team(SHMEM_CTX_INVALID, &team), 0)
      << "SHMEM_CTX_INVALID must give a nonzero return";
  EXPECT_EQ(team, SHMEM_TEAM_INVALID) << "SHMEM_CTX_INVALID must give SHMEM_TEAM_INVALID";
  shmem_barrier_all();
}

TEST(CtxApi, DestroyInvalidIsNoop) {
  shmem_ctx_destroy(SHMEM_CTX_INVALID);
  shmem_ctx_destroy(SHMEM_CTX_INVALID);
  // The library is still fully usable, on the default context and on a new one.
  exercise(SHMEM_CTX_DEFAULT, "default context after destroying SHMEM_CTX_INVALID", 11);
  ScopedCtx c(0);
  SHOAL_ASSERT_ALL_PES(c.ok());
  exercise(c, "created context after destroying SHMEM_CTX_INVALID", 12);
}

TEST(CtxApi, TeamCreateCtxOnWorld) {
  for (int k : {0, 1, 5, 7}) {  // 0, SERIALIZED, PRIVATE|NOSTORE, all three
    const OptionCase& oc = kOptionCases[k];
    SCOPED_TRACE(std::string("options ") + oc.name);
    ScopedCtx c(SHMEM_TEAM_WORLD, oc.options);
    SHOAL_ASSERT_ALL_PES(c.ok());
    EXPECT_NE(c.get(), SHMEM_CTX_DEFAULT);
    shmem_team_t team = SHMEM_TEAM_INVALID;
    EXPECT_EQ(shmem_ctx_get_team(c, &team), 0);
    EXPECT_EQ(team, SHMEM_TEAM_WORLD) << "a context of SHMEM_TEAM_WORLD belongs to it";
    exercise(c, oc.name, 20 + oc.options);
  }
}

TEST(CtxApi, TeamCreateCtxOnInvalidTeamFails) {
  // OpenSHMEM 1.5/1.6: SHMEM_TEAM_INVALID creates no context and returns nonzero.
  shmem_ctx_t c = SHMEM_CTX_INVALID;
  const int rc = shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &c);
  EXPECT_NE(rc, 0);
  if (rc == 0 && c != SHMEM_CTX_INVALID) shmem_ctx_destroy(c);
  shmem_barrier_all();
}

// The default context is still complete and independent after created contexts come and go.
TEST(CtxApi, DefaultContextUnaffectedByCreatedOnes) {
  {
    ScopedCtx a(0), b(SHMEM_CTX_PRIVATE);
    SHOAL_ASSERT_ALL_PES(a.ok() && b.ok());
    exercise(a, "context a", 31);
    exercise(SHMEM_CTX_DEFAULT, "default while a and b exist", 32);
    exercise(b, "context b", 33);
  }
  exercise(SHMEM_CTX_DEFAULT, "default after a and b were destroyed", 34);
}

// Create, use, destroy 32 times in a row: every creation succeeds, the contexts' traffic is
// correct, and no PE keeps resources of the destroyed contexts: neither the PE that created
// them (its workers' event fds, sockets, shared memory) nor the PEs they were connected to
// (whatever their receiving side set up for the connection). Every PE both creates contexts
// and serves its neighbours' ones, so both sides are measured by counting this process's
// open file descriptors and memory mappings before and after the loop.
TEST(CtxApi, ManyContextsCreatedAndDestroyedInALoop) {
  // Warm up once, so lazily created transport resources are not counted as a leak.
  {
    ScopedCtx warm(0);
    SHOAL_ASSERT_ALL_PES(warm.ok());
    exercise(warm, "warm-up", 40);
  }
  shmem_barrier_all();
  const int fds_before = open_fd_count();
  const int maps_before = mapping_count();
  shmem_barrier_all();

  int failures = 0;
  for (int i = 0; i < kManyContexts; ++i) {
    const OptionCase& oc = kOptionCases[i % kOptionCaseCount];
    shmem_ctx_t c = SHMEM_CTX_INVALID;
    if (shmem_ctx_create(oc.options, &c) != 0 || c == SHMEM_CTX_INVALID) {
      ++failures;
      c = SHMEM_CTX_INVALID;
    }
    // Every PE keeps going in step; failed creations are reported once below.
    if (!all_pes(c != SHMEM_CTX_INVALID)) {
      if (c != SHMEM_CTX_INVALID) shmem_ctx_destroy(c);
      continue;
    }
    g_slots[i] = -1;
    shmem_barrier_all();
    shmem_ctx_long_p(c, &g_slots[i], value_of<long>(me(), static_cast<std::size_t>(i)), right());
    shmem_ctx_quiet(c);
    shmem_ctx_destroy(c);
    shmem_barrier_all();
    EXPECT_EQ(g_slots[i], value_of<long>(left(), static_cast<std::size_t>(i)))
        << "iteration " << i << " (options " << oc.name << ")";
  }
  EXPECT_EQ(failures, 0) << "shmem_ctx_create failed " << failures << " of " << kManyContexts
                         << " times";
  shmem_barrier_all();
  const int fds_after = open_fd_count();
  const int maps_after = mapping_count();
  // A resource kept per destroyed context would grow these by at least 32; allow some slack
  // for allocator arenas and lazily opened files.
  if (fds_before >= 0 && fds_after >= 0) {
    EXPECT_LT(fds_after - fds_before, kManyContexts / 2)
        << "open file descriptors grew from " << fds_before << " to " << fds_after << " over "
        << kManyContexts << " context create/destroy cycles";
  }
  if (maps_before >= 0 && maps_after >= 0) {
    EXPECT_LT(maps_after - maps_before, kManyContexts / 2)
        << "memory mappings grew from " << maps_before << " to " << maps_after << " over "
        << kManyContexts << " context create/destroy cycles on " << npes()
        << " PEs: resources of destroyed contexts (this PE's or its peers') are still mapped";
  }
  shmem_barrier_all();
}

// 32 contexts alive at once, each carrying its own put_nbi, each quieted on its own, destroyed
// in an order different from creation.
TEST(CtxApi, ManyContextsAliveAtOnce) {
  std::vector<shmem_ctx_t> ctxs(kManyContexts, SHMEM_CTX_INVALID);
  int created = 0;
  for (int i = 0; i < kManyContexts; ++i) {
    if (shmem_ctx_create(kOptionCases[i % kOptionCaseCount].options, &ctxs[i]) == 0 &&
        ctxs[i] != SHMEM_CTX_INVALID)
      ++created;
    else
      ctxs[i] = SHMEM_CTX_INVALID;
  }
  const bool ok = created == kManyContexts;
  EXPECT_TRUE(ok) << "only " << created << " of " << kManyContexts << " contexts were created";
  if (!all_pes(ok)) {
    for (auto c : ctxs)
      if (c != SHMEM_CTX_INVALID) shmem_ctx_destroy(c);
    FAIL() << "not every PE could create " << kManyContexts << " contexts";
  }
  for (int i = 0; i < kManyContexts; ++i) g_slots[i] = -1;
  shmem_barrier_all();
  std::vector<long> src(kManyContexts);
  for (int i = 0; i < kManyContexts; ++i) {
    src[i] = value_of<long>(me(), 100 + static_cast<std::size_t>(i));
    shmem_ctx_long_put_nbi(ctxs[i], &g_slots[i], &src[i], 1, right());
  }
  // Quiet odd contexts, destroy (implicit quiet) even ones, then destroy the odd ones.
  for (int i = 1; i < kManyContexts; i += 2) shmem_ctx_quiet(ctxs[i]);
  for (int i = kManyContexts - 2; i >= 0; i -= 2) shmem_ctx_destroy(ctxs[i]);
  for (int i = 1; i < kManyContexts; i += 2) shmem_ctx_destroy(ctxs[i]);
  shmem_barrier_all();
  EXPECT_TRUE(check_range("slots written through 32 contexts", g_slots, 0, kManyContexts,
                          [](std::size_t i) { return value_of<long>(left(), 100 + i); }));
  shmem_barrier_all();
}
