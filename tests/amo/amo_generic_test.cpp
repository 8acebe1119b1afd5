// The type-generic AMO names: the C++ overloads of <shmem.h> here, the C11 _Generic macros in
// amo_generic_c11.c (compiled as C11 and driven from the test at the end). Every generic name,
// with and without a context argument, is called for every C type it accepts, on the calling PE
// and on the next PE; a call that reached the routine of another width would leave a wrong
// value or overwrite the guard elements around its target.
#include "amo_scenarios.hpp"

#include <cstdint>

extern "C" int shoal_amo_c11_generic_tests(int* families_run);

using namespace shoal::test;
using namespace shoal::test::amo;

namespace {

template <class T>
inline constexpr bool kStandard = std::is_integral_v<T>;
// Bitwise overloads exist for unsigned int, unsigned long, unsigned long long and, through the
// int32_t / int64_t overloads, for int and long.
template <class T>
inline constexpr bool kBitwise =
    std::is_same_v<T, unsigned int> || std::is_same_v<T, unsigned long> ||
    std::is_same_v<T, unsigned long long> || std::is_same_v<T, std::int32_t> ||
    std::is_same_v<T, std::int64_t>;
template <class T>
inline constexpr bool kDeprecatedStandard =
    std::is_same_v<T, int> || std::is_same_v<T, long> || std::is_same_v<T, long long>;
template <class T>
inline constexpr bool kDeprecatedExtended =
    kDeprecatedStandard<T> || std::is_same_v<T, float> || std::is_same_v<T, double>;

template <class T>
T v(long long x) {
  return static_cast<T>(x);
}

// Runs every applicable overload on *p of PE t, which holds v<T>(10); returns the value left.
template <class T>
T overload_steps(T* p, int t) {
  shmem_ctx_t c = SHMEM_CTX_DEFAULT;
  T f = poison<T>();
  const T* cp = p;
  SHOAL_EXPECT_AMO("shmem_atomic_fetch", shmem_atomic_fetch(p, t), v<T>(10));
  SHOAL_EXPECT_AMO("shmem_atomic_fetch(const)", shmem_atomic_fetch(cp, t), v<T>(10));
  SHOAL_EXPECT_AMO("shmem_atomic_fetch(ctx)", shmem_atomic_fetch(c, cp, t), v<T>(10));
  shmem_atomic_set(p, v<T>(20), t);
  shmem_quiet();
  SHOAL_EXPECT_AMO("shmem_atomic_fetch after shmem_atomic_set", shmem_atomic_fetch(p, t), v<T>(20));
  shmem_atomic_set(c, p, v<T>(21), t);
  shmem_ctx_quiet(c);
  SHOAL_EXPECT_AMO("shmem_atomic_swap", shmem_atomic_swap(p, v<T>(22), t), v<T>(21));
  SHOAL_EXPECT_AMO("shmem_atomic_swap(ctx)", shmem_atomic_swap(c, p, v<T>(23), t), v<T>(22));
  shmem_atomic_fetch_nbi(&f, cp, t);
  shmem_quiet();
  SHOAL_EXPECT_AMO("shmem_atomic_fetch_nbi", f, v<T>(23));
  f = poison<T>();
  shmem_atomic_fetch_nbi(c, &f, cp, t);
  shmem_ctx_quiet(c);
  SHOAL_EXPECT_AMO("shmem_atomic_fetch_nbi(ctx)", f, v<T>(23));
  shmem_atomic_swap_nbi(&f, p, v<T>(24), t);
  shmem_quiet();
  SHOAL_EXPECT_AMO("shmem_atomic_swap_nbi", f, v<T>(23));
  shmem_atomic_swap_nbi(c, &f, p, v<T>(25), t);
  shmem_ctx_quiet(c);
  SHOAL_EXPECT_AMO("shmem_atomic_swap_nbi(ctx)", f, v<T>(24));
  T cur = v<T>(25);

  if constexpr (kStandard<T>) {
    SHOAL_EXPECT_AMO("shmem_atomic_compare_swap (fails)",
                     shmem_atomic_compare_swap(p, v<T>(0), v<T>(1), t), v<T>(25));
    SHOAL_EXPECT_AMO("shmem_atomic_compare_swap",
                     shmem_atomic_compare_swap(p, v<T>(25), v<T>(30), t), v<T>(25));
    SHOAL_EXPECT_AMO("shmem_atomic_compare_swap(ctx)",
                     shmem_atomic_compare_swap(c, p, v<T>(30), v<T>(31), t), v<T>(30));
    shmem_atomic_compare_swap_nbi(&f, p, v<T>(31), v<T>(32), t);
    shmem_quiet();
    SHOAL_EXPECT_AMO("shmem_atomic_compare_swap_nbi", f, v<T>(31));
    shmem_atomic_compare_swap_nbi(c, &f, p, v<T>(32), v<T>(33), t);
    shmem_ctx_quiet(c);
    SHOAL_EXPECT_AMO("shmem_atomic_compare_swap_nbi(ctx)", f, v<T>(32));
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_inc", shmem_atomic_fetch_inc(p, t), v<T>(33));
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_inc(ctx)", shmem_atomic_fetch_inc(c, p, t), v<T>(34));
    shmem_atomic_inc(p, t);
    shmem_atomic_inc(c, p, t);
    shmem_quiet();
    shmem_atomic_fetch_inc_nbi(&f, p, t);
    shmem_quiet();
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_inc_nbi after shmem_atomic_inc", f, v<T>(37));
    shmem_atomic_fetch_inc_nbi(c, &f, p, t);
    shmem_ctx_quiet(c);
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_inc_nbi(ctx)", f, v<T>(38));
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_add", shmem_atomic_fetch_add(p, v<T>(5), t), v<T>(39));
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_add(ctx)", shmem_atomic_fetch_add(c, p, v<T>(5), t),
                     v<T>(44));
    shmem_atomic_add(p, v<T>(5), t);
    shmem_atomic_add(c, p, v<T>(5), t);
    shmem_quiet();
    shmem_atomic_fetch_add_nbi(&f, p, v<T>(1), t);
    shmem_quiet();
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_add_nbi after shmem_atomic_add", f, v<T>(59));
    shmem_atomic_fetch_add_nbi(c, &f, p, v<T>(1), t);
    shmem_ctx_quiet(c);
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_add_nbi(ctx)", f, v<T>(60));
    cur = v<T>(61);
    SHOAL_EXPECT_AMO("value after the standard overloads", shmem_atomic_fetch(p, t), cur);
  }

  if constexpr (kBitwise<T>) {
    shmem_atomic_set(p, v<T>(0x0A), t);
    shmem_quiet();
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_or", shmem_atomic_fetch_or(p, v<T>(0xF0), t), v<T>(0x0A));
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_or(ctx)", shmem_atomic_fetch_or(c, p, v<T>(0x100), t),
                     v<T>(0xFA));
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_and", shmem_atomic_fetch_and(p, v<T>(0xF0), t),
                     v<T>(0x1FA));
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_and(ctx)", shmem_atomic_fetch_and(c, p, v<T>(0x30), t),
                     v<T>(0xF0));
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_xor", shmem_atomic_fetch_xor(p, v<T>(0x11), t),
                     v<T>(0x30));
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_xor(ctx)", shmem_atomic_fetch_xor(c, p, v<T>(0x01), t),
                     v<T>(0x21));
    shmem_atomic_and(p, v<T>(0x2F), t);
    shmem_atomic_and(c, p, v<T>(0xFF), t);
    shmem_atomic_or(p, v<T>(0x01), t);
    shmem_atomic_or(c, p, v<T>(0x40), t);
    shmem_atomic_xor(p, v<T>(0x01), t);
    shmem_atomic_xor(c, p, v<T>(0x0F), t);
    shmem_quiet();
    SHOAL_EXPECT_AMO("after shmem_atomic_{and,or,xor}", shmem_atomic_fetch(p, t), v<T>(0x6F));
    shmem_atomic_fetch_and_nbi(&f, p, v<T>(0x0F), t);
    shmem_quiet();
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_and_nbi", f, v<T>(0x6F));
    shmem_atomic_fetch_and_nbi(c, &f, p, v<T>(0x07), t);
    shmem_ctx_quiet(c);
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_and_nbi(ctx)", f, v<T>(0x0F));
    shmem_atomic_fetch_or_nbi(&f, p, v<T>(0x80), t);
    shmem_quiet();
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_or_nbi", f, v<T>(0x07));
    shmem_atomic_fetch_or_nbi(c, &f, p, v<T>(0x100), t);
    shmem_ctx_quiet(c);
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_or_nbi(ctx)", f, v<T>(0x87));
    shmem_atomic_fetch_xor_nbi(&f, p, v<T>(0x01), t);
    shmem_quiet();
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_xor_nbi", f, v<T>(0x187));
    shmem_atomic_fetch_xor_nbi(c, &f, p, v<T>(0x06), t);
    shmem_ctx_quiet(c);
    SHOAL_EXPECT_AMO("shmem_atomic_fetch_xor_nbi(ctx)", f, v<T>(0x186));
    cur = v<T>(0x180);
  }

  if constexpr (kDeprecatedExtended<T>) {
    SHOAL_EXPECT_AMO("shmem_fetch", shmem_fetch(cp, t), cur);
    shmem_set(p, v<T>(70), t);
    shmem_quiet();
    SHOAL_EXPECT_AMO("shmem_fetch after shmem_set", shmem_fetch(p, t), v<T>(70));
    SHOAL_EXPECT_AMO("shmem_swap", shmem_swap(p, v<T>(71), t), v<T>(70));  // long: the C routine
    cur = v<T>(71);
  }
  if constexpr (kDeprecatedStandard<T>) {
    SHOAL_EXPECT_AMO("shmem_cswap", shmem_cswap(p, v<T>(71), v<T>(72), t), v<T>(71));
    SHOAL_EXPECT_AMO("shmem_cswap (fails)", shmem_cswap(p, v<T>(71), v<T>(0), t), v<T>(72));
    SHOAL_EXPECT_AMO("shmem_finc", shmem_finc(p, t), v<T>(72));
    shmem_inc(p, t);
    shmem_quiet();
    SHOAL_EXPECT_AMO("shmem_fadd after shmem_inc", shmem_fadd(p, v<T>(3), t), v<T>(74));
    shmem_add(p, v<T>(6), t);
    shmem_quiet();
    cur = v<T>(83);
    SHOAL_EXPECT_AMO("value after the deprecated overloads", shmem_fetch(p, t), cur);
  }
  return cur;
}

}  // namespace

template <class T>
class AmoCxxOverloads : public ::testing::Test {};
using CxxTypes = ::testing::Types<int, long, long long, unsigned int, unsigned long,
                                  unsigned long long, float, double>;
struct CxxTypeName {
  template <class T>
  static std::string GetName(int) {
    if (std::is_same_v<T, int>) return "int";
    if (std::is_same_v<T, long>) return "long";
    if (std::is_same_v<T, long long>) return "longlong";
    if (std::is_same_v<T, unsigned int>) return "uint";
    if (std::is_same_v<T, unsigned long>) return "ulong";
    if (std::is_same_v<T, unsigned long long>) return "ulonglong";
    if (std::is_same_v<T, float>) return "float";
    return "double";
  }
};
TYPED_TEST_SUITE(AmoCxxOverloads, CxxTypes, CxxTypeName);

TYPED_TEST(AmoCxxOverloads, AllNames) {
  using T = TypeParam;
  for_each_place<T>([](T* base) {
    fill(base, [](int) { return v<T>(10); });
    shmem_barrier_all();
    T final_self, final_next;
    {
      SCOPED_TRACE("target: the calling PE");
      final_self = overload_steps(base + slot_index(0), me());
    }
    {
      SCOPED_TRACE("target: the next PE");
      final_next = overload_steps(base + slot_index(1), right());
    }
    EXPECT_TRUE(same(final_self, final_next));
    shmem_barrier_all();
    check_array(base, [&](int s, T& want) {
      want = s <= 1 ? final_self : v<T>(10);
      return true;
    });
    shmem_barrier_all();
  });
}

// The C11 _Generic names (amo_generic_c11.c): every family of every table, plus the untyped
// shmem_swap called as a function. The C code prints its own failures ("[PE k] C11 ...").
TEST(AmoC11Generic, AllNames) {
  int families = 0;
  const int bad = shoal_amo_c11_generic_tests(&families);
  EXPECT_EQ(bad, 0) << "PE " << me() << ": C11 generic calls gave wrong results (see above)";
  // 14 extended + 12 standard + 7 bitwise + 14 deprecated extended + 12 deprecated standard
  // types (the deprecated names take every standard AMO type, as in Sandia OpenSHMEM), and the
  // untyped shmem_swap.
  EXPECT_EQ(families, 14 + 12 + 7 + 14 + 12 + 1);
}
