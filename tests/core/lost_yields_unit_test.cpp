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

TEST(LostYields, LoneLossIsAnInterruption) {
  // A system task that woke for a millisecond: it would have taken the CPU from a spinning PE too.
  LostYields lost;
  lost.yielded(1 * kMs, kStart, false);
  EXPECT_FALSE(lost.any());
  EXPECT_TRUE(lost.may_yield(kStart + kUs));
  // The next one half a second later is another interruption, not a task that computes.
  lost.yielded(1 * kMs, kStart + 512 * kMs, false);
  EXPECT_FALSE(lost.any());
  lost.yielded(1 * kMs, kStart + 512 * kMs + LostYields::kConfirmNs, false);
  EXPECT_FALSE(lost.any());
}

TEST(LostYields, LostYieldsStopYieldingForAWhile) {
  LostYields lost;
  lost.yielded(4 * kMs, kStart, false);  // a busy task kept the CPU for its time slice
  EXPECT_FALSE(lost.any());
  const std::uint64_t at = kStart + 5 * kMs;
  lost.yielded(4 * kMs, at, false);  // and the next one too: it is there to stay
  EXPECT_TRUE(lost.any());
  EXPECT_FALSE(lost.may_yield(at));
  EXPECT_FALSE(lost.may_yield(at + LostYields::kNoYieldNs - 1));
  EXPECT_TRUE(lost.may_yield(at + LostYields::kNoYieldNs));
  EXPECT_FALSE(lost.any());  // looked at, and over
}

TEST(LostYields, AnotherPairOfLossesRestartsThePause) {
  LostYields lost;
  lost.yielded(3 * kMs, kStart, false);
  lost.yielded(3 * kMs, kStart + 4 * kMs, false);
  const std::uint64_t probe = kStart + 4 * kMs + LostYields::kNoYieldNs;
  ASSERT_TRUE(lost.may_yield(probe));
  // The busy task is still there: the first loss after the pause is not enough, the next is.
  lost.yielded(2 * kMs, probe + 2 * kMs, false);
  EXPECT_FALSE(lost.any());
  lost.yielded(2 * kMs, probe + 5 * kMs, false);
  EXPECT_FALSE(lost.may_yield(probe + 5 * kMs + LostYields::kNoYieldNs - 1));
  EXPECT_TRUE(lost.may_yield(probe + 5 * kMs + LostYields::kNoYieldNs));
}

TEST(LostYields, ThresholdIsTheLostYieldTime) {
  LostYields lost;
  lost.yielded(LostYields::kLostYieldNs + 1, kStart, false);
  lost.yielded(LostYields::kLostYieldNs, kStart + kMs, false);  // not lost
  EXPECT_FALSE(lost.any());
  lost.yielded(LostYields::kLostYieldNs + 1, kStart + 2 * kMs, false);
  EXPECT_TRUE(lost.any());
}

TEST(LostYields, MorePesThanCpusKeepYielding) {
  // There the task that keeps the CPU is likely the PE waited for: the yield lets it finish.
  LostYields lost;
  lost.yielded(4 * kMs, kStart, true);
  lost.yielded(4 * kMs, kStart + 5 * kMs, true);
  EXPECT_FALSE(lost.any());
  EXPECT_TRUE(lost.may_yield(kStart + kMs));
}
