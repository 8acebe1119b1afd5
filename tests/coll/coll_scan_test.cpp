// The OpenSHMEM 1.6 scans shmem_TYPENAME_sum_inscan / shmem_TYPENAME_sum_exscan on every type of
// the arithmetic table (the comparison types plus complexd / complexf) and every team of
// coll_test_util.hpp, run once per SMA_SCAN_ALGORITHM.
//   inscan: dest[i] on team PE k = sum of source[i] over team PEs 0..k;
//   exscan: the same over team PEs 0..k-1, and all zeros on team PE 0.
// source and dest may be the same array (in place); elements past nelems stay untouched.
#include "coll_ops.hpp"

using namespace shoal::test;
using namespace shoal::test::coll;

namespace {

constexpr std::size_t kGuardBytes = 64;

template <class T>
std::vector<T> scan_reference(const TeamCase& t, bool exclusive, std::size_t n, unsigned salt) {
  const int last = exclusive ? t.my - 1 : t.my;
  std::vector<T> out(n, zero_value<T>());
  for (std::size_t i = 0; i < n; ++i) {
    if (last < 0) continue;
    T acc = reduce_input<T>(Op::sum, t.world_pe(0), i, salt);
    for (int j = 1; j <= last; ++j)
      acc = combine(Op::sum, acc, reduce_input<T>(Op::sum, t.world_pe(j), i, salt));
    out[i] = acc;
  }
  return out;
}

template <class S>
void scan_case(const TeamCase& t, bool exclusive, std::size_t n, unsigned salt, void* dest_buf,
               void* source_buf, bool in_place = false) {
  using T = typename S::type;
  T* source = static_cast<T*>(source_buf);
  T* dest = in_place ? source : static_cast<T*>(dest_buf);
  const int self = t.world_pe(t.my);
  const std::size_t bytes = n * sizeof(T);
  if (!in_place) fill_guard(dest, 0, bytes + kGuardBytes);
  for (std::size_t i = 0; i < n; ++i) source[i] = reduce_input<T>(Op::sum, self, i, salt);
  if (in_place) fill_guard(dest, bytes, bytes + kGuardBytes);

  const int rc =
      exclusive ? S::exscan(t.team, dest, source, n) : S::inscan(t.team, dest, source, n);

  const std::string w =
      where((std::string(exclusive ? "sum_exscan" : "sum_inscan") + (in_place ? " in place" : ""))
                .c_str(),
            t, S::name, n) +
      " team PE " + std::to_string(t.my);
  EXPECT_EQ(rc, 0) << w;
  const std::vector<T> want = scan_reference<T>(t, exclusive, n, salt);
  EXPECT_TRUE(check_elems(w + ": dest", dest, 0, n, [&](std::size_t i) { return want[i]; }));
  EXPECT_TRUE(check_guard(w + ": past dest", dest, bytes, bytes + kGuardBytes));
  if (!in_place) {
    EXPECT_TRUE(check_elems(w + ": source changed", source, 0, n, [&](std::size_t i) {
      return reduce_input<T>(Op::sum, self, i, salt);
    }));
  }
}

// Inclusive and exclusive, or (both == false) one of them chosen by the salt.
template <class S>
void both_scans(const TeamCase& t, std::size_t n, unsigned& salt, void* dest, void* source,
                bool both = true) {
  if (!both) {
    scan_case<S>(t, salt % 2 == 1, n, salt, dest, source);
    ++salt;
    return;
  }
  scan_case<S>(t, false, n, salt++, dest, source);
  scan_case<S>(t, true, n, salt++, dest, source);
}

}  // namespace

// Every type of the arithmetic table, inclusive and exclusive, on the representative teams with
// one element and an odd count; on the other teams every type with the odd count, inclusive or
// exclusive in turn.
TEST(CollScan, EveryType) {
  SymBuffer dest(19 * 16 + kGuardBytes), source(19 * 16 + kGuardBytes);
  ASSERT_TRUE(dest && source);
  const auto rep = representative_teams();
  for (const TeamCase* t : all_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(1, *t);
    const bool representative = std::find(rep.begin(), rep.end(), t) != rep.end();
    for (std::size_t n : {19, 1}) {
      if (n == 1 && !representative) continue;
#define SHOAL_RUN(TN, T)                    \
  if constexpr (kTested<Cmp_##TN, CmpRows>) \
    both_scans<Cmp_##TN>(*t, n, salt, dest.get(), source.get(), representative);
      SMA_REDUCE_COMPARE_TYPES(SHOAL_RUN)
#undef SHOAL_RUN
#define SHOAL_RUN(TN, T)                  \
  if constexpr (kTested<Cx_##TN, CxRows>) \
    both_scans<Cx_##TN>(*t, n, salt, dest.get(), source.get(), representative);
      SMA_REDUCE_ARITH_COMPLEX_TYPES(SHOAL_RUN)
#undef SHOAL_RUN
    }
  }
  shmem_barrier_all();
}

// Every team, sizes 0, 1, odd and a few hundred.
TEST(CollScan, EveryTeamAndSize) {
  SymBuffer dest(1001 * 16 + kGuardBytes), source(1001 * 16 + kGuardBytes);
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : all_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(1000, *t);
    for (std::size_t n : {0, 1, 7, 1001}) {
      both_scans<Cmp_int64>(*t, n, salt, dest.get(), source.get());
      both_scans<Cmp_double>(*t, n, salt, dest.get(), source.get());
      scan_case<Cx_complexd>(*t, (n % 2) == 1, n, salt++, dest.get(), source.get());
    }
  }
  shmem_barrier_all();
}

TEST(CollScan, InPlace) {
  SymBuffer buf(129 * 8 + kGuardBytes);
  ASSERT_TRUE(buf);
  for (const TeamCase* t : all_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(3000, *t);
    scan_case<Cmp_int32>(*t, false, 129, salt++, nullptr, buf.get(), true);
    scan_case<Cmp_int32>(*t, true, 129, salt++, nullptr, buf.get(), true);
    scan_case<Cmp_float>(*t, true, 31, salt++, nullptr, buf.get(), true);
  }
  shmem_barrier_all();
}

// Above the scratch, on the world and split teams.
TEST(CollScan, LargerThanScratch) {
  const std::size_t cap = kLargeBytes + 64 * 1024;
  SymBuffer dest(cap), source(cap);
  ASSERT_TRUE(dest && source);
  for (const TeamCase* t : large_teams()) {
    if (!t->member) continue;
    unsigned salt = team_salt(5000, *t);
    scan_case<Cmp_int64>(*t, false, odd_count_for<std::int64_t>(kLargeBytes), salt++, dest.get(),
                         source.get());
    scan_case<Cmp_double>(*t, true, odd_count_for<double>(kLargeBytes), salt++, dest.get(),
                          source.get());
  }
  const TeamCase& world = teams().front();
  unsigned salt = team_salt(7000, world);
  scan_case<Cmp_uchar>(world, false, kLargeBytes + 1, salt++, dest.get(), source.get());
  scan_case<Cx_complexf>(world, true, odd_count_for<float _Complex>(kLargeBytes), salt++,
                         dest.get(), source.get());
  shmem_barrier_all();
}

// 30 scans in a row with no barrier, alternating inscan and exscan, the dest of each being the
// source of the next after each PE changes the even elements of its copy.
TEST(CollScan, BackToBackChain) {
  constexpr std::size_t n = 29;
  SymBuffer a(n * sizeof(std::int64_t)), b(n * sizeof(std::int64_t));
  ASSERT_TRUE(a && b);
  for (const TeamCase* t : all_teams()) {
    if (!t->member || t->size < 2) continue;
    const std::size_t size = static_cast<std::size_t>(t->size);
    std::vector<std::vector<std::int64_t>> inputs(size, std::vector<std::int64_t>(n));
    for (std::size_t j = 0; j < size; ++j)
      for (std::size_t i = 0; i < n; ++i)
        inputs[j][i] =
            static_cast<std::int64_t>(hash3(t->world_pe(static_cast<int>(j)), i, 9000) % 1000);
    auto* x = a.as<std::int64_t>();
    auto* y = b.as<std::int64_t>();
    for (std::size_t i = 0; i < n; ++i) x[i] = inputs[static_cast<std::size_t>(t->my)][i];
    const int steps = t->world || t->size == 3 ? 30 : 6;
    for (int s = 0; s < steps; ++s) {
      const bool exclusive = s % 2 == 1;
      std::int64_t* in = (s % 2 == 0) ? x : y;
      std::int64_t* out = (s % 2 == 0) ? y : x;
      const int rc = exclusive ? shmem_int64_sum_exscan(t->team, out, in, n)
                               : shmem_int64_sum_inscan(t->team, out, in, n);
      // Every PE's result (they feed the next step's inputs).
      std::vector<std::vector<std::int64_t>> result(size, std::vector<std::int64_t>(n, 0));
      for (std::size_t k = 0; k < size; ++k)
        for (std::size_t i = 0; i < n; ++i) {
          std::int64_t acc = 0;
          for (std::size_t j = 0; j < (exclusive ? k : k + 1); ++j) acc += inputs[j][i];
          result[k][i] = acc;
        }
      const std::string w = where((std::string("chained ") + (exclusive ? "exscan" : "inscan") +
                                   " step " + std::to_string(s))
                                      .c_str(),
                                  *t, "int64", n);
      const auto& mine = result[static_cast<std::size_t>(t->my)];
      EXPECT_EQ(rc, 0) << w;
      EXPECT_TRUE(check_elems(w, out, 0, n, [&](std::size_t i) { return mine[i]; }));
      // Keep values small: the next input is the result modulo 1000, even elements changed.
      for (std::size_t k = 0; k < size; ++k)
        for (std::size_t i = 0; i < n; ++i)
          inputs[k][i] = i % 2 == 0
                             ? static_cast<std::int64_t>(hash3(t->world_pe(static_cast<int>(k)), i,
                                                               9100 + static_cast<unsigned>(s)) %
                                                         1000)
                             : result[k][i] % 1000;
      for (std::size_t i = 0; i < n; ++i) out[i] = inputs[static_cast<std::size_t>(t->my)][i];
    }
  }
  shmem_barrier_all();
}
