// RMA to global and static variables (data and bss segments) instead of the heap. Built
// twice: as a PIE (Debian's default: the segments sit at a different address in every
// process) and as a non-PIE executable.
#include "rma_patterns.hpp"

#include <elf.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

using namespace shoal::test;

namespace {

// Room for 2 + 8 slots of 67 elements: enough for every pattern up to 8 PEs.
constexpr std::size_t kStaticElems = 10 * 67;
constexpr std::size_t kBig = std::size_t{4} << 20;

}  // namespace

// Per type: one array in .data (non-zero initialiser) and one in .bss, with external
// linkage, plus function-local statics reached through accessors below.
#define SHOAL_STATIC_ARRAYS(TN, T)                   \
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
#define SHOAL_GLOBALS(TN, T)                 \
  template <>                                \
  struct Globals<Ops_##TN> {                 \
    static T* data() { return g_data_##TN; } \
    static T* bss() { return g_bss_##TN; }   \
    static T* local_static() {               \
      static T arr[kStaticElems];            \
      return arr;                            \
    }                                        \
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

// Every type in the PIE build; the non-PIE build checks the other address layout, which every
// type reaches the same way, with one type per element size (its typed suite took 23 s to
// compile on 2 cores, as long as the PIE one).
#if SHOAL_TEST_STATIC_FEW_TYPES
using StaticOps = ::testing::Types<Ops_char, Ops_short, Ops_int, Ops_double, Ops_longdouble>;
#else
using StaticOps = AllTypedOps;
#endif
template <class Ops>
class RmaStatic : public ::testing::Test {};
TYPED_TEST_SUITE(RmaStatic, StaticOps, OpsName);

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
  EXPECT_TRUE(
      check_range("4 MiB putmem into .bss", g_big_bss, 0, sizeof g_big_bss, [&](std::size_t i) {
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
  for (std::size_t i = 0; i < sizeof g_big_data; ++i)
    g_big_data[i] = fill_sentinel<unsigned char>(i);
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

// ---- globals mapped on the node ------------------------------------------------------------
// Every PE's data segment (after its RELRO pages) lives in shared memory that the node's other
// PEs map, unless SMA_SHARED_MEMORY=0: each PE can reach the globals of every other PE of its
// node (SHMEM_TEAM_SHARED; under oshrun the whole job) with loads, stores and CPU atomics, and
// those of other hosts (tests/multihost) only through the library's puts, gets and AMOs.

namespace {

// Whether world PE pe runs on this PE's node.
bool on_this_node(int pe) {
  return shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED) >= 0;
}

bool globals_shared() {
  const char* v = std::getenv("SMA_SHARED_MEMORY");
  return v == nullptr || std::strcmp(v, "0") != 0;
}

// The permissions /proc/self/maps shows for the page holding p ("rw-s", "r--p", ...).
std::string perms_of(const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    std::istringstream in(line);
    std::string range, perms;
    in >> range >> perms;
    const std::size_t dash = range.find('-');
    const auto lo = std::stoull(range.substr(0, dash), nullptr, 16);
    const auto hi = std::stoull(range.substr(dash + 1), nullptr, 16);
    if (a >= lo && a < hi) return perms;
  }
  return "unmapped";
}

struct Constructed {
  long values[16];
  Constructed() {
    for (int i = 0; i < 16; ++i) values[i] = 100 + i;
  }
};

}  // namespace

long g_counter_bss;
long g_counter_data = 1000;
int g_word_data[64] = {5};
Constructed g_constructed;
// Pointers in a const array need relocations in a PIE: .data.rel.ro, which ld.so makes read-only
// (RELRO) after loading; in a non-PIE they are plain .rodata. Either way never writable.
const char* const g_relro_names[] = {"alpha", "beta", "gamma"};

TEST(GlobalsOnNode, ShmemPtrToNeighbours) {
  const bool shared = globals_shared();
  g_counter_bss = -1;
  shmem_barrier_all();
  for (int pe = 0; pe < npes(); ++pe) {
    long* p = static_cast<long*>(shmem_ptr(&g_counter_bss, pe));
    if (pe == me()) {
      EXPECT_EQ(p, &g_counter_bss);
    } else if (!on_this_node(pe)) {
      EXPECT_EQ(p, nullptr) << "shmem_ptr to a global of PE " << pe << " on another host";
    } else if (shared) {
      EXPECT_NE(p, nullptr) << "shmem_ptr to a global of on-node PE " << pe;
    } else {
      EXPECT_EQ(p, nullptr) << "SMA_SHARED_MEMORY=0: PE " << pe << " is not mapped";
    }
    EXPECT_TRUE(shmem_addr_accessible(&g_counter_bss, pe));
  }
  // Stores through the pointer reach the owner: each PE writes into its right neighbour's
  // .bss and .data globals and into the C++ object built by a constructor.
  shmem_barrier_all();
  if (long* p = static_cast<long*>(shmem_ptr(&g_counter_bss, right())); p != nullptr && shared) {
    *p = 7000 + me();
    static_cast<int*>(shmem_ptr(&g_word_data[63], right()))[0] = 8000 + me();
    static_cast<Constructed*>(shmem_ptr(&g_constructed, right()))->values[15] += me();
  }
  shmem_barrier_all();
  if (shared && npes() > 1 && on_this_node(left())) {
    EXPECT_EQ(g_counter_bss, 7000 + left());
    EXPECT_EQ(g_word_data[63], 8000 + left());
    EXPECT_EQ(g_constructed.values[15], 115 + left());
  }
  shmem_barrier_all();
  g_constructed.values[15] = 115;
  shmem_barrier_all();
}

TEST(GlobalsOnNode, ContentsAndProtectionKept) {
  // Initial values (from the file and from a constructor) survived the move into shared memory.
  EXPECT_EQ(g_word_data[0], 5);
  for (int i = 0; i < 15; ++i) EXPECT_EQ(g_constructed.values[i], 100 + i);
  EXPECT_STREQ(g_relro_names[1], "beta");
  // The RELRO data is still read-only and private; the globals are shared (where this PE's node
  // runs more than one PE of the job) and still readable and writable.
  const std::string relro = perms_of(&g_relro_names[0]);
  EXPECT_EQ(relro.find('w'), std::string::npos) << "RELRO page is " << relro;
  const std::string data = perms_of(&g_counter_data), bss = perms_of(&g_counter_bss);
  const char* expect =
      globals_shared() && shmem_team_n_pes(SHMEM_TEAM_SHARED) > 1 ? "rw-s" : "rw-p";
  EXPECT_EQ(data, expect) << ".data page";
  EXPECT_EQ(bss, expect) << ".bss page";
  shmem_barrier_all();
}

// Every PE puts, gets and fetch-adds on every PE's globals at once; the results are exact.
TEST(GlobalsOnNode, ConcurrentPutGetAmo) {
  constexpr int kRounds = 200;
  const int n = npes();
  g_counter_bss = 0;
  g_counter_data = 1000;
  for (int i = 0; i < 64; ++i) g_word_data[i] = -1;
  shmem_barrier_all();
  long backwards = 0;
  std::vector<long> last(static_cast<std::size_t>(n), -1);
  for (int round = 0; round < kRounds; ++round) {
    for (int k = 0; k < n; ++k) {
      const int pe = (me() + k) % n;
      const long before = shmem_long_atomic_fetch_add(&g_counter_bss, 1, pe);
      if (before <= last[pe]) ++backwards;
      last[pe] = before;
      shmem_long_atomic_add(&g_counter_data, 2, pe);
    }
  }
  // Each PE owns slot me() of every PE's g_word_data: put it, then read it back.
  for (int pe = 0; pe < n; ++pe) {
    const int v = 100 * me() + pe;
    shmem_int_put(&g_word_data[me()], &v, 1, pe);
  }
  shmem_quiet();
  for (int pe = 0; pe < n; ++pe) {
    int back = -2;
    shmem_int_get(&back, &g_word_data[me()], 1, pe);
    EXPECT_EQ(back, 100 * me() + pe) << "get from PE " << pe;
  }
  shmem_barrier_all();
  EXPECT_EQ(backwards, 0) << "fetched values went backwards";
  EXPECT_EQ(g_counter_bss, static_cast<long>(n) * kRounds);
  EXPECT_EQ(g_counter_data, 1000 + 2L * n * kRounds);
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(g_word_data[i], i < n ? 100 * i + me() : -1) << "g_word_data[" << i << "]";
  shmem_barrier_all();
}
