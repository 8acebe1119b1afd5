// Heap size from SMA_SYMMETRIC_SIZE. CTest runs this program with SMA_SYMMETRIC_SIZE=8M.
#include "mpp_test.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

using namespace shoal::test;

namespace {
bool env_is_8m() {
  const char* s = std::getenv("SMA_SYMMETRIC_SIZE");
  return s != nullptr && std::string(s) == "8M";
}
}  // namespace

TEST(HeapLimit, SixteenMegabytesFailsFourWorks) {
  if (!env_is_8m()) GTEST_SKIP() << "run with SMA_SYMMETRIC_SIZE=8M";
  void* big = shmem_malloc(16u << 20);
  EXPECT_EQ(big, nullptr) << "16 MiB allocation succeeded with an 8 MiB heap";
  EXPECT_EQ(sum_over_pes(big == nullptr ? 1 : 0), npes()) << "16 MiB: not NULL on every PE";
  if (big != nullptr) shmem_free(big);

  auto* four = static_cast<unsigned char*>(shmem_malloc(4u << 20));
  EXPECT_NE(four, nullptr) << "4 MiB allocation failed with an 8 MiB heap";
  if (all_pes(four != nullptr)) {
    std::memset(four, 0, 4u << 20);
    shmem_barrier_all();
    // Touch the last byte on the right neighbour: the whole block is really usable.
    unsigned char v = static_cast<unsigned char>(me() + 1);
    shmem_putmem(four + (4u << 20) - 1, &v, 1, right());
    shmem_barrier_all();
    EXPECT_EQ(four[(4u << 20) - 1], static_cast<unsigned char>(left() + 1));
  }
  shmem_free(four);
}

TEST(HeapLimit, HeapIsNotMuchSmallerThanRequested) {
  if (!env_is_8m()) GTEST_SKIP() << "run with SMA_SYMMETRIC_SIZE=8M";
  // Fill the heap with 256 KiB blocks: at least 6 MiB of an 8 MiB heap must be usable
  // (some may go to the library's own bookkeeping or alignment); a heap that takes all
  // 64 blocks (16 MiB) ignored the setting.
  void* blocks[64] = {};
  int got = 0;
  for (int i = 0; i < 64; ++i) {
    blocks[i] = shmem_malloc(256u << 10);
    if (blocks[i] != nullptr) ++got;
  }
  EXPECT_GE(got, 24) << "only " << got << " x 256 KiB fit in an 8 MiB heap";
  EXPECT_LT(got, 64) << got << " x 256 KiB fit in an 8 MiB heap";
  EXPECT_EQ(sum_over_pes(got), got * npes()) << "PEs disagree on how much fits";
  for (int i = 63; i >= 0; --i) shmem_free(blocks[i]);
  void* four = shmem_malloc(4u << 20);
  EXPECT_NE(four, nullptr) << "heap not reusable after filling it";
  shmem_free(four);
}
