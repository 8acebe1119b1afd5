// Initialisation and query routines: PE numbering, accessibility, shmem_ptr, library info.
// Also registered without any launcher, where it must run as a single PE.
#include "mpp_test.hpp"
#include "host_pes.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

using namespace shoal::test;

namespace {

int g_data_var = 42;         // .data
int g_bss_var;               // .bss
int g_query_slots[kMaxPes];  // .bss: per-PE reports gathered on PE 0
long g_static_array[16] = {1, 2, 3};

}  // namespace

// Spec spelling int shmem_initialized(void) / int shmem_finalized(void), and the
// shmem_query_initialized(int*) / shmem_query_finalized(int*) spelling.
SHOAL_TEST_FALLBACK(shmem_initialized)
SHOAL_TEST_FALLBACK(shmem_finalized)
SHOAL_TEST_FALLBACK(shmem_query_initialized)
SHOAL_TEST_FALLBACK(shmem_query_finalized)

static auto call_initialized() {
  using namespace shoal_fallback;
  return shmem_initialized();
}
static auto call_finalized() {
  using namespace shoal_fallback;
  return shmem_finalized();
}
static auto call_query_initialized(int* out) {
  using namespace shoal_fallback;
  return shmem_query_initialized(out);
}
static auto call_query_finalized(int* out) {
  using namespace shoal_fallback;
  return shmem_query_finalized(out);
}

TEST(Init, PeNumbersAreDistinctAndDense) {
  const int n = npes();
  ASSERT_GE(n, 1);
  ASSERT_LE(n, kMaxPes);
  EXPECT_GE(me(), 0);
  EXPECT_LT(me(), n);
  // Every PE reports my_pe * 4096 + n_pes into slot my_pe on PE 0: PE 0 then sees each
  // number 0..n-1 exactly once and the same n_pes everywhere.
  std::memset(g_query_slots, 0xff, sizeof g_query_slots);
  shmem_barrier_all();
  shmem_int_p(&g_query_slots[me()], me() * 4096 + n, 0);
  shmem_barrier_all();
  if (me() == 0) {
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(g_query_slots[i], i * 4096 + n) << "slot of PE " << i;
    }
    for (int i = n; i < kMaxPes; ++i) {
      EXPECT_EQ(g_query_slots[i], -1) << "slot " << i << " beyond n_pes was written";
    }
  }
  shmem_barrier_all();
}

TEST(Init, QueriesAreStable) {
  const int pe = shmem_my_pe();
  const int n = shmem_n_pes();
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(shmem_my_pe(), pe);
    ASSERT_EQ(shmem_n_pes(), n);
  }
}

// int shmem_initialized(void) / int shmem_finalized(void) (spec), or the
// shmem_query_initialized(int*) / shmem_query_finalized(int*) spelling: whichever the
// header declares.
TEST(Init, InitializedQuery) {
  constexpr bool have_spec = shoal_declared<decltype(call_initialized())>;
  constexpr bool have_query = shoal_declared<decltype(call_query_initialized(nullptr))>;
  if constexpr (!have_spec && !have_query) {
    GTEST_SKIP() << "neither shmem_initialized nor shmem_query_initialized is declared";
  }
  if constexpr (have_spec) {
    EXPECT_EQ(call_initialized(), 1) << "shmem_initialized() after shmem_init";
    if constexpr (shoal_declared<decltype(call_finalized())>) {
      EXPECT_EQ(call_finalized(), 0) << "shmem_finalized() before shmem_finalize";
    }
  }
  if constexpr (have_query) {
    int v = -1;
    call_query_initialized(&v);
    EXPECT_EQ(v, 1) << "shmem_query_initialized after shmem_init";
    if constexpr (shoal_declared<decltype(call_query_finalized(&v))>) {
      v = -1;
      call_query_finalized(&v);
      EXPECT_EQ(v, 0) << "shmem_query_finalized before shmem_finalize";
    }
  }
}

TEST(Query, PeAccessible) {
  const int n = npes();
  for (int pe = 0; pe < n; ++pe) EXPECT_EQ(shmem_pe_accessible(pe), 1) << "pe " << pe;
  EXPECT_EQ(shmem_pe_accessible(-1), 0);
  EXPECT_EQ(shmem_pe_accessible(n), 0);
  EXPECT_EQ(shmem_pe_accessible(n + 100), 0);
}

TEST(Query, AddrAccessible) {
  SymArray<int> heap(8);
  SHOAL_ASSERT_ALL_PES(heap);
  static int local_static = 7;
  static char local_static_bss[3];
  int stack_var = 3;
  auto private_mem = std::make_unique<int[]>(4);
  const int n = npes();
  for (int pe = 0; pe < n; ++pe) {
    EXPECT_EQ(shmem_addr_accessible(heap.get(), pe), 1) << "heap, pe " << pe;
    EXPECT_EQ(shmem_addr_accessible(heap.get() + 7, pe), 1) << "heap end, pe " << pe;
    EXPECT_EQ(shmem_addr_accessible(&g_data_var, pe), 1) << "global .data, pe " << pe;
    EXPECT_EQ(shmem_addr_accessible(&g_bss_var, pe), 1) << "global .bss, pe " << pe;
    EXPECT_EQ(shmem_addr_accessible(&g_static_array[15], pe), 1) << "global array, pe " << pe;
    EXPECT_EQ(shmem_addr_accessible(&local_static, pe), 1) << "function static, pe " << pe;
    EXPECT_EQ(shmem_addr_accessible(&local_static_bss[2], pe), 1)
        << "function static bss, pe " << pe;
    EXPECT_EQ(shmem_addr_accessible(&stack_var, pe), 0) << "stack, pe " << pe;
    EXPECT_EQ(shmem_addr_accessible(private_mem.get(), pe), 0) << "libc heap, pe " << pe;
  }
  shmem_barrier_all();
}

TEST(Query, PtrToHeap) {
  SymArray<long> heap(64);
  SHOAL_ASSERT_ALL_PES(heap);
  for (int i = 0; i < 64; ++i) heap[i] = -1;

  // Self: must be usable and alias the local object.
  long* self = static_cast<long*>(shmem_ptr(heap.get(), me()));
  SHOAL_ASSERT_ALL_PES(self != nullptr);  // shmem_ptr to one's own heap must work
  self[3] = 12345;
  EXPECT_EQ(heap[3], 12345) << "shmem_ptr(self) does not alias the local object";
  heap[3] = -1;
  shmem_barrier_all();

  // Peers on this host: stores through the pointer are seen by the peer. Peers on other
  // hosts (multi-host runs) cannot be reached by loads and stores: NULL.
  const int n = npes();
  const std::vector<int> my_host = pes_on_my_host();
  for (int pe = 0; pe < n; ++pe) {
    long* p = static_cast<long*>(shmem_ptr(heap.get(), pe));
    if (std::find(my_host.begin(), my_host.end(), pe) == my_host.end()) {
      EXPECT_EQ(p, nullptr) << "shmem_ptr to pe " << pe << " on another host";
      continue;
    }
    EXPECT_NE(p, nullptr) << "shmem_ptr to on-node peer " << pe << " returned NULL";
    if (p != nullptr && pe == right()) {
      for (int i = 0; i < 64; ++i) p[i] = value_of<long>(me(), i);
    }
  }
  shmem_barrier_all();
  const int src = left();
  const bool right_ptr_ok = shmem_ptr(heap.get(), right()) != nullptr;
  if (all_pes(right_ptr_ok)) {
    EXPECT_TRUE(check_range("heap written by left neighbour via shmem_ptr", heap.get(), 0, 64,
                            [&](std::size_t i) { return value_of<long>(src, i); }));
  }
  shmem_barrier_all();
}

TEST(Query, PtrToGlobals) {
  // NULL is allowed for globals of other PEs; a non-NULL pointer must work.
  g_static_array[5] = -5;
  shmem_barrier_all();
  long* self = static_cast<long*>(shmem_ptr(&g_static_array[0], me()));
  if (self != nullptr) {
    EXPECT_EQ(self[5], -5);
  }
  long* p = static_cast<long*>(shmem_ptr(&g_static_array[0], right()));
  const bool have = p != nullptr;
  shmem_barrier_all();
  if (have) p[5] = 1000 + me();
  const bool all_have = all_pes(have);  // includes barriers: orders the stores above
  if (all_have) {
    EXPECT_EQ(g_static_array[5], 1000 + left());
  }
  shmem_barrier_all();
}

TEST(Query, InfoVersion) {
  int major = -1, minor = -1;
  shmem_info_get_version(&major, &minor);
  EXPECT_EQ(major, SHMEM_MAJOR_VERSION);
  EXPECT_EQ(minor, SHMEM_MINOR_VERSION);
#if SHOAL_TEST_HAVE_1_6
  EXPECT_EQ(major, 1);
  EXPECT_EQ(minor, 6);
#endif
}

TEST(Query, InfoName) {
  std::vector<char> name(SHMEM_MAX_NAME_LEN + 64, '\x7f');
  shmem_info_get_name(name.data());
  const void* nul = std::memchr(name.data(), '\0', SHMEM_MAX_NAME_LEN);
  ASSERT_NE(nul, nullptr) << "name not NUL-terminated within SHMEM_MAX_NAME_LEN";
  const std::size_t len = std::strlen(name.data());
  EXPECT_GT(len, 0u);
  EXPECT_LT(len, static_cast<std::size_t>(SHMEM_MAX_NAME_LEN));
  for (std::size_t i = SHMEM_MAX_NAME_LEN; i < name.size(); ++i) {
    ASSERT_EQ(name[i], '\x7f') << "shmem_info_get_name wrote past SHMEM_MAX_NAME_LEN";
  }
  EXPECT_STREQ(name.data(), SHMEM_VENDOR_STRING);
}

TEST(Query, ThreadLevelAfterInit) {
  int provided = -1;
  shmem_query_thread(&provided);
  EXPECT_GE(provided, SHMEM_THREAD_SINGLE);
  EXPECT_LE(provided, SHMEM_THREAD_MULTIPLE);
  if (requested_thread_level() >= 0) {
    EXPECT_EQ(provided, provided_thread_level());
  }
}

// RMA to oneself must work in every configuration, including a PE started without a
// launcher.
TEST(Init, SelfRma) {
  SymArray<int> buf(32);
  SHOAL_ASSERT_ALL_PES(buf);
  int src[32];
  for (int i = 0; i < 32; ++i) {
    src[i] = value_of<int>(me(), i);
    buf[i] = -1;
  }
  shmem_int_put(buf.get(), src, 32, me());
  shmem_quiet();
  EXPECT_TRUE(check_range("self put", buf.get(), 0, 32,
                          [&](std::size_t i) { return value_of<int>(me(), i); }));
  int back[32] = {};
  shmem_int_get(back, buf.get(), 32, me());
  EXPECT_TRUE(
      check_range("self get", back, 0, 32, [&](std::size_t i) { return value_of<int>(me(), i); }));
  shmem_int_p(&g_bss_var, 77 + me(), me());
  shmem_quiet();
  EXPECT_EQ(g_bss_var, 77 + me());
  EXPECT_EQ(shmem_int_g(&g_data_var, me()), g_data_var);
  shmem_barrier_all();
}

// Ring exchange: PE i writes its number to PE i+1, so each PE learns its left neighbour.
TEST(Init, RingExchange) {
  g_bss_var = -1;
  shmem_barrier_all();
  shmem_int_p(&g_bss_var, me(), right());
  shmem_barrier_all();
  EXPECT_EQ(g_bss_var, left());
  shmem_barrier_all();
}

// Runs without a launcher: the program must be a single PE.
TEST(Singleton, OnePe) {
  const char* expect = std::getenv("SHOAL_TEST_EXPECT_SINGLETON");
  if (expect == nullptr || std::strcmp(expect, "1") != 0) {
    GTEST_SKIP() << "only when started without a launcher";
  }
  EXPECT_EQ(shmem_my_pe(), 0);
  EXPECT_EQ(shmem_n_pes(), 1);
  EXPECT_EQ(shmem_pe_accessible(0), 1);
  EXPECT_EQ(shmem_pe_accessible(1), 0);
}
