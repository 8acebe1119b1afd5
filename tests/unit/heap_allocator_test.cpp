// The symmetric heap's allocator (core/heap/heap_allocator): first fit in address order, sizes
// in 16-byte units, any power-of-two alignment of the offset, coalescing on release, growing in
// place, and refusals (never a crash) when the heap cannot serve. Every PE must reach the same
// offsets from the same calls, so the checks are of exact offsets, and a long random sequence
// is compared against a byte-map model of the same first-fit rule.
#include "heap/heap_allocator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <vector>

namespace {

using shoal::heap::HeapAllocator;
constexpr std::size_t kMin = HeapAllocator::kMinAlignment;

HeapAllocator with_capacity(std::size_t capacity) {
  HeapAllocator a;
  a.reset(capacity);
  return a;
}

TEST(HeapAllocator, NothingBeforeResetOrInAnEmptyHeap) {
  HeapAllocator a;
  EXPECT_EQ(a.allocate(16), std::nullopt);
  EXPECT_EQ(a.largest_free(), 0u);
  a.reset(0);
  EXPECT_EQ(a.allocate(1), std::nullopt);
  EXPECT_FALSE(a.release(0));
}

TEST(HeapAllocator, FirstFitInAddressOrderIn16ByteUnits) {
  HeapAllocator a = with_capacity(1024);
  EXPECT_EQ(a.allocate(16), 0u);
  EXPECT_EQ(a.allocate(1), 16u);
  EXPECT_EQ(a.allocate(17), 32u);
  EXPECT_EQ(a.allocate(100), 64u);
  EXPECT_EQ(a.block_size(16), 16u);
  EXPECT_EQ(a.block_size(32), 32u);
  EXPECT_EQ(a.block_size(64), 112u);
  EXPECT_EQ(a.in_use(), 16u + 16 + 32 + 112);
  EXPECT_EQ(a.largest_free(), 1024u - a.in_use());
  EXPECT_EQ(a.capacity(), 1024u);
}

TEST(HeapAllocator, ZeroBytesIsRefused) {
  HeapAllocator a = with_capacity(1024);
  EXPECT_EQ(a.allocate(0), std::nullopt);
  EXPECT_EQ(a.in_use(), 0u);
}

TEST(HeapAllocator, ExhaustionIsARefusalAndFreeingMakesRoomAgain) {
  HeapAllocator a = with_capacity(4096);
  EXPECT_EQ(a.allocate(4097), std::nullopt);
  EXPECT_EQ(a.allocate(std::numeric_limits<std::size_t>::max()), std::nullopt);
  EXPECT_EQ(a.allocate(std::numeric_limits<std::size_t>::max() - 7), std::nullopt);
  EXPECT_EQ(a.allocate(4096), 0u);  // the whole heap
  EXPECT_EQ(a.largest_free(), 0u);
  EXPECT_EQ(a.allocate(1), std::nullopt);
  EXPECT_EQ(a.allocate(16, 4096), std::nullopt);
  EXPECT_TRUE(a.release(0));
  std::vector<std::size_t> blocks;
  while (auto o = a.allocate(48)) blocks.push_back(*o);
  EXPECT_EQ(blocks.size(), 4096u / 48);
  EXPECT_EQ(a.allocate(48), std::nullopt);
  EXPECT_EQ(a.allocate(16), 4096u / 48 * 48);  // the last 16 bytes still serve
  for (std::size_t o : blocks) EXPECT_TRUE(a.release(o));
  EXPECT_EQ(a.largest_free(), 4096u - 16);
}

TEST(HeapAllocator, ACapacityNotInUnitsServesOnlyWholeUnits) {
  HeapAllocator a = with_capacity(1000);
  EXPECT_EQ(a.allocate(1000), std::nullopt);  // rounds up to 1008
  EXPECT_EQ(a.allocate(990), 0u);             // 992
  EXPECT_EQ(a.allocate(1), std::nullopt);     // 8 bytes left
}

TEST(HeapAllocator, AlignmentOfTheOffsetAndItsPaddingStaysFree) {
  HeapAllocator a = with_capacity(1 << 20);
  EXPECT_EQ(a.allocate(16), 0u);
  EXPECT_EQ(a.allocate(16, 256), 256u);
  EXPECT_EQ(a.allocate(16, 4096), 4096u);
  EXPECT_EQ(a.allocate(16), 16u);  // first fit takes the padding before 256
  EXPECT_EQ(a.allocate(200), 32u);
  EXPECT_EQ(a.allocate(32), 272u);  // the 16 bytes left before 256 are too few
  EXPECT_EQ(a.allocate(16, 1 << 19), std::size_t{1} << 19);
  EXPECT_EQ(a.allocate(16, 1 << 20), std::nullopt);  // only offset 0 is that aligned
}

TEST(HeapAllocator, AlignmentsBelowTheMinimumGiveTheMinimum) {
  HeapAllocator a = with_capacity(1024);
  for (std::size_t alignment : {0, 1, 2, 4, 8, 16}) {
    const auto o = a.allocate(1, alignment);
    ASSERT_TRUE(o) << alignment;
    EXPECT_EQ(*o % kMin, 0u) << alignment;
  }
  EXPECT_EQ(a.in_use(), 6 * kMin);
}

TEST(HeapAllocator, HugeAlignmentsAreRefusedWithoutOverflow) {
  HeapAllocator a = with_capacity(1 << 16);
  ASSERT_EQ(a.allocate(16), 0u);
  // Only offset 0 (taken) has these alignments: the padding they need runs past the heap.
  for (int shift : {17, 32, 62, 63}) {
    EXPECT_EQ(a.allocate(16, std::size_t{1} << shift), std::nullopt) << shift;
  }
  EXPECT_TRUE(a.release(0));
  EXPECT_EQ(a.allocate(16, std::size_t{1} << 63), 0u);  // offset 0 is aligned to anything
}

TEST(HeapAllocator, EveryAlignmentUpToTheCapacityIsHonoured) {
  constexpr std::size_t kCapacity = 1 << 16;
  for (std::size_t alignment = 1; alignment <= kCapacity; alignment *= 2) {
    HeapAllocator a = with_capacity(kCapacity);
    ASSERT_EQ(a.allocate(16), 0u);  // so that offset 0 is taken
    const auto o = a.allocate(16, alignment);
    if (alignment == kCapacity) {
      EXPECT_EQ(o, std::nullopt);
      continue;
    }
    ASSERT_TRUE(o) << alignment;
    EXPECT_EQ(*o, std::max(alignment, kMin)) << alignment;  // the first such offset after 0
  }
}

TEST(HeapAllocator, ReleaseOnlyLiveBlockStarts) {
  HeapAllocator a = with_capacity(1024);
  const auto b = a.allocate(64);
  ASSERT_EQ(b, 0u);
  EXPECT_FALSE(a.release(16));    // inside the block
  EXPECT_FALSE(a.release(512));   // never allocated
  EXPECT_FALSE(a.release(4096));  // beyond the heap
  EXPECT_TRUE(a.release(0));
  EXPECT_FALSE(a.release(0));  // freed already
  EXPECT_EQ(a.in_use(), 0u);
}

TEST(HeapAllocator, BlockSizeAndInsideBlock) {
  HeapAllocator a = with_capacity(1024);
  ASSERT_EQ(a.allocate(64), 0u);
  ASSERT_EQ(a.allocate(32), 64u);
  EXPECT_EQ(a.block_size(0), 64u);
  EXPECT_EQ(a.block_size(64), 32u);
  EXPECT_EQ(a.block_size(16), std::nullopt);
  EXPECT_EQ(a.block_size(96), std::nullopt);
  EXPECT_FALSE(a.inside_block(0));  // a start
  EXPECT_TRUE(a.inside_block(1));
  EXPECT_TRUE(a.inside_block(63));
  EXPECT_FALSE(a.inside_block(64));  // the next block's start
  EXPECT_TRUE(a.inside_block(95));
  EXPECT_FALSE(a.inside_block(96));  // free space
  EXPECT_FALSE(a.inside_block(5000));
  ASSERT_TRUE(a.release(0));
  EXPECT_FALSE(a.inside_block(1));  // freed: neither a start nor inside
  EXPECT_EQ(a.block_size(0), std::nullopt);
}

// Three neighbours released in every order coalesce into one free range: the whole heap.
TEST(HeapAllocator, ReleaseCoalescesWithBothNeighboursInAnyOrder) {
  std::vector<int> order = {0, 1, 2};
  do {
    HeapAllocator a = with_capacity(192);
    const std::size_t blocks[] = {*a.allocate(64), *a.allocate(64), *a.allocate(64)};
    ASSERT_EQ(a.largest_free(), 0u);
    for (int i : order) ASSERT_TRUE(a.release(blocks[i]));
    EXPECT_EQ(a.largest_free(), 192u);
    EXPECT_EQ(a.allocate(192), 0u) << order[0] << order[1] << order[2];
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST(HeapAllocator, FragmentationRefusesWhatTotalFreeSpaceWouldHold) {
  HeapAllocator a = with_capacity(1024);
  std::vector<std::size_t> blocks;
  for (int i = 0; i < 16; ++i) blocks.push_back(*a.allocate(64));
  for (int i = 0; i < 16; i += 2) ASSERT_TRUE(a.release(blocks[static_cast<std::size_t>(i)]));
  EXPECT_EQ(a.in_use(), 512u);
  EXPECT_EQ(a.largest_free(), 64u);
  EXPECT_EQ(a.allocate(128), std::nullopt);  // 512 bytes free, none 128 long
  EXPECT_EQ(a.allocate(64), 0u);             // the first hole
  ASSERT_TRUE(a.release(0));
  ASSERT_TRUE(a.release(blocks[1]));  // joins the holes at 0 and 128
  EXPECT_EQ(a.largest_free(), 192u);
  EXPECT_EQ(a.allocate(128), 0u);
}

TEST(HeapAllocator, GrowInPlaceIntoTheFreeSpaceBehind) {
  HeapAllocator a = with_capacity(1024);
  ASSERT_EQ(a.allocate(64), 0u);
  EXPECT_TRUE(a.grow_in_place(0, 100));  // rounds up to 112
  EXPECT_EQ(a.block_size(0), 112u);
  EXPECT_EQ(a.in_use(), 112u);
  EXPECT_TRUE(a.grow_in_place(0, 50));  // smaller: nothing to do
  EXPECT_EQ(a.block_size(0), 112u);
  EXPECT_TRUE(a.grow_in_place(0, 1024));  // exactly the rest of the heap
  EXPECT_EQ(a.largest_free(), 0u);
  EXPECT_FALSE(a.grow_in_place(0, 1040));
  EXPECT_FALSE(a.grow_in_place(16, 64));  // not a block start
}

TEST(HeapAllocator, GrowInPlaceNeedsTheSpaceRightBehind) {
  HeapAllocator a = with_capacity(1024);
  ASSERT_EQ(a.allocate(64), 0u);
  ASSERT_EQ(a.allocate(64), 64u);
  EXPECT_FALSE(a.grow_in_place(0, 80));  // a block follows
  ASSERT_TRUE(a.release(64));
  EXPECT_TRUE(a.grow_in_place(0, 80));  // now the space behind is free
  EXPECT_EQ(a.allocate(16), 80u);       // and the rest of it stayed free
  EXPECT_FALSE(a.grow_in_place(80, 2048));
}

// shmem_realloc's pattern (api/memory.cpp): grow in place, else allocate anew and release.
TEST(HeapAllocator, ReallocPattern) {
  HeapAllocator a = with_capacity(4096);
  const auto resize = [&](std::size_t offset, std::size_t size) -> std::optional<std::size_t> {
    if (a.grow_in_place(offset, size)) return offset;
    const auto moved = a.allocate(size);
    if (moved) a.release(offset);
    return moved;
  };
  const std::size_t x = *a.allocate(64), y = *a.allocate(64);
  EXPECT_EQ(resize(y, 1000), y);     // y is last: grows
  EXPECT_EQ(resize(x, 128), 1072u);  // y is in the way: moves behind it
  EXPECT_EQ(a.block_size(x), std::nullopt);
  EXPECT_EQ(resize(y, 4000), std::nullopt);  // neither fits: y stays as it was
  EXPECT_EQ(a.block_size(y), 1008u);
  EXPECT_EQ(resize(1072, 48), 1072u);  // shrinking keeps the block as it is
}

TEST(HeapAllocator, ResetForgetsEveryBlock) {
  HeapAllocator a = with_capacity(1024);
  ASSERT_TRUE(a.allocate(512));
  a.reset(2048);
  EXPECT_EQ(a.in_use(), 0u);
  EXPECT_EQ(a.block_size(0), std::nullopt);
  EXPECT_EQ(a.allocate(2048), 0u);
}

// ---- a random sequence of calls against a model ---------------------------------------------
// The model keeps one owner per 16-byte unit and applies the rule the allocator must follow:
// the lowest offset with the requested alignment whose units are all free.
class Model {
 public:
  explicit Model(std::size_t capacity) : owner_(capacity / kMin, kFree) {}

  std::optional<std::size_t> allocate(std::size_t size, std::size_t alignment) {
    const std::size_t units = (size + kMin - 1) / kMin;
    const std::size_t step = std::max(alignment, kMin) / kMin;
    // free_from[u]: free units from u on, so that each candidate costs one look.
    std::vector<std::size_t> free_from(owner_.size() + 1, 0);
    for (std::size_t u = owner_.size(); u-- > 0;)
      free_from[u] = owner_[u] == kFree ? free_from[u + 1] + 1 : 0;
    for (std::size_t u = 0; u + units <= owner_.size(); u += step)
      if (free_from[u] >= units) {
        std::fill_n(owner_.begin() + static_cast<std::ptrdiff_t>(u), units, u);
        live_[u] = units;
        return u * kMin;
      }
    return std::nullopt;
  }
  bool release(std::size_t offset) {
    const auto it = live_.find(offset / kMin);
    if (offset % kMin != 0 || it == live_.end()) return false;
    std::fill_n(owner_.begin() + static_cast<std::ptrdiff_t>(it->first), it->second, kFree);
    live_.erase(it);
    return true;
  }
  bool grow(std::size_t offset, std::size_t size) {
    const auto it = live_.find(offset / kMin);
    if (it == live_.end()) return false;
    const std::size_t u = it->first, units = (size + kMin - 1) / kMin;
    if (units <= it->second) return true;
    if (u + units > owner_.size() || !all_free(u + it->second, u + units)) return false;
    std::fill_n(owner_.begin() + static_cast<std::ptrdiff_t>(u), units, u);
    it->second = units;
    return true;
  }
  std::size_t in_use() const {
    std::size_t units = 0;
    for (const auto &[start, length] : live_) units += length;
    return units * kMin;
  }
  std::size_t largest_free() const {
    std::size_t best = 0, run = 0;
    for (std::size_t o : owner_) best = std::max(best, run = o == kFree ? run + 1 : 0);
    return best * kMin;
  }
  bool inside(std::size_t offset) const {
    const std::size_t u = offset / kMin;
    return u < owner_.size() && owner_[u] != kFree && offset != owner_[u] * kMin;
  }
  const std::map<std::size_t, std::size_t> &live() const { return live_; }  // unit -> units

 private:
  static constexpr std::size_t kFree = std::numeric_limits<std::size_t>::max();
  bool all_free(std::size_t from, std::size_t to) const {
    return std::all_of(owner_.begin() + static_cast<std::ptrdiff_t>(from),
                       owner_.begin() + static_cast<std::ptrdiff_t>(to),
                       [](std::size_t o) { return o == kFree; });
  }
  std::vector<std::size_t> owner_;  // the start unit of the block holding each unit, or kFree
  std::map<std::size_t, std::size_t> live_;
};

TEST(HeapAllocator, RandomSequenceMatchesTheFirstFitModel) {
  constexpr std::size_t kCapacity = 16 << 10;
  constexpr unsigned kSeed = 20261124;
  std::mt19937 rng(kSeed);
  SCOPED_TRACE(::testing::Message() << "seed " << kSeed);
  HeapAllocator a = with_capacity(kCapacity);
  Model model(kCapacity);
  const auto pick = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
  };
  const auto a_live_block = [&]() {
    auto it = model.live().begin();
    std::advance(it, static_cast<std::ptrdiff_t>(pick(model.live().size())));
    return it->first * kMin;
  };
  std::size_t refusals = 0, grown = 0;
  for (int step = 0; step < 6000; ++step) {
    SCOPED_TRACE(::testing::Message() << "step " << step);
    const std::size_t what = pick(10);
    if (what < 5 || model.live().empty()) {
      // Mostly small blocks, some large ones; mostly the minimum alignment, some up to 4 KiB.
      const std::size_t size = pick(8) == 0 ? 1 + pick(4096) : 1 + pick(300);
      const std::size_t alignment = pick(4) == 0 ? std::size_t{1} << pick(13) : kMin;
      const auto got = a.allocate(size, alignment);
      const auto expected = model.allocate(size, alignment);
      ASSERT_EQ(got, expected) << size << " bytes aligned to " << alignment;
      if (got) {
        EXPECT_EQ(*got % std::max(alignment, kMin), 0u);
        EXPECT_EQ(a.block_size(*got), (size + kMin - 1) / kMin * kMin);
      } else {
        ++refusals;
      }
    } else if (what < 8) {
      const std::size_t offset = pick(16) == 0 ? pick(kCapacity) : a_live_block();
      ASSERT_EQ(a.release(offset), model.release(offset)) << "release " << offset;
    } else if (what < 9) {
      const std::size_t offset = a_live_block(), size = 1 + pick(1024);
      const bool ok = a.grow_in_place(offset, size);
      ASSERT_EQ(ok, model.grow(offset, size)) << "grow " << offset << " to " << size;
      grown += ok;
    } else {
      const std::size_t offset = pick(kCapacity + 64);
      EXPECT_EQ(a.inside_block(offset), model.inside(offset)) << "inside " << offset;
      EXPECT_EQ(a.block_size(offset).has_value(),
                offset % kMin == 0 && model.live().count(offset / kMin) == 1)
          << offset;
    }
    ASSERT_EQ(a.in_use(), model.in_use());
    ASSERT_EQ(a.largest_free(), model.largest_free());
  }
  // The sequence went through full and fragmented states, not only easy ones.
  EXPECT_GT(refusals, 50u);
  EXPECT_GT(grown, 50u);
  for (const auto &[unit, units] : model.live()) EXPECT_TRUE(a.release(unit * kMin));
  EXPECT_EQ(a.largest_free(), kCapacity);  // everything coalesced again
}

// A size within 15 of SIZE_MAX once rounded up to 0 and "fit" the block as it was, so
// shmem_realloc(ptr, SIZE_MAX) returned ptr as if it had grown.
TEST(HeapAllocator, GrowingToANearMaximalSizeIsRefused) {
  HeapAllocator a = with_capacity(1024);
  ASSERT_EQ(a.allocate(64), 0u);
  EXPECT_FALSE(a.grow_in_place(0, std::numeric_limits<std::size_t>::max()));
  EXPECT_FALSE(a.grow_in_place(0, std::numeric_limits<std::size_t>::max() - 14));
  EXPECT_EQ(a.block_size(0), 64u);
}

}  // namespace
