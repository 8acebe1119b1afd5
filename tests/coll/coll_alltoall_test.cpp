// shmem_TYPENAME_alltoall / shmem_alltoallmem and shmem_TYPENAME_alltoalls /
// shmem_alltoallsmem on every team of coll_test_util.hpp, run once per SMA_ALLTOALL_ALGORITHM.
//
// alltoall: block j of team PE i's source (elements [j*n, (j+1)*n)) lands in block i of team PE
// j's dest. alltoalls: the same with strides, element k of the block for team PE j read from
// source[(j*n + k) * sst] and written to dest[(i*n + k) * dst] on team PE j; dest elements
// between the strided ones stay untouched.
#include "coll_ops.hpp"

using namespace shoal::test;
using namespace shoal::test::coll;

namespace {

constexpr std::size_t kGuardBytes = 64;

template <class A>
void alltoalls_case(const TeamCase& t, std::size_t n, std::ptrdiff_t dst, std::ptrdiff_t sst,
                    bool strided_api, unsigned salt, void* dest_buf, void* source_buf) {
  using T = typename A::type;
  T* dest = static_cast<T*>(dest_buf);
  T* source = static_cast<T*>(source_buf);
  const std::size_t size = static_cast<std::size_t>(t.size);
  const std::size_t ds = static_cast<std::size_t>(dst), ss = static_cast<std::size_t>(sst);
  // Extent of the strided arrays: the last element is at ((size*n - 1) * stride).
  const std::size_t src_len = size * n == 0 ? 0 : (size * n - 1) * ss + 1;
  const std::size_t dst_len = size * n == 0 ? 0 : (size * n - 1) * ds + 1;
  const int self = t.world_pe(t.my);
  for (std::size_t i = 0; i < src_len; ++i) source[i] = data_value<T>(self, i, salt);
  fill_guard(dest, 0, dst_len * sizeof(T) + kGuardBytes);

  const int rc = strided_api ? A::alltoalls(t.team, dest, source, dst, sst, n)
                             : A::alltoall(t.team, dest, source, n);

  const std::string w =
      where(strided_api ? "alltoalls" : "alltoall", t, A::name, n) +
      (strided_api ? " dst " + std::to_string(dst) + " sst " + std::to_string(sst) : std::string());
  EXPECT_EQ(rc, 0) << w;
  const std::size_t my = static_cast<std::size_t>(t.my);
  std::size_t bad = 0;
  std::string first;
  for (std::size_t j = 0; j < size && bad == 0; ++j) {
    const int pe = t.world_pe(static_cast<int>(j));
    for (std::size_t k = 0; k < n; ++k) {
      const T want = data_value<T>(pe, (my * n + k) * ss, salt);
      const T& got = dest[(j * n + k) * ds];
      if (!same(got, want) && bad++ == 0)
        first = "block of team PE " + std::to_string(j) + " element " + std::to_string(k) +
                ": got " + show_value(got) + ", expected " + show_value(want);
    }
  }
  EXPECT_EQ(bad, 0u) << w << ": " << first;
  // Bytes between strided elements and past the end are untouched.
  if (ds > 1) {
    for (std::size_t e = 0; e + 1 < dst_len; e += ds)
      if (!check_guard("", dest, (e + 1) * sizeof(T), (e + ds) * sizeof(T))) {
        ADD_FAILURE() << w << ": dest written between strided elements after element " << e;
        break;
      }
  }
  EXPECT_TRUE(
      check_guard(w + ": past dest", dest, dst_len * sizeof(T), dst_len * sizeof(T) + kGuardBytes));
  EXPECT_TRUE(check_elems(w + ": source changed", source, 0, src_len,
                          [&](std::size_t i) { return data_value<T>(self, i, salt); }));
}

template <class A>
void alltoall_case(const TeamCase& t, std::size_t n, unsigned salt, void* dest, void* source) {
  alltoalls_case<A>(t, n, 1, 1, false, salt, dest, source);
}

}  // namespace

// Every RMA type and the mem form, contiguous and strided, on the representative teams.
TEST(CollAlltoall, EveryType) {
  SymBuffer dest(16 * 1024), source(16 * 1024);
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : representative_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(1, *t);
#define SHOAL_RUN(TN, T)                                                           \
  if constexpr (kTested<Rma_##TN, RmaRows>) {                                      \
    alltoall_case<Rma_##TN>(*t, 3, salt++, dest.get(), source.get());              \
    alltoalls_case<Rma_##TN>(*t, 3, 2, 3, true, salt++, dest.get(), source.get()); \
  }
    SMA_RMA_TYPES(SHOAL_RUN)
#undef SHOAL_RUN
    alltoall_case<Rma_mem>(*t, 5, salt++, dest.get(), source.get());
    alltoalls_case<Rma_mem>(*t, 5, 3, 2, true, salt++, dest.get(), source.get());
  }
  shmem_barrier_all();
}

// Every team: alltoall with 0, 1, odd and a few hundred elements per pair; alltoalls with
// several stride pairs (1/1 through the strided routine too).
TEST(CollAlltoall, EveryTeamAndSize) {
  SymBuffer dest(64 * 1024), source(64 * 1024);
  ASSERT_TRUE(dest && source);
  const std::ptrdiff_t strides[][2] = {{1, 1}, {2, 1}, {1, 3}, {3, 2}};
  for (const TeamCase* t : all_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(100, *t);
    for (std::size_t n : {0, 1, 5, 129}) {
      alltoall_case<Rma_int32>(*t, n, salt++, dest.get(), source.get());
      alltoall_case<Rma_mem>(*t, n == 0 ? 0 : n + 2, salt++, dest.get(), source.get());
    }
    for (const auto& s : strides)
      for (std::size_t n : {0, 1, 5})
        alltoalls_case<Rma_int64>(*t, n, s[0], s[1], true, salt++, dest.get(), source.get());
  }
  shmem_barrier_all();
}

// More than the scratch per PE: kLargeBytes of source in contiguous blocks (and per block on
// the small teams), and a strided exchange of the same order.
TEST(CollAlltoall, LargerThanScratch) {
  SymBuffer dest(2 * 3 * kLargeBytes + 64 * 1024), source(2 * 3 * kLargeBytes + 64 * 1024);
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : large_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(500, *t);
    const std::size_t size = static_cast<std::size_t>(t->size);
    const std::size_t block = size <= 3 ? kLargeBytes + 1 : (kLargeBytes / size) | 1u;
    alltoall_case<Rma_mem>(*t, block, salt++, dest.get(), source.get());
    alltoall_case<Rma_double>(*t, odd_count_for<double>(block), salt++, dest.get(), source.get());
    // Strided (dest stride 2): just above the default scratch in all per PE. Through UCX every
    // element is a transfer of its own, so this one stays near 128 KiB.
    const std::size_t elems = ((136 * 1024) / sizeof(std::int64_t) / size) | 1u;
    alltoalls_case<Rma_int64>(*t, elems, 2, 1, true, salt++, dest.get(), source.get());
  }
  shmem_barrier_all();
}

// Blocks just below, at and just above what a mailbox holds in jobs of 8, 4 and 2 PEs (4, 8
// and 16 KiB; slot_state.hpp): the mailbox algorithm takes the first two, another the third.
// Strided too, which mailbox packs before it sends.
TEST(CollAlltoall, BlocksAroundTheMailboxSize) {
  constexpr std::size_t kMaxBlock = (16 * 1024 + 8) / sizeof(std::uint64_t);
  SymBuffer dest(2 * 8 * kMaxBlock * sizeof(std::uint64_t)),
      source(8 * kMaxBlock * sizeof(std::uint64_t));
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : representative_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(700, *t);
    for (std::size_t box : {4096, 8192, 16384}) {
      const std::size_t at = box / sizeof(std::uint64_t);
      if (static_cast<std::size_t>(t->size) * (at + 1) > 8 * kMaxBlock) continue;
      for (std::size_t n : {at - 1, at, at + 1})
        alltoall_case<Rma_uint64>(*t, n, salt++, dest.get(), source.get());
      alltoalls_case<Rma_uint64>(*t, at, 2, 1, true, salt++, dest.get(), source.get());
    }
  }
  shmem_barrier_all();
}

// 30 alltoalls in a row into one dest with changing data and no barriers, then 20 strided ones
// alternating the strides.
TEST(CollAlltoall, BackToBack) {
  SymBuffer dest(32 * 1024), source(32 * 1024);
  ASSERT_TRUE(dest && source);
  std::vector<const TeamCase*> ts{&teams().front()};
  if (const TeamCase* s = large_teams().back(); s != ts.front()) ts.push_back(s);
  for (const TeamCase* t : ts) {
    if (!t->member) continue;
    for (unsigned k = 0; k < 30; ++k)
      alltoall_case<Rma_uint64>(*t, 1 + k % 9, 1000 + k, dest.get(), source.get());
    for (unsigned k = 0; k < 20; ++k)
      alltoalls_case<Rma_uint32>(*t, 1 + k % 5, 1 + k % 3, 1 + (k / 3) % 2, true, 2000 + k,
                                 dest.get(), source.get());
  }
  shmem_barrier_all();
}

namespace {
// Symmetric data-segment buffers: never "direct" (only the symmetric heap is mapped).
std::uint64_t g_dest[8 * 1024], g_source[8 * 1024];
}  // namespace

// 48 calls in a row without barriers that switch, whatever SMA_ALLTOALL_ALGORITHM says, between
// blocks that fit a mailbox and larger ones, heap and data-segment buffers, alltoall and
// alltoalls: on one node auto alternates mailbox, direct and pairwise on the same team, so each
// call must see only its own notifications and no PE may change a source a peer still reads.
TEST(CollAlltoall, MixedBackToBack) {
  SymBuffer dest(64 * 1024), source(64 * 1024);
  ASSERT_TRUE(dest && source);
  mixed_back_to_back(dest.get(), source.get(), g_dest, g_source,
                     [](const TeamCase& t, unsigned k, std::size_t n, void* d, void* s) {
                       if (k % 4 == 3)
                         alltoalls_case<Rma_uint64>(t, 1 + k % 5, 1 + k % 2, 1 + k % 3, true,
                                                    3000 + k, d, s);
                       else
                         alltoall_case<Rma_uint64>(t, n, 3000 + k, d, s);
                     });
  shmem_barrier_all();
}
