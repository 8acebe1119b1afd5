// shmem_TYPENAME_collect / shmem_collectmem (per-PE counts may differ, zero included) and
// shmem_TYPENAME_fcollect / shmem_fcollectmem on every team of coll_test_util.hpp, run once per
// algorithm with SMA_COLLECT_ALGORITHM and SMA_FCOLLECT_ALGORITHM set to it. dest receives the
// blocks of team PEs 0..N-1 concatenated in team order; bytes past the total stay untouched.
#include "coll_ops.hpp"

#include <algorithm>
#include <initializer_list>
#include <numeric>

using namespace shoal::test;
using namespace shoal::test::coll;

namespace {

constexpr std::size_t kGuardBytes = 64;

// Count patterns of collect: element count of team PE j on a team of n.
enum class Pattern { all_zero, all_one, ramp_with_zeros, odd_varying, one_pe_only };
const char* pattern_name(Pattern p) {
  switch (p) {
    case Pattern::all_zero:
      return "all zero";
    case Pattern::all_one:
      return "all one";
    case Pattern::ramp_with_zeros:
      return "ramp with zeros";
    case Pattern::odd_varying:
      return "odd varying";
    case Pattern::one_pe_only:
      return "last PE only";
  }
  return "?";
}
std::size_t count_of(Pattern p, int j, int n, std::size_t scale) {
  switch (p) {
    case Pattern::all_zero:
      return 0;
    case Pattern::all_one:
      return 1;
    case Pattern::ramp_with_zeros:
      return static_cast<std::size_t>(j % 3 == 1 ? 0 : j + 1) * scale;
    case Pattern::odd_varying:
      return (static_cast<std::size_t>(2 * j + 1) * scale) | 1u;
    case Pattern::one_pe_only:
      return j == n - 1 ? scale : 0;
  }
  return 0;
}

// One collect with counts[j] elements from team PE j (fixed: fcollect, every count equal).
template <class A, bool Fixed>
void gather_case(const TeamCase& t, const std::vector<std::size_t>& counts, unsigned salt,
                 void* dest_buf, void* source_buf, const std::string& label) {
  using T = typename A::type;
  T* dest = static_cast<T*>(dest_buf);
  T* source = static_cast<T*>(source_buf);
  const std::size_t mine = counts[static_cast<std::size_t>(t.my)];
  const std::size_t total = std::accumulate(counts.begin(), counts.end(), std::size_t{0});
  const int self = t.world_pe(t.my);
  for (std::size_t i = 0; i < mine; ++i) source[i] = data_value<T>(self, i, salt);
  fill_guard(dest, 0, total * sizeof(T) + kGuardBytes);

  const int rc =
      Fixed ? A::fcollect(t.team, dest, source, mine) : A::collect(t.team, dest, source, mine);

  const std::string w = where(Fixed ? "fcollect" : "collect", t, A::name, mine) + " " + label;
  EXPECT_EQ(rc, 0) << w;
  std::size_t at = 0;
  for (int j = 0; j < t.size; ++j) {
    const std::size_t cj = counts[static_cast<std::size_t>(j)];
    const int pe = t.world_pe(j);
    EXPECT_TRUE(check_elems(w + ": block of team PE " + std::to_string(j), dest, at, at + cj,
                            [&](std::size_t i) { return data_value<T>(pe, i - at, salt); }));
    at += cj;
  }
  EXPECT_TRUE(
      check_guard(w + ": past dest", dest, total * sizeof(T), total * sizeof(T) + kGuardBytes));
  EXPECT_TRUE(check_elems(w + ": source changed", source, 0, mine,
                          [&](std::size_t i) { return data_value<T>(self, i, salt); }));
}

template <class A>
void fcollect_case(const TeamCase& t, std::size_t n, unsigned salt, void* dest, void* source) {
  gather_case<A, true>(t, std::vector<std::size_t>(static_cast<std::size_t>(t.size), n), salt, dest,
                       source, "");
}

template <class A>
void collect_case(const TeamCase& t, Pattern p, std::size_t scale, unsigned salt, void* dest,
                  void* source) {
  std::vector<std::size_t> counts;
  for (int j = 0; j < t.size; ++j) counts.push_back(count_of(p, j, t.size, scale));
  gather_case<A, false>(t, counts, salt, dest, source, std::string("(") + pattern_name(p) + ")");
}

}  // namespace

// Every RMA type and the mem form, on the representative teams.
TEST(CollCollect, EveryType) {
  SymBuffer dest(64 * 1024), source(4 * 1024);
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : representative_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(1, *t);
#define SHOAL_RUN(TN, T)                                                                   \
  if constexpr (kTested<Rma_##TN, RmaRows>) {                                              \
    collect_case<Rma_##TN>(*t, Pattern::odd_varying, 1, salt++, dest.get(), source.get()); \
    fcollect_case<Rma_##TN>(*t, 5, salt++, dest.get(), source.get());                      \
  }
    SMA_RMA_TYPES(SHOAL_RUN)
#undef SHOAL_RUN
    collect_case<Rma_mem>(*t, Pattern::odd_varying, 3, salt++, dest.get(), source.get());
    fcollect_case<Rma_mem>(*t, 13, salt++, dest.get(), source.get());
  }
  shmem_barrier_all();
}

// Every team with every count pattern (collect) and sizes 0, 1, odd, a few hundred (fcollect).
TEST(CollCollect, EveryTeamAndSize) {
  SymBuffer dest(64 * 1024), source(8 * 1024);
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : all_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(100, *t);
    for (Pattern p : {Pattern::all_zero, Pattern::all_one, Pattern::ramp_with_zeros,
                      Pattern::odd_varying, Pattern::one_pe_only})
      collect_case<Rma_int32>(*t, p, 5, salt++, dest.get(), source.get());
    collect_case<Rma_mem>(*t, Pattern::ramp_with_zeros, 37, salt++, dest.get(), source.get());
    for (std::size_t n : {0, 1, 13, 257}) {
      fcollect_case<Rma_int64>(*t, n, salt++, dest.get(), source.get());
      fcollect_case<Rma_mem>(*t, n == 0 ? 0 : n + 2, salt++, dest.get(), source.get());
    }
  }
  shmem_barrier_all();
}

// Totals above the scratch: fcollect of kLargeBytes in all (and kLargeBytes per PE on the
// smaller teams), collect with uneven large blocks and with one PE sending everything.
TEST(CollCollect, LargerThanScratch) {
  const std::size_t n = static_cast<std::size_t>(npes());
  SymBuffer dest(3 * kLargeBytes + n * 64 * 1024 + kGuardBytes), source(kLargeBytes + 64 * 1024);
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : large_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(500, *t);
    const std::size_t size = static_cast<std::size_t>(t->size);
    // fcollect: the team gathers > kLargeBytes in total; on small teams each PE sends that much.
    const std::size_t per_pe = size <= 3 ? kLargeBytes + 1 : (kLargeBytes / size) | 1u;
    fcollect_case<Rma_mem>(*t, per_pe, salt++, dest.get(), source.get());
    fcollect_case<Rma_double>(*t, odd_count_for<double>(per_pe), salt++, dest.get(), source.get());
    // collect: uneven blocks around kLargeBytes / size, with a zero block when size > 2.
    std::vector<std::size_t> counts;
    for (std::size_t j = 0; j < size; ++j)
      counts.push_back(size > 2 && j == 1 ? 0 : kLargeBytes / size + 97 * j + 1);
    gather_case<Rma_mem, false>(*t, counts, salt++, dest.get(), source.get(), "(uneven large)");
    collect_case<Rma_mem>(*t, Pattern::one_pe_only, kLargeBytes + 3, salt++, dest.get(),
                          source.get());
  }
  shmem_barrier_all();
}

namespace {

// fcollect with blocks of at - 1, at and at + 1 elements, then collect with blocks on both sides
// of `at` (at - 1, at and at + 1 in turn): around the limit of an algorithm that takes a call
// only while every block (or message) fits. dest holds size * (at + 1) elements.
void blocks_around(const TeamCase& t, std::size_t at, unsigned& salt, void* dest, void* source) {
  for (std::size_t n : {at - 1, at, at + 1}) fcollect_case<Rma_uint64>(t, n, salt++, dest, source);
  std::vector<std::size_t> counts;
  for (int j = 0; j < t.size; ++j) counts.push_back(at - 1 + static_cast<std::size_t>(j % 3));
  gather_case<Rma_uint64, false>(t, counts, salt++, dest, source, "(around)");
}

// blocks_around() at each of `ats` (elements of 8 bytes) on every representative team.
void blocks_around_each(std::initializer_list<std::size_t> ats, unsigned salt_base) {
  const std::size_t max_block = std::max(ats) + 1;
  const std::size_t n = static_cast<std::size_t>(npes());
  SymBuffer dest(n * max_block * sizeof(std::uint64_t) + kGuardBytes),
      source(max_block * sizeof(std::uint64_t));
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : representative_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(salt_base, *t);
    for (std::size_t at : ats) blocks_around(*t, at, salt, dest.get(), source.get());
  }
  shmem_barrier_all();
}

}  // namespace

// Blocks just below, at and just above what a mailbox holds in jobs of 8, 4 and 2 PEs (4, 8
// and 16 KiB; slot_state.hpp): mailbox takes a call only when every block fits.
TEST(CollCollect, BlocksAroundTheMailboxSize) {
  constexpr std::size_t kMaxBlock = (16 * 1024 + 8) / sizeof(std::uint64_t);
  SymBuffer dest(8 * kMaxBlock * sizeof(std::uint64_t) + kGuardBytes),
      source(kMaxBlock * sizeof(std::uint64_t));
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : representative_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(700, *t);
    for (std::size_t box : {4096, 8192, 16384}) {
      const std::size_t at = box / sizeof(std::uint64_t);
      if (static_cast<std::size_t>(t->size) * (at + 1) > 8 * kMaxBlock) continue;
      blocks_around(*t, at, salt, dest.get(), source.get());
    }
  }
  shmem_barrier_all();
}

// Blocks around the limits of node_leaders across hosts, which takes a team while every message
// it sends (a block, a node's blocks, in a doubling the nodes a leader holds) fits a stash
// buffer (1 MiB: a node's share of 2 blocks of 512 KiB), and where every node has one PE
// while it is at most 128 KiB; ring above. 16 to 64 KiB: its limit before.
TEST(CollCollect, BlocksAroundTheStashSize) {
  blocks_around_each({16 * 128, 32 * 128, 64 * 128, 128 * 128, 512 * 128}, 800);
}

// Blocks around what one message of collect's exchange of counts with blocks holds (128 KiB
// with the flag and every PE's count: collectives/collect/counted.hpp), on teams over 2 to 4
// nodes: the ucx runs (no PE maps another) and the runs across hosts. A message holds one
// block of 16381 elements of 8 bytes with 2 PEs, 16380 with 3; 8189 is the block of which two
// fit a message: those of 4 PEs on 4 nodes (a block goes only while two like it fit) and of a
// node of 2 PEs on 2 hosts (8188 on 3 hosts). Around each, some PEs' blocks go and others do
// not: every PE must then go on with the counts alone.
TEST(CollCollect, BlocksAroundTheCountedMessage) { blocks_around_each({8189, 16381}, 900); }

// 50 fcollects in a row into one dest with changing data, checked after each, no barriers;
// then 30 collects with changing counts into one dest.
TEST(CollCollect, BackToBack) {
  SymBuffer dest(64 * 1024), source(4 * 1024);
  ASSERT_TRUE(dest && source);
  std::vector<const TeamCase*> ts{&teams().front()};
  if (const TeamCase* s = large_teams().back(); s != ts.front()) ts.push_back(s);
  for (const TeamCase* t : ts) {
    if (!t->member) continue;
    for (unsigned k = 0; k < 50; ++k)
      fcollect_case<Rma_uint64>(*t, 1 + k % 17, 1000 + k, dest.get(), source.get());
    for (unsigned k = 0; k < 30; ++k) {
      std::vector<std::size_t> counts;
      for (int j = 0; j < t->size; ++j)
        counts.push_back(static_cast<std::size_t>((j * 7 + static_cast<int>(k) * 3) % 11));
      gather_case<Rma_int16, false>(*t, counts, 2000 + k, dest.get(), source.get(),
                                    "(back to back " + std::to_string(k) + ")");
    }
  }
  shmem_barrier_all();
}

namespace {
// Symmetric data-segment buffers: never "direct" (only the symmetric heap is mapped).
std::uint64_t g_dest[16 * 1024], g_source[2 * 1024];
}  // namespace

// 48 calls in a row without barriers that switch, whatever the algorithm variables say, between
// blocks that fit a mailbox and larger ones, heap and data-segment buffers, fcollect and collect
// (with empty blocks): on one node auto alternates mailbox, direct, recursive_doubling and ring
// on the same team, so each call must see only its own notifications and no PE may change a
// source a peer still reads.
TEST(CollCollect, MixedBackToBack) {
  SymBuffer dest(128 * 1024), source(16 * 1024);
  ASSERT_TRUE(dest && source);
  mixed_back_to_back(
      dest.get(), source.get(), g_dest, g_source,
      [](const TeamCase& t, unsigned k, std::size_t n, void* d, void* s) {
        if (k % 2 == 0) {
          fcollect_case<Rma_uint64>(t, n, 3000 + k, d, s);
          return;
        }
        std::vector<std::size_t> counts;
        for (int j = 0; j < t.size; ++j)
          counts.push_back(k % 4 == 1 ? static_cast<std::size_t>((j * 5 + static_cast<int>(k)) % 17)
                           : j % 3 == 1 ? 0
                                        : n / static_cast<std::size_t>(j + 1));
        gather_case<Rma_uint64, false>(t, counts, 3000 + k, d, s,
                                       "(mixed " + std::to_string(k) + ")");
      });
  shmem_barrier_all();
}
