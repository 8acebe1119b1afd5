// Extended AMOs (fetch, set, swap and their nbi forms) for every type of the standard and the
// extended AMO tables, float and double compared bit for bit (-0.0, NaN payloads, infinities,
// denormals). Test names: AmoExtended/<TYPENAME>.<Scenario>, e.g. AmoExtended/double.NbiSequence.
#include "amo_scenarios.hpp"

using namespace shoal::test::amo;

template <class Ops>
class AmoExtended : public ::testing::Test {};
TYPED_TEST_SUITE(AmoExtended, ExtendedOps, OpsName);

// Self-targeted and next-PE set / fetch / swap chains.
SHOAL_AMO_FOUR_MODES(AmoExtended, Sequence, extended_sequence)
// Concurrent swap chain and concurrent set on one PE.
SHOAL_AMO_FOUR_MODES(AmoExtended, Concurrent, extended_concurrent)

TYPED_TEST(AmoExtended, NbiBatch) { extended_nbi_batch<TypeParam, false>(); }
TYPED_TEST(AmoExtended, CtxNbiBatch) { extended_nbi_batch<TypeParam, true>(); }
