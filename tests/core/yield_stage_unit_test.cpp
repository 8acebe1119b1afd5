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

TEST(YieldStage, AYieldLostToATaskNapsAfterItsRounds) {
  const YieldStage stage = yielded(YieldStage::kRounds, 1'000);
  EXPECT_TRUE(stage.goes_on(YieldStage::kRounds, false, false));
  EXPECT_FALSE(stage.goes_on(YieldStage::kRounds + 1, false, false));
}

TEST(YieldStage, AKeptCpuYieldsForItsTime) {
  // Every PE has a CPU and no task that computes took it: far more rounds than kRounds, yet for
  // less than kFreeCpuNs, go on; once the yields span kFreeCpuNs, nap.
  const std::uint64_t apart = 1'000;
  const unsigned rounds = static_cast<unsigned>(YieldStage::kFreeCpuNs / apart);
  YieldStage stage = yielded(rounds, apart);
  EXPECT_TRUE(stage.goes_on(rounds, false, true));
  EXPECT_FALSE(stage.goes_on(rounds, false, false));  // the last yield lost the CPU
  stage.yielded(kStart + rounds * apart);
  EXPECT_FALSE(stage.goes_on(rounds + 1, false, true));
}

TEST(YieldStage, MorePesThanCpusYieldForTheirTime) {
  // Many more rounds than kRounds, yet for less than kOversubscribedNs: go on yielding.
  const std::uint64_t apart = 1'000;
  const unsigned rounds = static_cast<unsigned>(YieldStage::kOversubscribedNs / apart);
  YieldStage stage = yielded(rounds, apart);
  EXPECT_TRUE(stage.goes_on(rounds, true, false));
  EXPECT_FALSE(stage.goes_on(rounds, false, false));
  // One more yield and the stage has lasted kOversubscribedNs: nap.
  stage.yielded(kStart + rounds * apart);
  EXPECT_FALSE(stage.goes_on(rounds + 1, true, true));
}

TEST(YieldStage, ResetStartsTheTimeAfresh) {
  YieldStage stage = yielded(10, YieldStage::kOversubscribedNs);  // long past its time
  ASSERT_FALSE(stage.goes_on(YieldStage::kRounds + 1, true, true));
  stage.reset();  // something happened
  stage.yielded(kStart + 20 * YieldStage::kOversubscribedNs);
  EXPECT_TRUE(stage.goes_on(YieldStage::kRounds + 1, true, true));
}

TEST(YieldStage, NoYieldYetGoesOn) {
  // Rounds that spun between probing yields (the CPU was free) do not end the stage early.
  const YieldStage stage;
  EXPECT_TRUE(stage.goes_on(YieldStage::kRounds * 4, true, false));
  EXPECT_TRUE(stage.goes_on(YieldStage::kRounds * 4, false, true));
}

TEST(YieldStage, AFreeCpuIsProbedNoSoonerThanItsTime) {
  const YieldStage stage = yielded(3, 1'000);  // the latest yield ended at kStart + 2 us
  const std::uint64_t last = kStart + 2'000;
  EXPECT_FALSE(stage.probe_due(false, last));
  EXPECT_FALSE(stage.probe_due(false, last + YieldStage::kProbeNs - 1));
  EXPECT_TRUE(stage.probe_due(false, last + YieldStage::kProbeNs));
  // More PEs than CPUs: the PE waited for may want this CPU, so every probe round yields.
  EXPECT_TRUE(stage.probe_due(true, last));
  // No yield yet in this quiet spell: the first probe yields.
  EXPECT_TRUE(YieldStage{}.probe_due(false, kStart));
}
