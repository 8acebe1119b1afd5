// Strided typed RMA: shmem_<TYPENAME>_{iput,iget,ibput,ibget} and their shmem_ctx_ forms,
// for every type of the standard RMA type table (see rma_typed_test.cpp).
// Test names: RmaTypedStrided/<TYPENAME>.<Family>, e.g. RmaTypedStrided/int16.CtxIbget.
#include "rma_patterns.hpp"

using namespace shoal::test;

template <class Ops>
class RmaTypedStrided : public ::testing::Test {};
TYPED_TEST_SUITE(RmaTypedStrided, AllTypedOps, OpsName);

TYPED_TEST(RmaTypedStrided, Iput) { heap_iput<Api<TypeParam, false>>(); }
TYPED_TEST(RmaTypedStrided, CtxIput) { heap_iput<Api<TypeParam, true>>(); }
TYPED_TEST(RmaTypedStrided, Iget) { heap_iget<Api<TypeParam, false>>(); }
TYPED_TEST(RmaTypedStrided, CtxIget) { heap_iget<Api<TypeParam, true>>(); }

#if SHOAL_TEST_HAVE_1_6
TYPED_TEST(RmaTypedStrided, Ibput) { heap_ibput<Api<TypeParam, false>>(); }
TYPED_TEST(RmaTypedStrided, CtxIbput) { heap_ibput<Api<TypeParam, true>>(); }
TYPED_TEST(RmaTypedStrided, Ibget) { heap_ibget<Api<TypeParam, false>>(); }
TYPED_TEST(RmaTypedStrided, CtxIbget) { heap_ibget<Api<TypeParam, true>>(); }
#endif
