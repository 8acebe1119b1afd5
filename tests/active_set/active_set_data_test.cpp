// Active-set collectives that move data or synchronize: shmem_barrier, shmem_sync,
// shmem_broadcast{32,64}, shmem_collect{32,64}, shmem_fcollect{32,64}, shmem_alltoall{32,64}
// and shmem_alltoalls{32,64}, over every scenario of active_set_util.hpp (whole world, strided
// sets, disjoint sets at the same time, sets of one PE, PEs left out), against a serial
// reference computed from value_of(world PE, index).
//
// Every data collective uses the same pSync (g_psync); consecutive calls are separated by a
// shmem_barrier over the set on g_barrier_psync, which the specification requires before a
// pSync is reused (and which also makes every dest ready for the next call). The barrier and
// sync tests reuse one pSync back to back, which the specification allows for them.
#include "active_set_util.hpp"

#include <cstdint>
#include <functional>
#include <vector>

using namespace shoal::test;
using namespace shoal::test::aset;

namespace {

using BcastFn = void (*)(void*, const void*, size_t, int, int, int, int, long*);
using CollectFn = void (*)(void*, const void*, size_t, int, int, int, long*);
using AlltoallsFn = void (*)(void*, const void*, ptrdiff_t, ptrdiff_t, size_t, int, int, int,
                             long*);

template <class W>
struct Routines;
template <>
struct Routines<std::uint32_t> {
  static constexpr const char* bits = "32";
  static constexpr BcastFn broadcast = shmem_broadcast32;
  static constexpr CollectFn collect = shmem_collect32;
  static constexpr CollectFn fcollect = shmem_fcollect32;
  static constexpr CollectFn alltoall = shmem_alltoall32;
  static constexpr AlltoallsFn alltoalls = shmem_alltoalls32;
};
template <>
struct Routines<std::uint64_t> {
  static constexpr const char* bits = "64";
  static constexpr BcastFn broadcast = shmem_broadcast64;
  static constexpr CollectFn collect = shmem_collect64;
  static constexpr CollectFn fcollect = shmem_fcollect64;
  static constexpr CollectFn alltoall = shmem_alltoall64;
  static constexpr AlltoallsFn alltoalls = shmem_alltoalls64;
};

// Large transfers (more than the library's 128 KiB collective scratch) and the full list of
// sizes only on the whole world, to keep 8-PE runs short.
bool big_ok(const Scenario& sc) { return sc.name == "world"; }

// The per-test buffers, symmetric. src and dst hold `cap` words.
template <class W>
struct Buffers {
  explicit Buffers(std::size_t cap) : cap(cap), src(cap), dst(cap) {}
  std::size_t cap;
  SymArray<W> src, dst;

  void fill_src() {
    for (std::size_t i = 0; i < cap; ++i) src[i] = value_of<W>(me(), i);
  }
  void clear_dst() {
    for (std::size_t i = 0; i < cap; ++i) dst[i] = sentinel_of<W>(i);
  }
  ::testing::AssertionResult dst_untouched(const char* what) const {
    return check_range(what, dst.get(), 0, cap, [](std::size_t i) { return sentinel_of<W>(i); });
  }
};

// Runs one scenario: every member runs `cases` calls, each preceded by refilling its buffers
// and a shmem_barrier over its set (pSync reuse and dest readiness), and each followed by
// the pSync check and `check(case)`. PEs outside every set call nothing and check at the end
// that their dst was never written. Collective over all PEs.
template <class W>
void run_scenario(const Scenario& sc, Buffers<W>& b, int cases,
                  const std::function<void(const ActiveSet&, int k, int c)>& call,
                  const std::function<void(const ActiveSet&, int k, int c)>& check) {
  SCOPED_TRACE("scenario " + sc.name);
  b.fill_src();
  b.clear_dst();
  shmem_barrier_all();
  const ActiveSet* s = sc.set_of(me());
  if (s != nullptr) {
    const int k = s->index_of(me());
    SCOPED_TRACE("active set " + s->str() + ", index " + std::to_string(k));
    for (int c = 0; c < cases; ++c) {
      b.fill_src();
      b.clear_dst();
      barrier_on(*s);
      call(*s, k, c);
      EXPECT_TRUE(psync_restored("pSync on return", g_psync, kSyncSize)) << "case " << c;
      check(*s, k, c);
    }
    EXPECT_TRUE(psync_restored("barrier pSync", g_barrier_psync, SHMEM_BARRIER_SYNC_SIZE));
  }
  shmem_barrier_all();
  if (s == nullptr) EXPECT_TRUE(b.dst_untouched("dst of a PE outside every active set"));
  EXPECT_TRUE(psync_restored("pSync after the scenario", g_psync, kSyncSize));
}

long g_slots[2];  // symmetric: the barrier / sync tests' mailboxes

// Each round every member puts a round stamp into the next member's mailbox (cyclically), then
// synchronizes the set; afterwards its own mailbox must hold its predecessor's stamp. Mailboxes
// alternate by round so a predecessor already in the next round cannot overwrite the one being
// read. `sync` must make the puts visible (shmem_barrier does; shmem_sync after shmem_quiet).
void ring_rounds(const std::function<void(const ActiveSet&)>& sync, int rounds) {
  init_psyncs();
  for (const Scenario& sc : scenarios(npes())) {
    SCOPED_TRACE("scenario " + sc.name);
    g_slots[0] = g_slots[1] = -1;
    shmem_barrier_all();
    const ActiveSet* s = sc.set_of(me());
    if (s != nullptr) {
      const int k = s->index_of(me());
      const int next = s->pe((k + 1) % s->size);
      const int prev = (k + s->size - 1) % s->size;
      int wrong = 0, first_round = -1;
      long first_got = 0;
      for (int r = 0; r < rounds; ++r) {
        shmem_long_p(&g_slots[r % 2], 1000L * r + k, next);
        sync(*s);
        const long got = *static_cast<volatile long*>(&g_slots[r % 2]);
        if (got != 1000L * r + prev && wrong++ == 0) {
          first_round = r;
          first_got = got;
        }
        if (!psync_restored("pSync", g_psync, kSyncSize)) ++wrong;
      }
      EXPECT_EQ(wrong, 0) << "set " << s->str() << ": first wrong round " << first_round << " read "
                          << first_got << " (or pSync not restored)";
    }
    shmem_barrier_all();
    if (s == nullptr) EXPECT_EQ(g_slots[0] + g_slots[1], -2) << "PE outside the sets written";
  }
}

}  // namespace

TEST(ActiveSetBarrier, CompletesPutsWithOnePsyncBackToBack) {
  ring_rounds([](const ActiveSet& s) { shmem_barrier(s.start, s.log_stride, s.size, g_psync); },
              24);
}

TEST(ActiveSetSync, SynchronizesWithOnePsyncBackToBack) {
  ring_rounds(
      [](const ActiveSet& s) {
        shmem_quiet();
        shmem_sync(s.start, s.log_stride, s.size, g_psync);
      },
      24);
}

// Barriers of different shapes alternate on the same pSync once separated by a barrier over
// everyone (the specification's reuse rule when the set changes).
TEST(ActiveSetBarrier, ManySetsOnePsync) {
  init_psyncs();
  const auto all = scenarios(npes());
  for (int round = 0; round < 3; ++round) {
    for (const Scenario& sc : all) {
      if (const ActiveSet* s = sc.set_of(me())) {
        for (int i = 0; i < 4; ++i) shmem_barrier(s->start, s->log_stride, s->size, g_psync);
        EXPECT_TRUE(psync_restored("pSync", g_psync, kSyncSize)) << sc.name;
      }
      shmem_barrier_all();
    }
  }
}

template <class W>
class ActiveSetData : public ::testing::Test {};
using Words = ::testing::Types<std::uint32_t, std::uint64_t>;
class WordNames {
 public:
  template <class W>
  static std::string GetName(int) {
    return sizeof(W) == 4 ? "bits32" : "bits64";
  }
};
TYPED_TEST_SUITE(ActiveSetData, Words, WordNames);

TYPED_TEST(ActiveSetData, Broadcast) {
  using W = TypeParam;
  const std::size_t big = (300 * 1024) / sizeof(W) + 3;
  Buffers<W> b(big + 16);
  init_psyncs();
  for (const Scenario& sc : scenarios(npes())) {
    std::vector<std::size_t> sizes{1, 1031};
    if (big_ok(sc)) sizes = {0, 1, 5, 1031, big};
    // Cases: every size with root 0, and two more sizes with the last and middle roots.
    struct Case {
      std::size_t n;
      int root_sel;  // 0: first, 1: last, 2: middle
    };
    std::vector<Case> cases;
    for (std::size_t n : sizes) cases.push_back({n, 0});
    cases.push_back({1031, 1});
    cases.push_back({5, 2});
    auto root_of = [](const ActiveSet& s, int sel) {
      return sel == 0 ? 0 : sel == 1 ? s.size - 1 : s.size / 2;
    };
    run_scenario<W>(
        sc, b, static_cast<int>(cases.size()),
        [&](const ActiveSet& s, int, int c) {
          Routines<W>::broadcast(b.dst.get(), b.src.get(), cases[c].n,
                                 root_of(s, cases[c].root_sel), s.start, s.log_stride, s.size,
                                 g_psync);
        },
        [&](const ActiveSet& s, int k, int c) {
          const std::size_t n = cases[c].n;
          const int root = root_of(s, cases[c].root_sel);
          SCOPED_TRACE("broadcast" + std::string(Routines<W>::bits) + " nelems " +
                       std::to_string(n) + " PE_root " + std::to_string(root));
          if (k == root) {
            // The active-set broadcast does not write the root's dest.
            EXPECT_TRUE(b.dst_untouched("dest of the root"));
          } else {
            const int root_pe = s.pe(root);
            EXPECT_TRUE(check_range("dest", b.dst.get(), 0, n,
                                    [&](std::size_t i) { return value_of<W>(root_pe, i); }));
            EXPECT_TRUE(check_range("dest past nelems", b.dst.get(), n, b.cap,
                                    [](std::size_t i) { return sentinel_of<W>(i); }));
          }
        });
  }
}

TYPED_TEST(ActiveSetData, Collect) {
  using W = TypeParam;
  // Contribution of the set's k-th PE under each pattern (zero-length ones included).
  struct Pattern {
    const char* name;
    std::size_t (*count)(int k);
    bool world_only;
  };
  const Pattern patterns[] = {
      {"k mod 3", [](int k) { return static_cast<std::size_t>(k % 3); }, false},
      {"equal 5", [](int) { return std::size_t{5}; }, true},
      {"all empty", [](int) { return std::size_t{0}; }, true},
      {"first 3000, others 1", [](int k) { return k == 0 ? std::size_t{3000} : std::size_t{1}; },
       false},
      // More than 128 KiB gathered at 3+ PEs (64-bit) or 6+ PEs (32-bit).
      {"every PE 6000", [](int) { return std::size_t{6000}; }, true},
  };
  std::size_t cap = 0;
  for (const Pattern& p : patterns) {
    std::size_t total = 0;
    for (int k = 0; k < npes(); ++k) total += p.count(k);
    cap = std::max(cap, total);
  }
  Buffers<W> b(cap + 16);
  init_psyncs();
  for (const Scenario& sc : scenarios(npes())) {
    std::vector<const Pattern*> use;
    for (const Pattern& p : patterns)
      if (big_ok(sc) || !p.world_only) use.push_back(&p);
    run_scenario<W>(
        sc, b, static_cast<int>(use.size()),
        [&](const ActiveSet& s, int k, int c) {
          Routines<W>::collect(b.dst.get(), b.src.get(), use[c]->count(k), s.start, s.log_stride,
                               s.size, g_psync);
        },
        [&](const ActiveSet& s, int, int c) {
          SCOPED_TRACE(std::string("collect") + Routines<W>::bits + " pattern " + use[c]->name);
          std::size_t at = 0;
          for (int j = 0; j < s.size; ++j) {
            const std::size_t n = use[c]->count(j);
            const int pe = s.pe(j);
            EXPECT_TRUE(check_range("dest block", b.dst.get(), at, at + n,
                                    [&](std::size_t i) { return value_of<W>(pe, i - at); }))
                << "block of set PE " << j;
            at += n;
          }
          EXPECT_TRUE(check_range("dest past the total", b.dst.get(), at, b.cap,
                                  [](std::size_t i) { return sentinel_of<W>(i); }));
        });
  }
}

TYPED_TEST(ActiveSetData, Fcollect) {
  using W = TypeParam;
  const std::size_t big = 6000;  // more than 128 KiB gathered at 3+ PEs (64-bit) or 6+ PEs
  Buffers<W> b(big * npes() + 16);
  init_psyncs();
  for (const Scenario& sc : scenarios(npes())) {
    std::vector<std::size_t> sizes{1, 1500};
    if (big_ok(sc)) sizes = {0, 1, 7, 1500, big};
    run_scenario<W>(
        sc, b, static_cast<int>(sizes.size()),
        [&](const ActiveSet& s, int, int c) {
          Routines<W>::fcollect(b.dst.get(), b.src.get(), sizes[c], s.start, s.log_stride, s.size,
                                g_psync);
        },
        [&](const ActiveSet& s, int, int c) {
          const std::size_t n = sizes[c];
          SCOPED_TRACE(std::string("fcollect") + Routines<W>::bits + " nelems " +
                       std::to_string(n));
          EXPECT_TRUE(check_range("dest", b.dst.get(), 0, n * s.size, [&](std::size_t i) {
            return value_of<W>(s.pe(static_cast<int>(i / n)), i % n);
          }));
          EXPECT_TRUE(check_range("dest past the total", b.dst.get(), n * s.size, b.cap,
                                  [](std::size_t i) { return sentinel_of<W>(i); }));
        });
  }
}

TYPED_TEST(ActiveSetData, Alltoall) {
  using W = TypeParam;
  const std::size_t big = 3000;  // blocks of 12-24 KiB, up to 192 KiB per PE
  Buffers<W> b(big * npes() + 16);
  init_psyncs();
  for (const Scenario& sc : scenarios(npes())) {
    std::vector<std::size_t> sizes{1, 777};
    if (big_ok(sc)) sizes = {0, 1, 3, 777, big};
    run_scenario<W>(
        sc, b, static_cast<int>(sizes.size()),
        [&](const ActiveSet& s, int, int c) {
          Routines<W>::alltoall(b.dst.get(), b.src.get(), sizes[c], s.start, s.log_stride, s.size,
                                g_psync);
        },
        [&](const ActiveSet& s, int k, int c) {
          const std::size_t n = sizes[c];
          SCOPED_TRACE(std::string("alltoall") + Routines<W>::bits + " nelems " +
                       std::to_string(n));
          // Block j of dest comes from the set's j-th PE: block k of its source.
          EXPECT_TRUE(check_range("dest", b.dst.get(), 0, n * s.size, [&](std::size_t i) {
            const int j = static_cast<int>(i / n);
            return value_of<W>(s.pe(j), k * n + i % n);
          }));
          EXPECT_TRUE(check_range("dest past the total", b.dst.get(), n * s.size, b.cap,
                                  [](std::size_t i) { return sentinel_of<W>(i); }));
        });
  }
}

TYPED_TEST(ActiveSetData, Alltoalls) {
  using W = TypeParam;
  struct Case {
    ptrdiff_t dst, sst;
    std::size_t n;
  };
  const std::vector<Case> cases{{1, 1, 1},  {1, 1, 64}, {2, 1, 5},  {1, 3, 5},
                                {3, 2, 17}, {4, 4, 0},  {2, 3, 300}};
  std::size_t cap = 0;
  for (const Case& c : cases)
    cap = std::max(cap, static_cast<std::size_t>(std::max(c.dst, c.sst)) * c.n * npes());
  Buffers<W> b(cap + 16);
  init_psyncs();
  for (const Scenario& sc : scenarios(npes())) {
    run_scenario<W>(
        sc, b, static_cast<int>(cases.size()),
        [&](const ActiveSet& s, int, int c) {
          Routines<W>::alltoalls(b.dst.get(), b.src.get(), cases[c].dst, cases[c].sst, cases[c].n,
                                 s.start, s.log_stride, s.size, g_psync);
        },
        [&](const ActiveSet& s, int k, int c) {
          const Case& cs = cases[c];
          SCOPED_TRACE(std::string("alltoalls") + Routines<W>::bits + " dst " +
                       std::to_string(cs.dst) + " sst " + std::to_string(cs.sst) + " nelems " +
                       std::to_string(cs.n));
          // Element e of block j lands at dest[dst * (j * n + e)] and comes from the set's
          // j-th PE, which read it at source[sst * (k * n + e)]; the gaps keep the sentinel.
          const std::size_t dst = static_cast<std::size_t>(cs.dst);
          const std::size_t sst = static_cast<std::size_t>(cs.sst);
          EXPECT_TRUE(check_range("dest", b.dst.get(), 0, b.cap, [&](std::size_t i) {
            const std::size_t slot = i / dst;
            if (i % dst != 0 || slot >= cs.n * s.size) return sentinel_of<W>(i);
            const int j = static_cast<int>(slot / cs.n);
            return value_of<W>(s.pe(j), sst * (k * cs.n + slot % cs.n));
          }));
        });
  }
}
