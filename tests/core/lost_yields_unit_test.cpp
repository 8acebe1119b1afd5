// In-process unit test: when a waiting PE stops yielding its CPU (core/lost_yields.hpp). No
// PEs, no clock: the times are made up.
#include "lost_yields.hpp"

#include <gtest/gtest.h>

using shoal::LostYields;

namespace {

constexpr std::uint64_t kUs = 1'000;
constexpr std::uint64_t kMs = 1'000'000;
constexpr std::uint64_t kStart = 5'000 * kMs;  // an arbitrary monotonic time

}  // namespace

TEST(LostYields, YieldsUntilOneIsLost) {
  LostYields lost;
  EXPECT_FALSE(lost.any());
  EXPECT_TRUE(lost.may_yield(kStart));
  // Handed straight back, or by a PE that waits too: microseconds.
  lost.yielded(1 * kUs, kStart, false);
  lost.yielded(40 * kUs, kStart + kMs, false);
  EXPECT_FALSE(lost.any());
  EXPECT_TRUE(lost.may_yield(kStart + 2 * kMs));
}

TEST(LostYields, LostYieldStopsYieldingForAWhile) {
  LostYields lost;
  const std::uint64_t at = kStart + 4 * kMs;
  lost.yielded(4 * kMs, at, false);  // a busy task kept the CPU for its time slice
  EXPECT_TRUE(lost.any());
  EXPECT_FALSE(lost.may_yield(at));
  EXPECT_FALSE(lost.may_yield(at + LostYields::kNoYieldNs - 1));
  EXPECT_TRUE(lost.may_yield(at + LostYields::kNoYieldNs));
  EXPECT_FALSE(lost.any());  // looked at, and over
}

TEST(LostYields, AnotherLossRestartsThePause) {
  LostYields lost;
  lost.yielded(3 * kMs, kStart, false);
  const std::uint64_t probe = kStart + LostYields::kNoYieldNs;
  ASSERT_TRUE(lost.may_yield(probe));
  lost.yielded(2 * kMs, probe + 2 * kMs, false);  // the busy task is still there
  EXPECT_FALSE(lost.may_yield(probe + LostYields::kNoYieldNs));
  EXPECT_TRUE(lost.may_yield(probe + 2 * kMs + LostYields::kNoYieldNs));
}

TEST(LostYields, ThresholdIsTheLostYieldTime) {
  LostYields lost;
  lost.yielded(LostYields::kLostYieldNs, kStart, false);
  EXPECT_FALSE(lost.any());
  lost.yielded(LostYields::kLostYieldNs + 1, kStart, false);
  EXPECT_TRUE(lost.any());
}

TEST(LostYields, MorePesThanCpusKeepYielding) {
  // There the task that keeps the CPU is likely the PE waited for: the yield lets it finish.
  LostYields lost;
  lost.yielded(4 * kMs, kStart, true);
  EXPECT_FALSE(lost.any());
  EXPECT_TRUE(lost.may_yield(kStart + kMs));
}
