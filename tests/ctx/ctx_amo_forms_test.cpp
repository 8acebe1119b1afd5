// Every shmem_ctx_<TYPENAME>_atomic_* routine (standard, extended and bitwise tables, blocking
// and _nbi) on a context made by shmem_ctx_create. Each PE runs a fixed sequence of operations
// against three targets of its own: the right neighbour's heap slot, its own heap slot and the
// right neighbour's .bss slot (reached through UCX even when heaps are mapped). Every target is
// used by exactly one PE, so every fetched value and every final value is known exactly. The
// contexts come from a pool with one context per option combination (ctx_pool.hpp).
//
// A non-fetching AMO followed by another AMO on the same location is separated by
// shmem_ctx_fence (the specification does not order them otherwise); nbi fetches land in a
// poisoned buffer and are read only after shmem_ctx_quiet.
#include "ctx_pool.hpp"
#include "type_lists.hpp"
#include "type_tables.def"

#include <tuple>

using namespace shoal::test;
using namespace shoal::test::ctx;

namespace {

#define SHOAL_ID(...) __VA_ARGS__

// Adapters over the ctx AMO routines of one type.
#define SHOAL_CTX_AMO_EXTENDED(TN, T)                                                             \
  static T fetch(shmem_ctx_t c, const T* s, int pe) {                                             \
    return shmem_ctx_##TN##_atomic_fetch(c, s, pe);                                               \
  }                                                                                               \
  static void fetch_nbi(shmem_ctx_t c, T* f, const T* s, int pe) {                                \
    shmem_ctx_##TN##_atomic_fetch_nbi(c, f, s, pe);                                               \
  }                                                                                               \
  static void set(shmem_ctx_t c, T* d, T v, int pe) { shmem_ctx_##TN##_atomic_set(c, d, v, pe); } \
  static T swap(shmem_ctx_t c, T* d, T v, int pe) {                                               \
    return shmem_ctx_##TN##_atomic_swap(c, d, v, pe);                                             \
  }                                                                                               \
  static void swap_nbi(shmem_ctx_t c, T* f, T* d, T v, int pe) {                                  \
    shmem_ctx_##TN##_atomic_swap_nbi(c, f, d, v, pe);                                             \
  }
#define SHOAL_CTX_AMO_STANDARD(TN, T)                                                     \
  static T compare_swap(shmem_ctx_t c, T* d, T cond, T v, int pe) {                       \
    return shmem_ctx_##TN##_atomic_compare_swap(c, d, cond, v, pe);                       \
  }                                                                                       \
  static void compare_swap_nbi(shmem_ctx_t c, T* f, T* d, T cond, T v, int pe) {          \
    shmem_ctx_##TN##_atomic_compare_swap_nbi(c, f, d, cond, v, pe);                       \
  }                                                                                       \
  static T fetch_inc(shmem_ctx_t c, T* d, int pe) {                                       \
    return shmem_ctx_##TN##_atomic_fetch_inc(c, d, pe);                                   \
  }                                                                                       \
  static void fetch_inc_nbi(shmem_ctx_t c, T* f, T* d, int pe) {                          \
    shmem_ctx_##TN##_atomic_fetch_inc_nbi(c, f, d, pe);                                   \
  }                                                                                       \
  static void inc(shmem_ctx_t c, T* d, int pe) { shmem_ctx_##TN##_atomic_inc(c, d, pe); } \
  static T fetch_add(shmem_ctx_t c, T* d, T v, int pe) {                                  \
    return shmem_ctx_##TN##_atomic_fetch_add(c, d, v, pe);                                \
  }                                                                                       \
  static void fetch_add_nbi(shmem_ctx_t c, T* f, T* d, T v, int pe) {                     \
    shmem_ctx_##TN##_atomic_fetch_add_nbi(c, f, d, v, pe);                                \
  }                                                                                       \
  static void add(shmem_ctx_t c, T* d, T v, int pe) { shmem_ctx_##TN##_atomic_add(c, d, v, pe); }
#define SHOAL_CTX_AMO_BITWISE(TN, T)                                  \
  static T fetch_and(shmem_ctx_t c, T* d, T v, int pe) {              \
    return shmem_ctx_##TN##_atomic_fetch_and(c, d, v, pe);            \
  }                                                                   \
  static void fetch_and_nbi(shmem_ctx_t c, T* f, T* d, T v, int pe) { \
    shmem_ctx_##TN##_atomic_fetch_and_nbi(c, f, d, v, pe);            \
  }                                                                   \
  static void bit_and(shmem_ctx_t c, T* d, T v, int pe) {             \
    shmem_ctx_##TN##_atomic_and(c, d, v, pe);                         \
  }                                                                   \
  static T fetch_or(shmem_ctx_t c, T* d, T v, int pe) {               \
    return shmem_ctx_##TN##_atomic_fetch_or(c, d, v, pe);             \
  }                                                                   \
  static void fetch_or_nbi(shmem_ctx_t c, T* f, T* d, T v, int pe) {  \
    shmem_ctx_##TN##_atomic_fetch_or_nbi(c, f, d, v, pe);             \
  }                                                                   \
  static void bit_or(shmem_ctx_t c, T* d, T v, int pe) {              \
    shmem_ctx_##TN##_atomic_or(c, d, v, pe);                          \
  }                                                                   \
  static T fetch_xor(shmem_ctx_t c, T* d, T v, int pe) {              \
    return shmem_ctx_##TN##_atomic_fetch_xor(c, d, v, pe);            \
  }                                                                   \
  static void fetch_xor_nbi(shmem_ctx_t c, T* f, T* d, T v, int pe) { \
    shmem_ctx_##TN##_atomic_fetch_xor_nbi(c, f, d, v, pe);            \
  }                                                                   \
  static void bit_xor(shmem_ctx_t c, T* d, T v, int pe) {             \
    shmem_ctx_##TN##_atomic_xor(c, d, v, pe);                         \
  }

#define SHOAL_STD_STRUCT(TN, T)              \
  struct StdAmo_##TN {                       \
    using type = T;                          \
    static constexpr const char* name = #TN; \
    SHOAL_CTX_AMO_EXTENDED(TN, T)            \
    SHOAL_CTX_AMO_STANDARD(TN, T)            \
  };
#define SHOAL_EXT_STRUCT(TN, T)              \
  struct ExtAmo_##TN {                       \
    using type = T;                          \
    static constexpr const char* name = #TN; \
    SHOAL_CTX_AMO_EXTENDED(TN, T)            \
  };
#define SHOAL_BIT_STRUCT(TN, T)              \
  struct BitAmo_##TN {                       \
    using type = T;                          \
    static constexpr const char* name = #TN; \
    SHOAL_CTX_AMO_BITWISE(TN, T)             \
  };
SMA_AMO_STANDARD_TYPES(SHOAL_STD_STRUCT)
SMA_AMO_STANDARD_TYPES(SHOAL_EXT_STRUCT)
SMA_AMO_EXTENDED_ONLY_TYPES(SHOAL_EXT_STRUCT)
SMA_AMO_BITWISE_TYPES(SHOAL_BIT_STRUCT)
#undef SHOAL_STD_STRUCT
#undef SHOAL_EXT_STRUCT
#undef SHOAL_BIT_STRUCT

// The rows this build tests (type_lists.hpp).
#define SHOAL_ELEM(PREFIX, TN) std::tuple<PREFIX##TN>{},
#define SHOAL_STD_ELEM(TN, T) SHOAL_ELEM(StdAmo_, TN)
#define SHOAL_EXT_ELEM(TN, T) SHOAL_ELEM(ExtAmo_, TN)
#define SHOAL_BIT_ELEM(TN, T) SHOAL_ELEM(BitAmo_, TN)
using StandardAmos =
    TestedTypes<decltype(std::tuple_cat(SMA_AMO_STANDARD_TYPES(SHOAL_STD_ELEM) std::tuple<>{}))>;
using ExtendedAmos = TestedTypes<decltype(std::tuple_cat(SMA_AMO_STANDARD_TYPES(
    SHOAL_EXT_ELEM) SMA_AMO_EXTENDED_ONLY_TYPES(SHOAL_EXT_ELEM) std::tuple<>{}))>;
using BitwiseAmos =
    TestedTypes<decltype(std::tuple_cat(SMA_AMO_BITWISE_TYPES(SHOAL_BIT_ELEM) std::tuple<>{}))>;

struct AmoName {
  template <class A>
  static std::string GetName(int) {
    return A::name;
  }
};

template <class T>
T poison() {
  T v;
  std::memset(&v, 0xA5, sizeof v);
  return v;
}

// .bss targets, 16-byte aligned, one 8-byte word per PE role (only index 0 is used: each PE
// owns its own copy and only its left neighbour targets it).
alignas(16) unsigned char g_static_word[16];

// Where a sequence runs: the slot (an address valid on every PE) and the PE holding it.
template <class T>
struct Target {
  const char* name;
  T* slot;
  int pe;
};

// Runs `ops(c, slot, pe)` (which returns the value it expects the slot to hold at the end) on
// the three targets, then checks the final value of the slots this PE owns. Collective.
template <class T, class Sequence>
void on_three_targets(shmem_ctx_t c, T init, Sequence sequence) {
  SymArray<T> heap(2);  // [0]: targeted by the left neighbour, [1]: by this PE itself
  SHOAL_ASSERT_ALL_PES(heap);
  T* static_slot = reinterpret_cast<T*>(g_static_word);
  heap[0] = init;
  heap[1] = init;
  std::memcpy(g_static_word, &init, sizeof init);
  shmem_barrier_all();

  const Target<T> targets[] = {
      {"right neighbour's heap slot", &heap[0], right()},
      {"own heap slot", &heap[1], me()},
      {"right neighbour's .bss slot", static_slot, right()},
  };
  T want_final[3];
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(targets[k].name);
    want_final[k] = sequence(c, targets[k].slot, targets[k].pe);
  }
  shmem_ctx_quiet(c);
  shmem_barrier_all();
  // The left neighbour ran the same sequence on my heap[0] and my .bss slot; I ran it on heap[1].
  T static_now;
  std::memcpy(&static_now, g_static_word, sizeof static_now);
  EXPECT_TRUE(same_value(heap[0], want_final[0]))
      << "heap slot after the left neighbour's sequence: " << show(heap[0]) << ", expected "
      << show(want_final[0]);
  EXPECT_TRUE(same_value(heap[1], want_final[1]))
      << "own heap slot after own sequence: " << show(heap[1]) << ", expected "
      << show(want_final[1]);
  EXPECT_TRUE(same_value(static_now, want_final[2]))
      << ".bss slot after the left neighbour's sequence: " << show(static_now) << ", expected "
      << show(want_final[2]);
  shmem_barrier_all();
}

#define SHOAL_EXPECT_VAL(got, want, what)   \
  EXPECT_TRUE(same_value<T>((got), (want))) \
      << what << ": got " << show<T>(got) << ", expected " << show<T>(want)

template <class A>
class CtxAmoFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    const int i = next_pool_index();
    options_name_ = kOptionCases[i].name;
    ctx_ = g_context_pool->get(i);
    EXPECT_NE(ctx_, SHMEM_CTX_INVALID)
        << "shmem_ctx_create(" << options_name_ << ") failed at start-up";
    ASSERT_TRUE(all_pes(ctx_ != SHMEM_CTX_INVALID)) << "context creation failed on some PE";
  }
  void TearDown() override { shmem_barrier_all(); }
  shmem_ctx_t ctx_ = SHMEM_CTX_INVALID;
  const char* options_name_ = "";
};

}  // namespace

// fetch, fetch_nbi, set, swap, swap_nbi: every standard type plus float and double.
template <class A>
class CtxAmoExtended : public CtxAmoFixture<A> {};
TYPED_TEST_SUITE(CtxAmoExtended, ExtendedAmos, AmoName);

TYPED_TEST(CtxAmoExtended, FetchSetSwap) {
  using A = TypeParam;
  using T = typename A::type;
  SCOPED_TRACE(std::string("context options ") + this->options_name_);
  const T v0 = static_cast<T>(3.5), v1 = static_cast<T>(10.25), v2 = static_cast<T>(20.75),
          v3 = static_cast<T>(30.5);
  on_three_targets<T>(this->ctx_, v0, [&](shmem_ctx_t c, T* x, int pe) {
    SHOAL_EXPECT_VAL(A::fetch(c, x, pe), v0, "fetch");
    T f = poison<T>();
    A::fetch_nbi(c, &f, x, pe);
    shmem_ctx_quiet(c);
    SHOAL_EXPECT_VAL(f, v0, "fetch_nbi after ctx quiet");
    A::set(c, x, v1, pe);
    shmem_ctx_fence(c);
    SHOAL_EXPECT_VAL(A::swap(c, x, v2, pe), v1, "swap after set");
    f = poison<T>();
    A::swap_nbi(c, &f, x, v3, pe);
    shmem_ctx_quiet(c);
    SHOAL_EXPECT_VAL(f, v2, "swap_nbi after ctx quiet");
    SHOAL_EXPECT_VAL(A::fetch(c, x, pe), v3, "fetch after swap_nbi");
    return v3;
  });
}

// compare_swap(+nbi), fetch_inc(+nbi), inc, fetch_add(+nbi), add: the standard types.
template <class A>
class CtxAmoStandard : public CtxAmoFixture<A> {};
TYPED_TEST_SUITE(CtxAmoStandard, StandardAmos, AmoName);

TYPED_TEST(CtxAmoStandard, ArithmeticAndCompareSwap) {
  using A = TypeParam;
  using T = typename A::type;
  SCOPED_TRACE(std::string("context options ") + this->options_name_);
  on_three_targets<T>(this->ctx_, T(30), [&](shmem_ctx_t c, T* x, int pe) {
    SHOAL_EXPECT_VAL(A::compare_swap(c, x, T(30), T(40), pe), T(30), "compare_swap (match)");
    SHOAL_EXPECT_VAL(A::compare_swap(c, x, T(99), T(50), pe), T(40), "compare_swap (no match)");
    T f = poison<T>();
    A::compare_swap_nbi(c, &f, x, T(40), T(41), pe);
    shmem_ctx_quiet(c);
    SHOAL_EXPECT_VAL(f, T(40), "compare_swap_nbi after ctx quiet");
    SHOAL_EXPECT_VAL(A::fetch_inc(c, x, pe), T(41), "fetch_inc");
    f = poison<T>();
    A::fetch_inc_nbi(c, &f, x, pe);
    shmem_ctx_quiet(c);
    SHOAL_EXPECT_VAL(f, T(42), "fetch_inc_nbi after ctx quiet");
    A::inc(c, x, pe);
    shmem_ctx_fence(c);
    SHOAL_EXPECT_VAL(A::fetch_add(c, x, T(5), pe), T(44), "fetch_add after inc");
    f = poison<T>();
    A::fetch_add_nbi(c, &f, x, T(6), pe);
    shmem_ctx_quiet(c);
    SHOAL_EXPECT_VAL(f, T(49), "fetch_add_nbi after ctx quiet");
    A::add(c, x, T(7), pe);
    shmem_ctx_fence(c);
    SHOAL_EXPECT_VAL(A::compare_swap(c, x, T(62), T(63), pe), T(62), "compare_swap after add");
    return T(63);
  });
}

// fetch_and/or/xor (+nbi) and and/or/xor: the bitwise types.
template <class A>
class CtxAmoBitwise : public CtxAmoFixture<A> {};
TYPED_TEST_SUITE(CtxAmoBitwise, BitwiseAmos, AmoName);

TYPED_TEST(CtxAmoBitwise, AndOrXor) {
  using A = TypeParam;
  using T = typename A::type;
  SCOPED_TRACE(std::string("context options ") + this->options_name_);
  // 0x5A5A5A5A is positive in every bitwise type; the masks touch high and low halves.
  const T init = static_cast<T>(0x5A5A5A5AULL);
  const T m1 = static_cast<T>(0x0FF00FF0ULL), m2 = static_cast<T>(0x30000003ULL),
          m3 = static_cast<T>(0x00FFFF00ULL), m4 = static_cast<T>(0x11111111ULL),
          m5 = static_cast<T>(0x7F00007FULL), m6 = static_cast<T>(0x0000F0F0ULL);
  on_three_targets<T>(this->ctx_, init, [&](shmem_ctx_t c, T* x, int pe) {
    T want = init;
    SHOAL_EXPECT_VAL(A::fetch_and(c, x, m1, pe), want, "fetch_and");
    want = static_cast<T>(want & m1);
    T f = poison<T>();
    A::fetch_or_nbi(c, &f, x, m2, pe);
    shmem_ctx_quiet(c);
    SHOAL_EXPECT_VAL(f, want, "fetch_or_nbi after ctx quiet");
    want = static_cast<T>(want | m2);
    SHOAL_EXPECT_VAL(A::fetch_xor(c, x, m3, pe), want, "fetch_xor");
    want = static_cast<T>(want ^ m3);
    A::bit_or(c, x, m4, pe);
    want = static_cast<T>(want | m4);
    shmem_ctx_fence(c);
    f = poison<T>();
    A::fetch_and_nbi(c, &f, x, m5, pe);
    shmem_ctx_quiet(c);
    SHOAL_EXPECT_VAL(f, want, "fetch_and_nbi after or");
    want = static_cast<T>(want & m5);
    A::bit_xor(c, x, m6, pe);
    want = static_cast<T>(want ^ m6);
    shmem_ctx_fence(c);
    f = poison<T>();
    A::fetch_xor_nbi(c, &f, x, m4, pe);
    shmem_ctx_quiet(c);
    SHOAL_EXPECT_VAL(f, want, "fetch_xor_nbi after xor");
    want = static_cast<T>(want ^ m4);
    A::bit_and(c, x, m3, pe);
    want = static_cast<T>(want & m3);
    shmem_ctx_fence(c);
    SHOAL_EXPECT_VAL(A::fetch_or(c, x, m2, pe), want, "fetch_or after and");
    want = static_cast<T>(want | m2);
    return want;
  });
}
