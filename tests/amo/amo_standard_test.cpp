// Standard AMOs (compare_swap, fetch_inc, inc, fetch_add, add, with fetch / set / swap) for
// every type of SMA_AMO_STANDARD_TYPES, in every calling form, on the symmetric heap, a global
// in .data and a function-local static in .bss. Test names: AmoStandard/<TYPENAME>.<Scenario>,
// e.g. AmoStandard/ptrdiff.CtxNbiConcurrentCounter.
#include "amo_scenarios.hpp"

using namespace shoal::test::amo;

template <class Ops>
class AmoStandard : public ::testing::Test {};
TYPED_TEST_SUITE(AmoStandard, StandardOps, OpsName);

// Self-targeted and next-PE sequences with every result checked.
SHOAL_AMO_FOUR_MODES(AmoStandard, Sequence, standard_sequence)
// Every PE on one counter of PE 0: returned old values, exact totals.
SHOAL_AMO_FOUR_MODES(AmoStandard, ConcurrentCounter, standard_counter)
// Every PE compare_swaps the same value: exactly one winner.
SHOAL_AMO_FOUR_MODES(AmoStandard, CompareSwapRace, standard_cswap_race)

TYPED_TEST(AmoStandard, NbiBatch) { standard_nbi_batch<TypeParam, false>(); }
TYPED_TEST(AmoStandard, CtxNbiBatch) { standard_nbi_batch<TypeParam, true>(); }
