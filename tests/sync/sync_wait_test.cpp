// Point-to-point synchronization: shmem_TYPENAME_wait_until / test and their _all, _any, _some
// and _vector forms for every type of the synchronization table, the deprecated waits, and the
// C++ overloads / C11 generic names.
//
// Local tests check the semantics against a brute-force model (every comparison operator,
// boundary values, status masks, empty sets). Remote tests have other PEs update the variables
// of PE 0 with AMOs, in a random order and after random delays, while PE 0 waits or polls.
#include "sync_ops.hpp"

#include <algorithm>
#include <limits>
#include <random>
#include <set>
#include <vector>

using namespace shoal::test;

extern "C" int shoal_sync_c11_generic_tests(void);

namespace {

const int kCmps[] = {SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT,
                     SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE};

template <class T>
bool model(T v, int cmp, T ref) {
  switch (cmp) {
    case SHMEM_CMP_EQ:
      return v == ref;
    case SHMEM_CMP_NE:
      return v != ref;
    case SHMEM_CMP_GT:
      return v > ref;
    case SHMEM_CMP_GE:
      return v >= ref;
    case SHMEM_CMP_LT:
      return v < ref;
    case SHMEM_CMP_LE:
      return v <= ref;
  }
  return false;
}

template <class T>
std::vector<T> boundary_values() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {L::min(),          static_cast<T>(L::min() + 1), static_cast<T>(0),
                      static_cast<T>(1), static_cast<T>(L::max() - 1), L::max()};
  if constexpr (std::is_signed_v<T>) v.push_back(static_cast<T>(-1));
  return v;
}

void pause_us(unsigned us) { std::this_thread::sleep_for(std::chrono::microseconds(us)); }

}  // namespace

// Every comparison operator on boundary values, through shmem_TYPENAME_test and (when the
// condition holds, so it returns at once) wait_until; on the symmetric heap.
TEST(SyncLocal, EveryCmpOnBoundaryValues) {
  for_each_sync_type([](auto ops) {
    using T = typename decltype(ops)::type;
    SymArray<T> var(1);
    const auto values = boundary_values<T>();
    int bad = 0;
    for (T v : values)
      for (T ref : values)
        for (int cmp : kCmps) {
          var[0] = v;
          const int want = model(v, cmp, ref) ? 1 : 0;
          const int got = ops.test(var.get(), cmp, ref);
          if (got != want && bad++ < 5)
            ADD_FAILURE() << "shmem_" << ops.name << "_test(" << show(v) << ", cmp " << cmp << ", "
                          << show(ref) << ") returned " << got;
          if (want) ops.wait_until(var.get(), cmp, ref);  // must not block
        }
    EXPECT_EQ(bad, 0) << ops.name;
  });
  shmem_barrier_all();
}

// The array forms on values that are already in place, against the model: status masks
// (null, mixed, all excluded), nelems 0, and the _vector forms with one value per element.
TEST(SyncLocal, ArrayFormsMatchModel) {
  for_each_sync_type([](auto ops) {
    using T = typename decltype(ops)::type;
    constexpr std::size_t n = 9;
    SymArray<T> ivars(n);
    std::mt19937 rng(1234 + me());
    for (int trial = 0; trial < 60; ++trial) {
      std::vector<T> refs(n);
      std::vector<int> status(n);
      for (std::size_t i = 0; i < n; ++i) {
        ivars[i] = static_cast<T>(rng() % 4);
        refs[i] = static_cast<T>(rng() % 4);
        // every third trial excludes everything
        status[i] = (trial % 3 == 2) ? 1 : (rng() % 3 == 0);
      }
      const int cmp = kCmps[trial % 6];
      const T ref = refs[0];
      const int* st = (trial % 5 == 0) ? nullptr : status.data();
      SCOPED_TRACE(std::string(ops.name) + " trial " + std::to_string(trial));
      for (int vector = 0; vector < 2; ++vector) {
        auto sat = [&](std::size_t i) { return model(ivars[i], cmp, vector ? refs[i] : ref); };
        auto in = [&](std::size_t i) { return st == nullptr || st[i] == 0; };
        std::set<std::size_t> want;
        bool all = true;
        for (std::size_t i = 0; i < n; ++i)
          if (in(i)) {
            if (sat(i))
              want.insert(i);
            else
              all = false;
          }
        std::vector<std::size_t> idx(n, 999);
        const int test_all = vector ? ops.test_all_vector(ivars.get(), n, st, cmp, refs.data())
                                    : ops.test_all(ivars.get(), n, st, cmp, ref);
        EXPECT_EQ(test_all, all ? 1 : 0) << "test_all, vector " << vector;
        const std::size_t some =
            vector ? ops.test_some_vector(ivars.get(), n, idx.data(), st, cmp, refs.data())
                   : ops.test_some(ivars.get(), n, idx.data(), st, cmp, ref);
        EXPECT_EQ(std::set<std::size_t>(idx.begin(), idx.begin() + std::min(some, n)), want)
            << "test_some, vector " << vector;
        EXPECT_EQ(some, want.size());
        const std::size_t any = vector ? ops.test_any_vector(ivars.get(), n, st, cmp, refs.data())
                                       : ops.test_any(ivars.get(), n, st, cmp, ref);
        if (want.empty())
          EXPECT_EQ(any, SIZE_MAX) << "test_any, vector " << vector;
        else
          EXPECT_TRUE(want.count(any)) << "test_any returned " << any;
        // The waiting forms return at once when they can.
        if (all) {
          vector ? ops.wait_until_all_vector(ivars.get(), n, st, cmp, refs.data())
                 : ops.wait_until_all(ivars.get(), n, st, cmp, ref);
        }
        const bool empty_set = st != nullptr && std::all_of(status.begin(), status.end(),
                                                            [](int s) { return s != 0; });
        if (!want.empty() || empty_set) {
          const std::size_t wany =
              vector ? ops.wait_until_any_vector(ivars.get(), n, st, cmp, refs.data())
                     : ops.wait_until_any(ivars.get(), n, st, cmp, ref);
          if (empty_set)
            EXPECT_EQ(wany, SIZE_MAX) << "wait_until_any on an empty set";
          else
            EXPECT_TRUE(want.count(wany)) << "wait_until_any returned " << wany;
          std::fill(idx.begin(), idx.end(), 999);
          const std::size_t wsome =
              vector ? ops.wait_until_some_vector(ivars.get(), n, idx.data(), st, cmp, refs.data())
                     : ops.wait_until_some(ivars.get(), n, idx.data(), st, cmp, ref);
          EXPECT_EQ(wsome, want.size()) << "wait_until_some, vector " << vector;
          EXPECT_EQ(std::set<std::size_t>(idx.begin(), idx.begin() + std::min(wsome, n)), want);
        }
      }
    }
  });
  shmem_barrier_all();
}

// nelems == 0 and null arrays: the empty set. test_all and wait_until_all hold vacuously;
// _any returns SIZE_MAX and _some 0, waiting or not.
TEST(SyncLocal, EmptySets) {
  for_each_sync_type([](auto ops) {
    using T = typename decltype(ops)::type;
    SymArray<T> ivars(3);
    const int all_out[3] = {1, 1, 1};
    T refs[3] = {static_cast<T>(5), static_cast<T>(5), static_cast<T>(5)};
    std::size_t idx[3] = {7, 7, 7};
    for (std::size_t i = 0; i < 3; ++i) ivars[i] = static_cast<T>(0);
    for (const int* st : {static_cast<const int*>(nullptr), all_out}) {
      const std::size_t n = st ? 3 : 0;  // null status: empty only through nelems == 0
      EXPECT_EQ(ops.test_all(ivars.get(), n, st, SHMEM_CMP_EQ, refs[0]), 1) << ops.name;
      EXPECT_EQ(ops.test_all_vector(ivars.get(), n, st, SHMEM_CMP_EQ, refs), 1) << ops.name;
      EXPECT_EQ(ops.test_any(ivars.get(), n, st, SHMEM_CMP_EQ, refs[0]), SIZE_MAX) << ops.name;
      EXPECT_EQ(ops.test_any_vector(ivars.get(), n, st, SHMEM_CMP_EQ, refs), SIZE_MAX);
      EXPECT_EQ(ops.test_some(ivars.get(), n, idx, st, SHMEM_CMP_EQ, refs[0]), 0u) << ops.name;
      EXPECT_EQ(ops.test_some_vector(ivars.get(), n, idx, st, SHMEM_CMP_EQ, refs), 0u);
      ops.wait_until_all(ivars.get(), n, st, SHMEM_CMP_EQ, refs[0]);
      ops.wait_until_all_vector(ivars.get(), n, st, SHMEM_CMP_EQ, refs);
      EXPECT_EQ(ops.wait_until_any(ivars.get(), n, st, SHMEM_CMP_EQ, refs[0]), SIZE_MAX);
      EXPECT_EQ(ops.wait_until_any_vector(ivars.get(), n, st, SHMEM_CMP_EQ, refs), SIZE_MAX);
      EXPECT_EQ(ops.wait_until_some(ivars.get(), n, idx, st, SHMEM_CMP_EQ, refs[0]), 0u);
      EXPECT_EQ(ops.wait_until_some_vector(ivars.get(), n, idx, st, SHMEM_CMP_EQ, refs), 0u);
    }
  });
  shmem_barrier_all();
}

// A series of test_any / wait_until_any calls must eventually return every satisfied element,
// not always the same one.
TEST(SyncLocal, AnyVisitsEverySatisfiedElement) {
  SymArray<long> ivars(6);
  for (int i = 0; i < 6; ++i) ivars[i] = (i % 2) ? 1 : 0;
  std::set<std::size_t> seen_test, seen_wait;
  for (int k = 0; k < 12; ++k) {
    seen_test.insert(shmem_long_test_any(ivars.get(), 6, nullptr, SHMEM_CMP_EQ, 1));
    seen_wait.insert(shmem_long_wait_until_any(ivars.get(), 6, nullptr, SHMEM_CMP_EQ, 1));
  }
  const std::set<std::size_t> odd = {1, 3, 5};
  EXPECT_EQ(seen_test, odd);
  EXPECT_EQ(seen_wait, odd);
  shmem_barrier_all();
}

namespace {

// The routine shapes PE 0 exercises against updates from every PE.
enum class Form { wait_until, test, all, any, some, test_all, test_any, test_some };
const Form kForms[] = {Form::wait_until, Form::test,     Form::all,      Form::any,
                       Form::some,       Form::test_all, Form::test_any, Form::test_some};
const char* form_name(Form f) {
  switch (f) {
    case Form::wait_until:
      return "wait_until";
    case Form::test:
      return "test";
    case Form::all:
      return "wait_until_all";
    case Form::any:
      return "wait_until_any";
    case Form::some:
      return "wait_until_some";
    case Form::test_all:
      return "test_all";
    case Form::test_any:
      return "test_any";
    case Form::test_some:
      return "test_some";
  }
  return "?";
}

// PE 0 owns slots = 2 * npes + 2 variables. PE k sets slots k and k + npes (in a random order,
// after random delays) to 1 + slot; the last two slots are never written and are excluded by
// the status mask (every form must return without them). The initial value and the
// comparison are chosen so that only the written value satisfies the condition.
template <class Ops>
void remote_round(const Ops& ops, Form form, bool vector, int cmp, unsigned seed) {
  using T = typename Ops::type;
  const int n = npes();
  const std::size_t slots = 2 * static_cast<std::size_t>(n) + 2;
  SymArray<T> ivars(slots);
  // initial value / scalar reference such that 1 + slot satisfies cmp and the initial not.
  const bool low = cmp == SHMEM_CMP_LT || cmp == SHMEM_CMP_LE;
  const T init = static_cast<T>(low ? 1000 : 0);
  T ref = init;
  if (cmp == SHMEM_CMP_GE) ref = static_cast<T>(1);
  if (cmp == SHMEM_CMP_LE) ref = static_cast<T>(999);
  std::vector<T> refs(slots);
  for (std::size_t i = 0; i < slots; ++i)
    refs[i] = cmp == SHMEM_CMP_EQ ? static_cast<T>(1 + i) : ref;
  if (cmp == SHMEM_CMP_EQ) vector = true;  // EQ needs one value per slot
  for (std::size_t i = 0; i < slots; ++i) ivars[i] = init;
  std::vector<int> status(slots, 0);
  status[slots - 1] = status[slots - 2] = 1;
  const std::size_t written = slots - 2;
  SCOPED_TRACE(std::string(ops.name) + " " + form_name(form) + (vector ? "_vector" : "") + " cmp " +
               std::to_string(cmp));
  shmem_barrier_all();

  if (me() == 0) {
    // Before anyone writes: nothing is satisfied.
    std::vector<std::size_t> idx(slots);
    EXPECT_EQ(ops.test(ivars.get(), cmp, refs[0]), 0);
    EXPECT_EQ(ops.test_any_vector(ivars.get(), slots, nullptr, cmp, refs.data()), SIZE_MAX);
    EXPECT_EQ(ops.test_some_vector(ivars.get(), slots, idx.data(), nullptr, cmp, refs.data()), 0u);
    EXPECT_EQ(ops.test_all_vector(ivars.get(), slots, status.data(), cmp, refs.data()), 0);
  }
  shmem_barrier_all();  // the writers start only now

  std::mt19937 rng(seed + 7919u * static_cast<unsigned>(me()));
  std::size_t mine[2] = {static_cast<std::size_t>(me()), static_cast<std::size_t>(me() + n)};
  if (rng() % 2) std::swap(mine[0], mine[1]);
  for (std::size_t s : mine) {
    pause_us(rng() % 400);
    ops.atomic_set(&ivars[s], static_cast<T>(1 + s), 0);
  }

  if (me() == 0) {
    std::vector<int> st = status;  // processed slots get excluded as they are found
    std::vector<std::size_t> idx(slots);
    std::size_t found = 0;
    auto check_index = [&](std::size_t i, const char* how) {
      if (i >= written || st[i] != 0) {
        ADD_FAILURE() << how << " returned index " << i << " (excluded or out of range)";
        return false;
      }
      EXPECT_EQ(ivars[i], static_cast<T>(1 + i)) << how << " returned unsatisfied slot " << i;
      st[i] = 1;
      ++found;
      return true;
    };
    T* vals = refs.data();
    switch (form) {
      case Form::wait_until:
        for (std::size_t i = 0; i < written; ++i) {
          ops.wait_until(&ivars[i], cmp, refs[i]);
          EXPECT_EQ(ivars[i], static_cast<T>(1 + i));
          ++found;
        }
        break;
      case Form::test:
        for (std::size_t i = 0; i < written; ++i) {
          while (ops.test(&ivars[i], cmp, refs[i]) == 0) {
          }
          EXPECT_EQ(ivars[i], static_cast<T>(1 + i));
          ++found;
        }
        break;
      case Form::all:
        vector ? ops.wait_until_all_vector(ivars.get(), slots, st.data(), cmp, vals)
               : ops.wait_until_all(ivars.get(), slots, st.data(), cmp, ref);
        for (std::size_t i = 0; i < written; ++i) EXPECT_EQ(ivars[i], static_cast<T>(1 + i));
        found = written;
        break;
      case Form::test_all:
        while ((vector ? ops.test_all_vector(ivars.get(), slots, st.data(), cmp, vals)
                       : ops.test_all(ivars.get(), slots, st.data(), cmp, ref)) == 0) {
        }
        for (std::size_t i = 0; i < written; ++i) EXPECT_EQ(ivars[i], static_cast<T>(1 + i));
        found = written;
        break;
      case Form::any:
      case Form::test_any:
        while (found < written) {
          const std::size_t i =
              form == Form::any
                  ? (vector ? ops.wait_until_any_vector(ivars.get(), slots, st.data(), cmp, vals)
                            : ops.wait_until_any(ivars.get(), slots, st.data(), cmp, ref))
                  : (vector ? ops.test_any_vector(ivars.get(), slots, st.data(), cmp, vals)
                            : ops.test_any(ivars.get(), slots, st.data(), cmp, ref));
          if (i == SIZE_MAX && form == Form::test_any) continue;
          if (!check_index(i, form_name(form))) break;
        }
        // Everything is excluded now: the wait set is empty.
        EXPECT_EQ(ops.wait_until_any(ivars.get(), slots, st.data(), cmp, ref), SIZE_MAX);
        break;
      case Form::some:
      case Form::test_some:
        while (found < written) {
          const std::size_t k =
              form == Form::some
                  ? (vector
                         ? ops.wait_until_some_vector(ivars.get(), slots, idx.data(), st.data(),
                                                      cmp, vals)
                         : ops.wait_until_some(ivars.get(), slots, idx.data(), st.data(), cmp, ref))
                  : (vector ? ops.test_some_vector(ivars.get(), slots, idx.data(), st.data(), cmp,
                                                   vals)
                            : ops.test_some(ivars.get(), slots, idx.data(), st.data(), cmp, ref));
          if (form == Form::some) EXPECT_GT(k, 0u);
          bool ok = k <= written;
          for (std::size_t j = 0; ok && j < k; ++j) ok = check_index(idx[j], form_name(form));
          if (!ok) break;
        }
        EXPECT_EQ(ops.wait_until_some(ivars.get(), slots, idx.data(), st.data(), cmp, ref), 0u);
        break;
    }
    EXPECT_EQ(found, written);
    // Afterwards the tests see every update.
    std::vector<std::size_t> idx2(slots);
    EXPECT_EQ(ops.test_all_vector(ivars.get(), slots, status.data(), cmp, refs.data()), 1);
    EXPECT_EQ(
        ops.test_some_vector(ivars.get(), slots, idx2.data(), status.data(), cmp, refs.data()),
        written);
  }
  shmem_barrier_all();
}

}  // namespace

// Every form, for every type, against updates from every PE; the comparison operator rotates
// so each form meets several.
TEST(SyncRemote, EveryFormEveryType) {
  unsigned seed = 1;
  int type_index = 0;
  for_each_sync_type([&](auto ops) {
    int k = type_index++;
    for (Form f : kForms) {
      const bool array = f != Form::wait_until && f != Form::test;
      for (int vector = 0; vector < (array ? 2 : 1); ++vector)
        remote_round(ops, f, vector != 0, kCmps[(k++) % 6], seed++);
    }
  });
}

// Message passing with put + fence + flag: the flag is awaited with wait_until, and the data
// must never be stale. Each PE sends to its right neighbour and acknowledges its left one.
TEST(SyncRemote, PutFenceFlagNeverStale) {
  constexpr std::size_t kMax = 64 * 1024;
  SymArray<unsigned char> data(kMax);
  SymArray<long> flags(2);  // [0] round delivered, [1] round acknowledged
  SHOAL_ASSERT_ALL_PES(data && flags);
  flags[0] = flags[1] = 0;
  shmem_barrier_all();
  const std::size_t sizes[] = {8, 1, 4096, kMax, 100, 12345};
  std::vector<unsigned char> src(kMax);
  int stale = 0;
  for (long r = 1; r <= 200; ++r) {
    const std::size_t sz = sizes[r % 6];
    for (std::size_t i = 0; i < sz; ++i) src[i] = static_cast<unsigned char>(me() * 31 + i + r);
    if (r % 2)
      shmem_putmem(data.get(), src.data(), sz, right());
    else
      shmem_putmem_nbi(data.get(), src.data(), sz, right());
    shmem_fence();
    if (r % 3)
      shmem_long_p(&flags[0], r, right());
    else
      shmem_long_atomic_set(&flags[0], r, right());
    shmem_long_wait_until(&flags[0], SHMEM_CMP_EQ, r);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < sz; ++i)
      bad += data[i] != static_cast<unsigned char>(left() * 31 + i + r);
    if (bad && stale++ < 3) ADD_FAILURE() << "round " << r << ": " << bad << " stale bytes";
    shmem_long_atomic_set(&flags[1], r, left());
    shmem_long_wait_until(&flags[1], SHMEM_CMP_GE, r);
  }
  EXPECT_EQ(stale, 0);
  shmem_barrier_all();
}

// shmem_wait / shmem_wait_until on longs, shmem_TYPENAME_wait, and the short / ushort
// wait_until and test, each released by a put from the left neighbour after a delay.
TEST(SyncDeprecated, OldWaitsAndShortTypes) {
  SymArray<long> l(2);
  SymArray<short> s(2);
  SymArray<unsigned short> us(1);
  SymArray<int> i(1);
  SymArray<long long> ll(1);
  SHOAL_ASSERT_ALL_PES(l && s && us && i && ll);
  for (int round = 1; round <= 3; ++round) {
    l[0] = l[1] = 0;
    s[0] = s[1] = 0;
    us[0] = 0;
    i[0] = 0;
    ll[0] = 0;
    shmem_barrier_all();
    EXPECT_EQ(shmem_short_test(&s[0], SHMEM_CMP_NE, 0), 0);
    EXPECT_EQ(shmem_ushort_test(&us[0], SHMEM_CMP_GT, 0), 0);
    shmem_barrier_all();
    pause_us(200u * static_cast<unsigned>(me() % 3));
    shmem_long_p(&l[0], round, right());
    shmem_long_p(&l[1], round, right());
    shmem_short_p(&s[0], static_cast<short>(-round), right());
    shmem_short_p(&s[1], static_cast<short>(round), right());
    shmem_ushort_p(&us[0], static_cast<unsigned short>(60000 + round), right());
    shmem_int_p(&i[0], round, right());
    shmem_longlong_p(&ll[0], round, right());
    shmem_wait(&l[0], 0);
    shmem_wait_until(&l[1], SHMEM_CMP_EQ, round);
    shmem_short_wait(&s[0], 0);
    shmem_short_wait_until(&s[1], SHMEM_CMP_GE, static_cast<short>(round));
    shmem_ushort_wait_until(&us[0], SHMEM_CMP_GT, 60000);
    shmem_int_wait(&i[0], 0);
    shmem_long_wait(&l[0], 0);
    shmem_longlong_wait(&ll[0], 0);
    EXPECT_EQ(l[0], round);
    EXPECT_EQ(l[1], round);
    EXPECT_EQ(s[0], -round);
    EXPECT_EQ(shmem_short_test(&s[0], SHMEM_CMP_LT, 0), 1);
    EXPECT_EQ(shmem_ushort_test(&us[0], SHMEM_CMP_EQ, static_cast<unsigned short>(60000 + round)),
              1);
    EXPECT_EQ(i[0], round);
    EXPECT_EQ(ll[0], round);
    shmem_barrier_all();
  }
}

// The C++ overloads of <shmem.h> reach the typed routines.
TEST(SyncNames, CxxOverloads) {
  SymArray<int> iv(2);
  SymArray<unsigned long> ul(2);
  iv[0] = 3;
  iv[1] = 4;
  ul[0] = 7;
  ul[1] = 8;
  std::size_t idx[2];
  int ref[2] = {3, 4};
  shmem_wait_until(&iv[0], SHMEM_CMP_EQ, 3);
  EXPECT_EQ(shmem_test(&ul[0], SHMEM_CMP_GT, 6ul), 1);
  EXPECT_EQ(shmem_test_any(iv.get(), 2, nullptr, SHMEM_CMP_EQ, 4), 1u);
  EXPECT_EQ(shmem_test_some(ul.get(), 2, idx, nullptr, SHMEM_CMP_GE, 7ul), 2u);
  EXPECT_EQ(shmem_test_all_vector(iv.get(), 2, nullptr, SHMEM_CMP_EQ, ref), 1);
  EXPECT_EQ(shmem_wait_until_any_vector(iv.get(), 2, nullptr, SHMEM_CMP_EQ, ref) < 2, true);
  shmem_wait_until_all(ul.get(), 2, nullptr, SHMEM_CMP_LE, 8ul);
  EXPECT_EQ(shmem_wait_until_some(iv.get(), 2, idx, nullptr, SHMEM_CMP_NE, 0), 2u);
  shmem_barrier_all();
}

// The C11 _Generic names (sync_generic_c11.c).
TEST(SyncNames, C11Generic) {
  EXPECT_EQ(shoal_sync_c11_generic_tests(), 0);
  shmem_barrier_all();
}
