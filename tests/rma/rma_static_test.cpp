// RMA to global and static variables (data and bss segments) instead of the heap. Built
// twice: as a PIE (Debian's default: the segments sit at a different address in every
// process) and as a non-PIE executable.
#include "rma_patterns.hpp"

#include <elf.h>

#include <cstdio>

using namespace shoal::test;

namespace {

// Room for 2 + 8 slots of 67 elements: enough for every pattern up to 8 PEs.
constexpr std::size_t kStaticElems = 10 * 67;
constexpr std::size_t kBig = std::size_t{4} << 20;

}  // namespace

// Per type: one array in .data (non-zero initialiser) and one in .bss, with external
// linkage, plus function-local statics reached through accessors below.
#define SHOAL_STATIC_ARRAYS(TN, T)                 \
  T g_data_##TN[kStaticElems] = {static_cast<T>(1)}; \
  T g_bss_##TN[kStaticElems];
SMA_RMA_TYPES(SHOAL_STATIC_ARRAYS)
#undef SHOAL_STATIC_ARRAYS

unsigned char g_big_bss[kBig + 64];
unsigned char g_big_data[(std::size_t{1} << 20) + 64] = {1, 2, 3};
static long s_file_static_bss[128];
static long s_file_static_data[128] = {7};

namespace {

template <class Ops>
struct Globals;
#define SHOAL_GLOBALS(TN, T)                                 \
  template <>                                                \
  struct Globals<Ops_##TN> {                                 \
    static T* data() { return g_data_##TN; }                 \
    static T* bss() { return g_bss_##TN; }                   \
    static T* local_static() {                               \
      static T arr[kStaticElems];                            \
      return arr;                                            \
    }                                                        \
  };
SMA_RMA_TYPES(SHOAL_GLOBALS)
#undef SHOAL_GLOBALS

template <class A, class Ops>
void static_put_get() {
  using T = typename A::T;
  const std::vector<std::size_t> sizes = {0, 1, 37, 61};
  run_put_patterns<T>("put to .data", Globals<Ops>::data(), kStaticElems, sizes, &A::put);
  run_put_patterns<T>("put to .bss", Globals<Ops>::bss(), kStaticElems, sizes, &A::put);
  run_put_patterns<T>("put to function static", Globals<Ops>::local_static(), kStaticElems, sizes,
                      &A::put);
  run_get_patterns<T>("get from .data", Globals<Ops>::data(), kStaticElems, sizes, &A::get);
  run_get_patterns<T>("get from .bss", Globals<Ops>::bss(), kStaticElems, sizes, &A::get);
}

}  // namespace

template <class Ops>
class RmaStatic : public ::testing::Test {};
TYPED_TEST_SUITE(RmaStatic, AllTypedOps, OpsName);

TYPED_TEST(RmaStatic, PutGet) { static_put_get<Api<TypeParam, false>, TypeParam>(); }
TYPED_TEST(RmaStatic, CtxPutGet) { static_put_get<Api<TypeParam, true>, TypeParam>(); }

TYPED_TEST(RmaStatic, PG) {
  using A = Api<TypeParam, false>;
  using T = typename A::T;
  const std::vector<std::size_t> sizes = {1, 13};
  run_put_patterns<T>("p to .bss", Globals<TypeParam>::bss(), kStaticElems, sizes,
                      [](T* d, const T* s, std::size_t n, int pe) {
                        for (std::size_t i = 0; i < n; ++i) A::p(d + i, s[i], pe);
                      });
  run_get_patterns<T>("g from .data", Globals<TypeParam>::data(), kStaticElems, sizes,
                      [](T* d, const T* s, std::size_t n, int pe) {
                        for (std::size_t i = 0; i < n; ++i) d[i] = A::g(s + i, pe);
                      });
}

TYPED_TEST(RmaStatic, StridedAndNbi) {
  using A = Api<TypeParam, false>;
  using T = typename A::T;
  const std::vector<std::size_t> counts = {1, 5, 37};
  run_iput_patterns<T>("iput to .bss", Globals<TypeParam>::bss(), kStaticElems, counts, &A::iput);
  run_iget_patterns<T>("iget from .data", Globals<TypeParam>::data(), kStaticElems, counts,
                       &A::iget);
  const std::vector<std::size_t> sizes = {1, 61};
  run_put_patterns<T>("put_nbi to .data", Globals<TypeParam>::data(), kStaticElems, sizes,
                      &A::put_nbi, &A::quiet, true);
  run_get_patterns<T>("get_nbi from .bss", Globals<TypeParam>::bss(), kStaticElems, sizes,
                      &A::get_nbi, &A::quiet);
#if SHOAL_TEST_HAVE_1_6
  run_ibput_patterns<T>("ibput to .data", Globals<TypeParam>::data(), kStaticElems, &A::ibput);
  run_ibget_patterns<T>("ibget from .bss", Globals<TypeParam>::bss(), kStaticElems, &A::ibget);
#endif
}

TEST(RmaStaticMem, LargeToBss) {
  const std::size_t n = kBig + 1;  // odd, just over 4 MiB
  const int self = me();
  for (std::size_t i = 0; i < sizeof g_big_bss; ++i) g_big_bss[i] = fill_sentinel<unsigned char>(i);
  std::vector<unsigned char> src(n);
  for (std::size_t i = 0; i < n; ++i) src[i] = fill_value<unsigned char>(self, i);
  shmem_barrier_all();
  shmem_putmem(g_big_bss + 3, src.data(), n, right());
  shmem_barrier_all();
  const int l = left();
  EXPECT_TRUE(check_range("4 MiB putmem into .bss", g_big_bss, 0, sizeof g_big_bss, [&](std::size_t i) {
    return (i >= 3 && i < 3 + n) ? fill_value<unsigned char>(l, i - 3)
                                 : fill_sentinel<unsigned char>(i);
  }));
  std::vector<unsigned char> back(n);
  shmem_getmem(back.data(), g_big_bss + 3, n, right());  // what I wrote there
  EXPECT_TRUE(check_range("4 MiB getmem from .bss", back.data(), 0, n,
                          [&](std::size_t i) { return src[i]; }));
  shmem_barrier_all();
}

TEST(RmaStaticMem, LargeNbiToData) {
  const std::size_t n = (std::size_t{1} << 20) + 7;
  const int self = me();
  for (std::size_t i = 0; i < sizeof g_big_data; ++i) g_big_data[i] = fill_sentinel<unsigned char>(i);
  std::vector<unsigned char> src(n);
  for (std::size_t i = 0; i < n; ++i) src[i] = fill_value<unsigned char>(self, i + 5);
  shmem_barrier_all();
  shmem_putmem_nbi(g_big_data + 1, src.data(), n, right());
  shmem_quiet();
  std::vector<unsigned char> back(n);
  shmem_getmem_nbi(back.data(), g_big_data + 1, n, right());
  shmem_quiet();
  EXPECT_TRUE(check_range("1 MiB getmem_nbi from .data", back.data(), 0, n,
                          [&](std::size_t i) { return src[i]; }));
  shmem_barrier_all();
  const int l = left();
  EXPECT_TRUE(check_range("1 MiB putmem_nbi into .data", g_big_data, 0, sizeof g_big_data,
                          [&](std::size_t i) {
                            return (i >= 1 && i < 1 + n) ? fill_value<unsigned char>(l, i - 1 + 5)
                                                         : fill_sentinel<unsigned char>(i);
                          }));
  shmem_barrier_all();
}

TEST(RmaStaticMem, FileStatics) {
  const int self = me();
  for (int i = 0; i < 128; ++i) s_file_static_bss[i] = s_file_static_data[i] = -1;
  long src[128];
  for (int i = 0; i < 128; ++i) src[i] = value_of<long>(self, i);
  shmem_barrier_all();
  shmem_long_put(s_file_static_bss, src, 128, right());
  shmem_long_put(s_file_static_data, src, 128, left());
  shmem_barrier_all();
  EXPECT_TRUE(check_range("file-scope static in .bss", s_file_static_bss, 0, 128,
                          [&](std::size_t i) { return value_of<long>(left(), i); }));
  EXPECT_TRUE(check_range("file-scope static in .data", s_file_static_data, 0, 128,
                          [&](std::size_t i) { return value_of<long>(right(), i); }));
  shmem_barrier_all();
}

// Confirms the build produced the kind of executable this variant is meant to test.
TEST(RmaStaticMem, ExecutableKind) {
  FILE* f = std::fopen("/proc/self/exe", "rb");
  ASSERT_NE(f, nullptr);
  Elf64_Ehdr eh{};
  ASSERT_EQ(std::fread(&eh, sizeof eh, 1, f), 1u);
  std::fclose(f);
#if defined(SHOAL_TEST_EXPECT_PIE)
#if SHOAL_TEST_EXPECT_PIE
  EXPECT_EQ(eh.e_type, ET_DYN) << "expected a position-independent executable";
#else
  EXPECT_EQ(eh.e_type, ET_EXEC) << "expected a non-PIE executable";
#endif
#else
  GTEST_SKIP() << "executable kind not specified";
#endif
}
