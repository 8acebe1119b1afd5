// Every typed RMA routine (shmem_<TYPENAME>_* and shmem_ctx_<TYPENAME>_* on
// SHMEM_CTX_DEFAULT) for every type of the standard RMA type table, on the symmetric heap:
// contiguous put/get/p/g, nbi and large transfers here, strided ones in
// rma_typed_strided_test.cpp (same program, split so the two halves compile in parallel).
// Test names: RmaTyped/<TYPENAME>.<Family>, e.g. RmaTyped/longdouble.CtxGetNbi.
#include "rma_patterns.hpp"

using namespace shoal::test;

template <class Ops>
class RmaTyped : public ::testing::Test {};
TYPED_TEST_SUITE(RmaTyped, AllTypedOps, OpsName);

TYPED_TEST(RmaTyped, Put) { heap_put<Api<TypeParam, false>>(); }
TYPED_TEST(RmaTyped, CtxPut) { heap_put<Api<TypeParam, true>>(); }
TYPED_TEST(RmaTyped, Get) { heap_get<Api<TypeParam, false>>(); }
TYPED_TEST(RmaTyped, CtxGet) { heap_get<Api<TypeParam, true>>(); }
TYPED_TEST(RmaTyped, P) { heap_p<Api<TypeParam, false>>(); }
TYPED_TEST(RmaTyped, CtxP) { heap_p<Api<TypeParam, true>>(); }
TYPED_TEST(RmaTyped, G) { heap_g<Api<TypeParam, false>>(); }
TYPED_TEST(RmaTyped, CtxG) { heap_g<Api<TypeParam, true>>(); }
TYPED_TEST(RmaTyped, PutNbi) { heap_put_nbi<Api<TypeParam, false>>(); }
TYPED_TEST(RmaTyped, CtxPutNbi) { heap_put_nbi<Api<TypeParam, true>>(); }
TYPED_TEST(RmaTyped, GetNbi) { heap_get_nbi<Api<TypeParam, false>>(); }
TYPED_TEST(RmaTyped, CtxGetNbi) { heap_get_nbi<Api<TypeParam, true>>(); }
// Large transfers of every type: 256 KiB (just over, an odd element count for most types) is
// past every eager and bounce-buffer threshold, and the typed routines reach the same byte path
// whatever the count; the 1 and 4 MiB transfers run once per element size in rma_sized_test.cpp.
constexpr std::size_t kTypedLargeBytes = std::size_t{256} << 10;
TYPED_TEST(RmaTyped, Large) { heap_large<Api<TypeParam, false>>(kTypedLargeBytes); }
TYPED_TEST(RmaTyped, CtxLargeNbi) { heap_large_nbi<Api<TypeParam, true>>(kTypedLargeBytes); }
