// Bitwise AMOs (fetch_and, and, fetch_or, or, fetch_xor, xor and the fetching nbi forms) for
// every type of SMA_AMO_BITWISE_TYPES, with patterns that set, clear and toggle the top bit.
// Test names: AmoBitwise/<TYPENAME>.<Scenario>, e.g. AmoBitwise/uint64.CtxConcurrent.
#include "amo_scenarios.hpp"

using namespace shoal::test::amo;

template <class Ops>
class AmoBitwise : public ::testing::Test {};
TYPED_TEST_SUITE(AmoBitwise, BitwiseOps, OpsName);

// Self-targeted and next-PE sequences of every bitwise operation.
SHOAL_AMO_FOUR_MODES(AmoBitwise, Sequence, bitwise_sequence)
// Every PE sets, toggles and clears its own bits of one word on PE 0.
SHOAL_AMO_FOUR_MODES(AmoBitwise, Concurrent, bitwise_concurrent)

TYPED_TEST(AmoBitwise, NbiBatch) { bitwise_nbi_batch<TypeParam, false>(); }
TYPED_TEST(AmoBitwise, CtxNbiBatch) { bitwise_nbi_batch<TypeParam, true>(); }
