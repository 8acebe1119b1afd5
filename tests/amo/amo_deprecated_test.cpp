// The deprecated (OpenSHMEM 1.0-1.3) AMO names shmem_<TYPENAME>_{fetch,set,swap,cswap,finc,inc,
// fadd,add}, stamped out of SMA_AMO_DEPRECATED_TYPES and SMA_AMO_DEPRECATED_EXTENDED_ONLY_TYPES
// and run through the same scenarios as the current names, plus the untyped shmem_swap.
#include "amo_scenarios.hpp"

using namespace shoal::test;
using namespace shoal::test::amo;

template <class Ops>
class AmoDeprecatedStandard : public ::testing::Test {};
TYPED_TEST_SUITE(AmoDeprecatedStandard, DeprecatedStandardOps, OpsName);

TYPED_TEST(AmoDeprecatedStandard, Sequence) { standard_sequence<TypeParam, Mode::plain>(); }
TYPED_TEST(AmoDeprecatedStandard, ConcurrentCounter) { standard_counter<TypeParam, Mode::plain>(); }
TYPED_TEST(AmoDeprecatedStandard, CompareSwapRace) {
  standard_cswap_race<TypeParam, Mode::plain>();
}

template <class Ops>
class AmoDeprecatedExtended : public ::testing::Test {};
TYPED_TEST_SUITE(AmoDeprecatedExtended, DeprecatedExtendedOps, OpsName);

TYPED_TEST(AmoDeprecatedExtended, Sequence) { extended_sequence<TypeParam, Mode::plain>(); }
TYPED_TEST(AmoDeprecatedExtended, Concurrent) { extended_concurrent<TypeParam, Mode::plain>(); }

// The OpenSHMEM 1.0-1.2 untyped long swap (a real C function, not a generic name).
struct UntypedSwapOps {
  using type = long;
  static constexpr const char* name = "untyped_swap";
  template <Mode M>
  static long fetch(const long* source, int pe) {
    return shmem_long_atomic_fetch(source, pe);
  }
  template <Mode M>
  static void set(long* dest, long value, int pe) {
    shmem_long_atomic_set(dest, value, pe);
  }
  template <Mode M>
  static long swap(long* dest, long value, int pe) {
    return shmem_swap(dest, value, pe);
  }
};

TEST(AmoDeprecated, UntypedSwapSequence) { extended_sequence<UntypedSwapOps, Mode::plain>(); }
TEST(AmoDeprecated, UntypedSwapConcurrent) { extended_concurrent<UntypedSwapOps, Mode::plain>(); }
