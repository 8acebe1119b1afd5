// Non-fetching AMOs (add, inc) from every PE into one PE must all be visible after shmem_quiet
// and a barrier, even when more are in flight than the transport's receive queue holds.
// long and int (the 64- and 32-bit paths), default-context and ctx routines, every place.
#include "amo_scenarios.hpp"

using namespace shoal::test::amo;

namespace {
constexpr int kPostedPerPe = 200;
constexpr int kRounds = 3;
}  // namespace

TEST(AmoCompletion, PostedFanInLong) {
  standard_posted_fan_in<Ops_long, Mode::plain>(kPostedPerPe, kRounds);
}
TEST(AmoCompletion, CtxPostedFanInLong) {
  standard_posted_fan_in<Ops_long, Mode::ctx>(kPostedPerPe, kRounds);
}
TEST(AmoCompletion, PostedFanInInt) {
  standard_posted_fan_in<Ops_int, Mode::plain>(kPostedPerPe, kRounds);
}
TEST(AmoCompletion, CtxPostedFanInInt) {
  standard_posted_fan_in<Ops_int, Mode::ctx>(kPostedPerPe, kRounds);
}
