// rma::Stash: a buffer per word, created on first use, stable while others are added, and found
// by the reader from another thread.
#include "rma/stash.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

namespace {

using shoal::rma::kStashMaxBytes;
using shoal::rma::Stash;

TEST(Stash, NoBufferBeforeTheFirstMessage) {
  Stash stash;
  EXPECT_EQ(stash.find(42), nullptr);
}

TEST(Stash, OneBufferPerWordThatStaysPut) {
  Stash stash;
  std::byte *first = stash.buffer_for(8, kStashMaxBytes);
  ASSERT_NE(first, nullptr);
  std::memset(first, 0x5a, kStashMaxBytes);
  for (std::uint64_t key = 16; key < 16 + 1000 * 8; key += 8)
    ASSERT_NE(stash.buffer_for(key, 8), nullptr);
  EXPECT_EQ(stash.buffer_for(8, kStashMaxBytes), first);
  EXPECT_EQ(stash.find(8), first);
  EXPECT_NE(stash.find(16), first);
  EXPECT_EQ(first[kStashMaxBytes - 1], std::byte{0x5a});
}

// A place's buffer starts at kStashFirstBytes and grows when a longer message comes for it (its
// reader is done with the old one by then), up to kStashMaxBytes.
TEST(Stash, BufferGrowsForALongerMessage) {
  using shoal::rma::kStashFirstBytes;
  Stash stash;
  std::byte *small = stash.buffer_for(5, 100);
  ASSERT_NE(small, nullptr);
  EXPECT_EQ(stash.buffer_for(5, kStashFirstBytes), small);
  std::byte *grown = stash.buffer_for(5, kStashFirstBytes + 1);
  ASSERT_NE(grown, nullptr);
  std::memset(grown, 0x33, 2 * kStashFirstBytes);  // the next power of two
  EXPECT_EQ(stash.find(5), grown);
  EXPECT_EQ(stash.buffer_for(5, 100), grown);  // never shrinks
  std::byte *largest = stash.buffer_for(5, kStashMaxBytes);
  ASSERT_NE(largest, nullptr);
  std::memset(largest, 0x44, kStashMaxBytes);
  EXPECT_EQ(stash.find(5), largest);
}

TEST(Stash, ClearForgetsEveryBuffer) {
  Stash stash;
  ASSERT_NE(stash.buffer_for(1, 1), nullptr);
  stash.clear();
  EXPECT_EQ(stash.find(1), nullptr);
}

// The receiving worker's thread fills buffers while the PE's thread looks them up.
TEST(Stash, WriterAndReaderThreads) {
  Stash stash;
  constexpr std::uint64_t kWords = 2000;
  std::vector<std::uint64_t> published(kWords, 0);
  std::thread writer([&] {
    for (std::uint64_t key = 0; key < kWords; ++key) {
      std::byte *b = stash.buffer_for(key, sizeof key);
      std::memcpy(b, &key, sizeof key);
      __atomic_store_n(&published[key], 1, __ATOMIC_RELEASE);
    }
  });
  for (std::uint64_t key = 0; key < kWords; ++key) {
    while (__atomic_load_n(&published[key], __ATOMIC_ACQUIRE) == 0) std::this_thread::yield();
    const std::byte *b = stash.find(key);
    ASSERT_NE(b, nullptr);
    std::uint64_t seen = 0;
    std::memcpy(&seen, b, sizeof seen);
    EXPECT_EQ(seen, key);
  }
  writer.join();
}

}  // namespace
