// Symmetric heap: malloc/calloc/align/realloc/free/malloc_with_hints, symmetry of the
// returned addresses, reuse after free, exhaustion.
#include "mpp_test.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace shoal::test;

namespace {

// Per-PE report area on PE 0 (symmetric, bss).
std::int64_t g_offsets[kMaxPes][64];

// Offset of p from an anchor allocation. Symmetric allocation means every PE returns the
// same offset (from its own heap base); the base itself may differ between PEs.
std::int64_t offset_from(const void* anchor, const void* p) {
  return static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(p) -
                                   reinterpret_cast<std::uintptr_t>(anchor));
}

// Sends `count` offsets to PE 0; PE 0 checks every PE sent the same as PE 0.
void expect_same_offsets_on_all_pes(const std::int64_t* offs, int count, const char* what) {
  ASSERT_LE(count, 64);
  shmem_barrier_all();
  shmem_putmem(g_offsets[me()], offs, count * sizeof(std::int64_t), 0);
  shmem_barrier_all();
  if (me() == 0) {
    for (int pe = 1; pe < npes(); ++pe) {
      for (int i = 0; i < count; ++i) {
        EXPECT_EQ(g_offsets[pe][i], g_offsets[0][i])
            << what << ": allocation " << i << " of PE " << pe << " is at a different offset";
      }
    }
  }
  shmem_barrier_all();
}

// Writes through `p` on the right neighbour and checks what the left neighbour wrote here:
// the functional definition of "symmetric".
void expect_symmetric(unsigned char* p, std::size_t bytes, const char* what) {
  std::vector<unsigned char> src(bytes);
  for (std::size_t i = 0; i < bytes; ++i) src[i] = value_of<unsigned char>(me(), i);
  std::memset(p, 0, bytes);
  shmem_barrier_all();
  shmem_putmem(p, src.data(), bytes, right());
  shmem_barrier_all();
  const int l = left();
  EXPECT_TRUE(
      check_range(what, p, 0, bytes, [&](std::size_t i) { return value_of<unsigned char>(l, i); }));
  shmem_barrier_all();
}

}  // namespace

TEST(Heap, MallocSameOffsetOnEveryPe) {
  void* anchor = shmem_malloc(64);
  SHOAL_ASSERT_ALL_PES(anchor != nullptr);
  const std::size_t sizes[] = {1, 8, 24, 100, 4096, 4097, 65536, 1 << 20, 3, 17};
  std::vector<void*> ptrs;
  std::int64_t offs[64];
  int k = 0;
  for (std::size_t s : sizes) {
    void* p = shmem_malloc(s);
    EXPECT_NE(p, nullptr) << "shmem_malloc(" << s << ")";
    ptrs.push_back(p);
    offs[k++] = p != nullptr ? offset_from(anchor, p) : -1;
  }
  // Free some in the middle and allocate again: the allocator state must stay symmetric.
  shmem_free(ptrs[2]);
  shmem_free(ptrs[5]);
  ptrs[2] = shmem_malloc(40);
  ptrs[5] = shmem_malloc(70000);
  offs[k++] = offset_from(anchor, ptrs[2]);
  offs[k++] = offset_from(anchor, ptrs[5]);
  expect_same_offsets_on_all_pes(offs, k, "shmem_malloc");
  if (ptrs[5] != nullptr) expect_symmetric(static_cast<unsigned char*>(ptrs[5]), 70000, "malloc");
  for (void* p : ptrs) shmem_free(p);
  shmem_free(anchor);
}

TEST(Heap, MallocIsAlignedForAnyType) {
  for (std::size_t s : {1, 3, 8, 15, 16, 33, 1000}) {
    void* p = shmem_malloc(s);
    EXPECT_NE(p, nullptr);
    // Suitably aligned for any object type (like malloc): at least alignof(max_align_t)
    // is what C programs expect; long double needs 16 on x86-64.
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignof(std::max_align_t), 0u)
        << "shmem_malloc(" << s << ") = " << p;
    shmem_free(p);
  }
}

TEST(Heap, CallocIsZeroed) {
  // Dirty a block first so calloc is likely to get recycled memory.
  const std::size_t bytes = 256 * 1024;
  void* dirty = shmem_malloc(bytes);
  SHOAL_ASSERT_ALL_PES(dirty != nullptr);
  std::memset(dirty, 0xa5, bytes);
  shmem_free(dirty);

  void* anchor = shmem_malloc(8);
  SHOAL_ASSERT_ALL_PES(anchor != nullptr);
  auto* z = static_cast<unsigned char*>(shmem_calloc(bytes / 8, 8));
  SHOAL_ASSERT_ALL_PES(z != nullptr);
  EXPECT_TRUE(check_range("shmem_calloc block", z, 0, bytes,
                          [](std::size_t) { return static_cast<unsigned char>(0); }));
  auto* z2 = static_cast<int*>(shmem_calloc(1000, sizeof(int)));
  SHOAL_ASSERT_ALL_PES(z2 != nullptr);
  EXPECT_TRUE(check_range("shmem_calloc ints", z2, 0, 1000, [](std::size_t) { return 0; }));
  std::int64_t offs[2] = {offset_from(anchor, z), offset_from(anchor, z2)};
  expect_same_offsets_on_all_pes(offs, 2, "shmem_calloc");
  expect_symmetric(z, bytes, "calloc");
  shmem_free(z2);
  shmem_free(z);
  shmem_free(anchor);
}

namespace {

// Where the next 8-byte allocation lands, as an offset from `anchor` (allocated and freed
// again, so the heap is as before). Collective.
std::int64_t next_offset(const void* anchor) {
  void* p = shmem_malloc(8);
  const std::int64_t offset = p ? offset_from(anchor, p) : -1;
  shmem_free(p);
  return offset;
}

// A zero-size allocation returns NULL or a pointer into the symmetric heap that may be freed
// (the spec); Shoal returns NULL. Either way, freeing it leaves the heap as it was.
void expect_zero_size_result(void* p, const char* what) {
  EXPECT_TRUE(p == nullptr || shmem_addr_accessible(p, me()) != 0)
      << what << " returned a pointer outside the symmetric heap";
#if SHOAL_TEST_IMPL_IS_SHOAL
  EXPECT_EQ(p, nullptr) << what << ": Shoal returns NULL for a zero-size allocation";
#endif
}

}  // namespace

TEST(Heap, CallocZero) {
  void* anchor = shmem_malloc(8);
  SHOAL_ASSERT_ALL_PES(anchor != nullptr);
  const std::int64_t before = next_offset(anchor);
  void* a = shmem_calloc(0, 8);
  void* b = shmem_calloc(8, 0);
  expect_zero_size_result(a, "shmem_calloc(0, 8)");
  expect_zero_size_result(b, "shmem_calloc(8, 0)");
  shmem_free(a);
  shmem_free(b);
  EXPECT_EQ(next_offset(anchor), before) << "the heap changed after freeing zero-size blocks";
  shmem_free(anchor);
}

TEST(Heap, AlignPowersOfTwo) {
  void* anchor = shmem_malloc(8);
  SHOAL_ASSERT_ALL_PES(anchor != nullptr);
  std::int64_t offs[64];
  int k = 0;
  std::vector<void*> ptrs;
  for (std::size_t align = sizeof(void*); align <= 4096; align *= 2) {
    for (std::size_t size : {std::size_t{1}, align + 1, std::size_t{3000}}) {
      void* p = shmem_align(align, size);
      EXPECT_NE(p, nullptr) << "shmem_align(" << align << ", " << size << ")";
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % align, 0u)
          << "shmem_align(" << align << ", " << size << ") = " << p;
      ptrs.push_back(p);
      offs[k++] = offset_from(anchor, p);
    }
  }
  expect_same_offsets_on_all_pes(offs, k, "shmem_align");
  if (ptrs.back() != nullptr)
    expect_symmetric(static_cast<unsigned char*>(ptrs.back()), 3000, "align");
  for (void* p : ptrs) shmem_free(p);
  shmem_free(anchor);
}

// Alignments beyond the page size too (issue 17): every power of two from 8 B to 4 MiB, each
// block at the same offset on every PE and reachable as symmetric memory.
TEST(Heap, AlignLargePowersOfTwo) {
  void* anchor = shmem_malloc(8);
  SHOAL_ASSERT_ALL_PES(anchor != nullptr);
  std::int64_t offs[64];
  int k = 0;
  std::vector<void*> ptrs;
  for (std::size_t align = 8; align <= (std::size_t{4} << 20); align *= 2) {
    void* p = shmem_align(align, 16);
    SHOAL_ASSERT_ALL_PES(p != nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % align, 0u)
        << "shmem_align(" << align << ", 16) = " << p << " on PE " << me();
    expect_symmetric(static_cast<unsigned char*>(p), 16, "shmem_align(large, 16)");
    ptrs.push_back(p);
    offs[k++] = offset_from(anchor, p);
  }
  expect_same_offsets_on_all_pes(offs, k, "shmem_align (large alignments)");
  for (void* p : ptrs) shmem_free(p);
  shmem_free(anchor);
}

TEST(Heap, AlignSizeZero) {
  void* anchor = shmem_malloc(8);
  SHOAL_ASSERT_ALL_PES(anchor != nullptr);
  const std::int64_t before = next_offset(anchor);
  void* p = shmem_align(64, 0);
  expect_zero_size_result(p, "shmem_align(64, 0)");
  shmem_free(p);
  EXPECT_EQ(next_offset(anchor), before) << "the heap changed after freeing a zero-size block";
  shmem_free(anchor);
}

TEST(Heap, ReallocPreservesContents) {
  void* anchor = shmem_malloc(8);
  SHOAL_ASSERT_ALL_PES(anchor != nullptr);
  auto* a = static_cast<long*>(shmem_malloc(100 * sizeof(long)));
  SHOAL_ASSERT_ALL_PES(a != nullptr);
  for (int i = 0; i < 100; ++i) a[i] = value_of<long>(me(), i);
  // A neighbour allocation makes in-place growth impossible, forcing a move somewhere.
  void* blocker = shmem_malloc(64);

  auto* b = static_cast<long*>(shmem_realloc(a, 100000 * sizeof(long)));
  SHOAL_ASSERT_ALL_PES(b != nullptr);
  EXPECT_TRUE(check_range("after growing realloc", b, 0, 100,
                          [&](std::size_t i) { return value_of<long>(me(), i); }));
  auto* c = static_cast<long*>(shmem_realloc(b, 50 * sizeof(long)));
  SHOAL_ASSERT_ALL_PES(c != nullptr);
  EXPECT_TRUE(check_range("after shrinking realloc", c, 0, 50,
                          [&](std::size_t i) { return value_of<long>(me(), i); }));
  std::int64_t offs[2] = {offset_from(anchor, blocker), offset_from(anchor, c)};
  expect_same_offsets_on_all_pes(offs, 2, "shmem_realloc");
  expect_symmetric(reinterpret_cast<unsigned char*>(c), 50 * sizeof(long), "realloc");

  // A size no heap can hold fails and leaves the block as it was (a size near SIZE_MAX once
  // rounded to 0 and came back as the same block, "grown").
  for (int i = 0; i < 50; ++i) c[i] = value_of<long>(me(), i);  // expect_symmetric wrote it
  for (std::size_t huge : {SIZE_MAX, SIZE_MAX - 14}) {
    EXPECT_EQ(shmem_realloc(c, huge), nullptr) << "shmem_realloc to " << huge << " bytes";
    EXPECT_TRUE(check_range("after a failed realloc", c, 0, 50,
                            [&](std::size_t i) { return value_of<long>(me(), i); }));
  }

  // realloc(NULL, n) behaves like malloc.
  auto* d = static_cast<int*>(shmem_realloc(nullptr, 256));
  EXPECT_NE(d, nullptr);
  if (all_pes(d != nullptr))
    expect_symmetric(reinterpret_cast<unsigned char*>(d), 256, "realloc(NULL)");
  shmem_free(d);
  shmem_free(c);
  shmem_free(blocker);
  shmem_free(anchor);
}

// shmem_free(NULL) has no effect: the heap, with a block in use, is exactly as before.
TEST(Heap, FreeNullIsNoop) {
  void* anchor = shmem_malloc(8);
  SHOAL_ASSERT_ALL_PES(anchor != nullptr);
  void* live = shmem_malloc(64);
  SHOAL_ASSERT_ALL_PES(live != nullptr);
  const std::int64_t before = next_offset(anchor);
  shmem_free(nullptr);
  shmem_free(nullptr);
  EXPECT_EQ(next_offset(anchor), before) << "shmem_free(NULL) changed the heap";
  // The block in use is still in use: a new allocation does not land on it.
  void* other = shmem_malloc(64);
  SHOAL_ASSERT_ALL_PES(other != nullptr);
  EXPECT_NE(other, live) << "shmem_free(NULL) freed a block in use";
  shmem_free(other);
  shmem_free(live);
  shmem_free(anchor);
}

TEST(Heap, FreeThenMallocReusesMemory) {
  // 2000 cycles of 1 MiB would need ~2 GiB without reuse.
  void* anchor = shmem_malloc(8);
  SHOAL_ASSERT_ALL_PES(anchor != nullptr);
  int failures = 0;
  std::int64_t first = 0;
  for (int i = 0; i < 2000; ++i) {
    void* p = shmem_malloc(1 << 20);
    if (p == nullptr) {
      ++failures;
      continue;
    }
    if (i == 0) first = offset_from(anchor, p);
    static_cast<char*>(p)[(1 << 20) - 1] = 1;
    shmem_free(p);
  }
  EXPECT_EQ(failures, 0) << "shmem_malloc(1 MiB) failed after repeated malloc/free";
  // Many small blocks, freed in a different order than allocated.
  for (int round = 0; round < 20; ++round) {
    std::vector<void*> v;
    for (int i = 0; i < 200; ++i) v.push_back(shmem_malloc(32 + (i % 7) * 100));
    for (void* p : v) EXPECT_NE(p, nullptr);
    for (std::size_t i = 0; i < v.size(); i += 2) shmem_free(v[i]);
    for (std::size_t i = 1; i < v.size(); i += 2) shmem_free(v[i]);
  }
  void* again = shmem_malloc(1 << 20);
  EXPECT_NE(again, nullptr);
  std::int64_t offs[2] = {first, offset_from(anchor, again)};
  expect_same_offsets_on_all_pes(offs, 2, "after reuse");
  shmem_free(again);
  shmem_free(anchor);
}

TEST(Heap, MallocWithHints) {
#if SHOAL_TEST_HAVE_1_5
  const long hints[] = {0, SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE,
                        SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE};
  void* anchor = shmem_malloc(8);
  SHOAL_ASSERT_ALL_PES(anchor != nullptr);
  std::int64_t offs[4];
  int k = 0;
  for (long h : hints) {
    auto* p = static_cast<unsigned char*>(shmem_malloc_with_hints(4096, h));
    EXPECT_NE(p, nullptr) << "hints " << h;
    offs[k++] = offset_from(anchor, p);
    if (all_pes(p != nullptr)) expect_symmetric(p, 4096, "malloc_with_hints");
    shmem_free(p);
  }
  expect_same_offsets_on_all_pes(offs, k, "shmem_malloc_with_hints");
  void* z = shmem_malloc_with_hints(0, 0);
  shmem_free(z);
  shmem_free(anchor);
#else
  GTEST_SKIP() << "shmem_malloc_with_hints needs OpenSHMEM 1.5";
#endif
}

TEST(Heap, MallocZero) {
  void* p = shmem_malloc(0);
  shmem_free(p);  // NULL (spec) or freeable
  void* q = shmem_malloc(16);
  EXPECT_NE(q, nullptr);
  shmem_free(q);
}

TEST(Heap, ExhaustionReturnsNullEverywhere) {
  const std::size_t huge = std::size_t{1} << 50;  // 1 PiB: larger than any heap
  void* p = shmem_malloc(huge);
  EXPECT_EQ(p, nullptr) << "shmem_malloc(1 PiB) succeeded";
  EXPECT_EQ(sum_over_pes(p == nullptr ? 1 : 0), npes()) << "not NULL on every PE";
  void* q = shmem_align(4096, huge);
  EXPECT_EQ(q, nullptr);
  void* r = shmem_calloc(std::size_t{1} << 30, std::size_t{1} << 20);
  EXPECT_EQ(r, nullptr);
  // count * size overflows size_t: must fail rather than allocate the wrapped size.
  void* o = shmem_calloc(SIZE_MAX / 2 + 2, 2);
  EXPECT_EQ(o, nullptr) << "shmem_calloc with overflowing count*size succeeded";
  // The program goes on: the heap still works.
  auto* ok = static_cast<unsigned char*>(shmem_malloc(1024));
  EXPECT_NE(ok, nullptr);
  if (all_pes(ok != nullptr)) expect_symmetric(ok, 1024, "after failed allocation");
  shmem_free(ok);
  if (p != nullptr) shmem_free(p);
  if (q != nullptr) shmem_free(q);
  if (r != nullptr) shmem_free(r);
  if (o != nullptr) shmem_free(o);
}
