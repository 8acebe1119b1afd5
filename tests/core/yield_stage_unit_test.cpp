// In-process unit test: how long a wait yields before it naps (core/yield_stage.hpp). No PEs,
// no clock: the times are made up.
#include "yield_stage.hpp"

#include <gtest/gtest.h>

using shoal::YieldStage;

namespace {

constexpr std::uint64_t kMs = 1'000'000;
constexpr std::uint64_t kStart = 7'000 * kMs;  // an arbitrary monotonic time

// Yields `rounds` times, `apart_ns` apart, from kStart on; returns the stage.
YieldStage yielded(unsigned rounds, std::uint64_t apart_ns) {
  YieldStage stage;
  for (unsigned r = 0; r < rounds; ++r) stage.yielded(kStart + r * apart_ns);
  return stage;
}

}  // namespace

TEST(YieldStage, EveryPeWithACpuNapsAfterItsRounds) {
  const YieldStage stage = yielded(YieldStage::kRounds, 1'000);
  EXPECT_TRUE(stage.goes_on(YieldStage::kRounds, false));
  EXPECT_FALSE(stage.goes_on(YieldStage::kRounds + 1, false));
}

TEST(YieldStage, MorePesThanCpusYieldForTheirTime) {
  // Many more rounds than kRounds, yet for less than kOversubscribedNs: go on yielding.
  const std::uint64_t apart = 1'000;
  const unsigned rounds = static_cast<unsigned>(YieldStage::kOversubscribedNs / apart);
  YieldStage stage = yielded(rounds, apart);
  EXPECT_TRUE(stage.goes_on(rounds, true));
  EXPECT_FALSE(stage.goes_on(rounds, false));
  // One more yield and the stage has lasted kOversubscribedNs: nap.
  stage.yielded(kStart + rounds * apart);
  EXPECT_FALSE(stage.goes_on(rounds + 1, true));
}

TEST(YieldStage, ResetStartsTheTimeAfresh) {
  YieldStage stage = yielded(10, YieldStage::kOversubscribedNs);  // long past its time
  ASSERT_FALSE(stage.goes_on(YieldStage::kRounds + 1, true));
  stage.reset();  // something happened
  stage.yielded(kStart + 20 * YieldStage::kOversubscribedNs);
  EXPECT_TRUE(stage.goes_on(YieldStage::kRounds + 1, true));
}

TEST(YieldStage, NoYieldYetGoesOn) {
  // Rounds that spun between probing yields (the CPU was free) do not end the stage early.
  const YieldStage stage;
  EXPECT_TRUE(stage.goes_on(YieldStage::kRounds * 4, true));
}
