// Sized RMA routines (shmem_put8..put128, get*, iput*, iget*, ibput*, ibget*, *_nbi and
// their shmem_ctx_* forms) and the byte routines (shmem_putmem/getmem[_nbi], ctx forms).
#include "rma_patterns.hpp"

#include <string>
#include <type_traits>

using namespace shoal::test;

template <class Ops>
class RmaSized : public ::testing::Test {};
TYPED_TEST_SUITE(RmaSized, AllSizedOps, OpsName);

TYPED_TEST(RmaSized, Put) { heap_put<Api<TypeParam, false>>(); }
TYPED_TEST(RmaSized, CtxPut) { heap_put<Api<TypeParam, true>>(); }
TYPED_TEST(RmaSized, Get) { heap_get<Api<TypeParam, false>>(); }
TYPED_TEST(RmaSized, CtxGet) { heap_get<Api<TypeParam, true>>(); }
TYPED_TEST(RmaSized, Iput) { heap_iput<Api<TypeParam, false>>(); }
TYPED_TEST(RmaSized, CtxIput) { heap_iput<Api<TypeParam, true>>(); }
TYPED_TEST(RmaSized, Iget) { heap_iget<Api<TypeParam, false>>(); }
TYPED_TEST(RmaSized, CtxIget) { heap_iget<Api<TypeParam, true>>(); }
TYPED_TEST(RmaSized, PutNbi) { heap_put_nbi<Api<TypeParam, false>>(); }
TYPED_TEST(RmaSized, CtxPutNbi) { heap_put_nbi<Api<TypeParam, true>>(); }
TYPED_TEST(RmaSized, GetNbi) { heap_get_nbi<Api<TypeParam, false>>(); }
TYPED_TEST(RmaSized, CtxGetNbi) { heap_get_nbi<Api<TypeParam, true>>(); }
// 1 MiB per element size; the byte routines below move 4 MiB too.
constexpr std::size_t kSizedLargeBytes = std::size_t{1} << 20;
TYPED_TEST(RmaSized, Large) { heap_large<Api<TypeParam, false>>(kSizedLargeBytes); }
TYPED_TEST(RmaSized, CtxLargeNbi) { heap_large_nbi<Api<TypeParam, true>>(kSizedLargeBytes); }
#if SHOAL_TEST_HAVE_1_6
TYPED_TEST(RmaSized, Ibput) { heap_ibput<Api<TypeParam, false>>(); }
TYPED_TEST(RmaSized, CtxIbput) { heap_ibput<Api<TypeParam, true>>(); }
TYPED_TEST(RmaSized, Ibget) { heap_ibget<Api<TypeParam, false>>(); }
TYPED_TEST(RmaSized, CtxIbget) { heap_ibget<Api<TypeParam, true>>(); }
#else
// Compiled out for an implementation older than 1.6; Shoal's header says 1.6, so its own
// suite fails here rather than lose the ibput/ibget tests silently.
TEST(RmaSizedVersion, IbputIbgetCompiledIn) {
  SHOAL_SKIP_UNLESS_SHOAL("shmem.h declares OpenSHMEM " + std::to_string(SHMEM_MAJOR_VERSION) +
                          "." + std::to_string(SHMEM_MINOR_VERSION) +
                          ", older than 1.6: shmem_ibput/shmem_ibget tests compiled out");
}
#endif

// ---- putmem / getmem -------------------------------------------------------------------

namespace {
const std::vector<std::size_t>& mem_sizes() {
  // 0, 1, odd, a page +/- 1, and sizes past typical eager / bounce-buffer limits. Across hosts
  // a blocking put of 64 KiB + 1 to 256 KiB goes as 64 KiB messages and a last one (the 64 KiB
  // + 1, 200003 and 256 KiB cases: a 1-byte, a 3395-byte and a whole 64 KiB last piece;
  // rma/put_batch.hpp), one larger as a UCX put.
  static const std::vector<std::size_t> v = {0, 1, 7, 4095, 4097, 65537, 200003, 262144, 300001};
  return v;
}
}  // namespace

TEST(RmaMem, Putmem) { heap_put<Api<MemOps, false>>(mem_sizes()); }
TEST(RmaMem, CtxPutmem) { heap_put<Api<MemOps, true>>(mem_sizes()); }
TEST(RmaMem, Getmem) { heap_get<Api<MemOps, false>>(mem_sizes()); }
TEST(RmaMem, CtxGetmem) { heap_get<Api<MemOps, true>>(mem_sizes()); }
TEST(RmaMem, PutmemNbi) { heap_put_nbi<Api<MemOps, false>>(mem_sizes()); }
TEST(RmaMem, CtxPutmemNbi) { heap_put_nbi<Api<MemOps, true>>(mem_sizes()); }
TEST(RmaMem, GetmemNbi) { heap_get_nbi<Api<MemOps, false>>(mem_sizes()); }
TEST(RmaMem, CtxGetmemNbi) { heap_get_nbi<Api<MemOps, true>>(mem_sizes()); }
// 4 MiB through the blocking routines (and unaligned below), 1 MiB through the other forms.
TEST(RmaMem, Large) { heap_large<Api<MemOps, false>>(); }
TEST(RmaMem, CtxLarge) { heap_large<Api<MemOps, true>>(kSizedLargeBytes); }
TEST(RmaMem, LargeNbi) { heap_large_nbi<Api<MemOps, false>>(kSizedLargeBytes); }
TEST(RmaMem, CtxLargeNbi) { heap_large_nbi<Api<MemOps, true>>(kSizedLargeBytes); }

// Large transfers with sizes that are not a multiple of anything, at unaligned offsets.
TEST(RmaMem, LargeUnaligned) {
  const std::size_t bytes = (std::size_t{4} << 20) + 13;
  SymArray<unsigned char> dst(bytes + 16);
  SHOAL_ASSERT_ALL_PES(dst);
  std::vector<unsigned char> src(bytes + 3);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = fill_value<unsigned char>(me(), i);
  for (std::size_t i = 0; i < bytes + 16; ++i) dst[i] = fill_sentinel<unsigned char>(i);
  shmem_barrier_all();
  shmem_putmem(dst.get() + 5, src.data() + 3, bytes, right());
  shmem_barrier_all();
  const int l = left();
  EXPECT_TRUE(check_range("unaligned large putmem", dst.get(), 0, bytes + 16, [&](std::size_t i) {
    return (i >= 5 && i < 5 + bytes) ? fill_value<unsigned char>(l, i - 5 + 3)
                                     : fill_sentinel<unsigned char>(i);
  }));
  std::vector<unsigned char> back(bytes + 2, 0);
  shmem_getmem(back.data() + 1, dst.get() + 5, bytes, left());  // what left's left wrote
  const int ll = (l + npes() - 1) % npes();
  EXPECT_TRUE(check_range("unaligned large getmem", back.data(), 1, bytes + 1,
                          [&](std::size_t i) { return fill_value<unsigned char>(ll, i - 1 + 3); }));
  EXPECT_EQ(back[0], 0);
  EXPECT_EQ(back[bytes + 1], 0);
  shmem_barrier_all();
}

// shmem_ctx_create / shmem_ctx_destroy, if the header declares them (see
// SHOAL_TEST_FALLBACK in mpp_test.hpp).
SHOAL_TEST_FALLBACK(shmem_ctx_create)
SHOAL_TEST_FALLBACK(shmem_ctx_destroy)

static int ctx_create(long options, shmem_ctx_t* ctx) {
  using namespace shoal_fallback;
  return shmem_ctx_create(options, ctx);
}
static void ctx_destroy(shmem_ctx_t ctx) {
  using namespace shoal_fallback;
  shmem_ctx_destroy(ctx);
}
static constexpr bool have_ctx_create() {
  using namespace shoal_fallback;
  return shoal_declared<decltype(shmem_ctx_create(0L, static_cast<shmem_ctx_t*>(nullptr)))>;
}

// Contexts the program creates, not only SHMEM_CTX_DEFAULT.
TEST(RmaCtx, CreatedContexts) {
  if (!have_ctx_create()) SHOAL_SKIP_UNLESS_SHOAL("shmem_ctx_create is not declared by shmem.h");
  const long options[] = {0, SHMEM_CTX_SERIALIZED, SHMEM_CTX_PRIVATE, SHMEM_CTX_NOSTORE};
  SymArray<long> buf(4 * 64);
  SHOAL_ASSERT_ALL_PES(buf);
  for (int o = 0; o < 4; ++o) {
    SCOPED_TRACE("options=" + std::to_string(options[o]));
    shmem_ctx_t ctx;
    const int rc = ctx_create(options[o], &ctx);
    if (!all_pes(rc == 0)) {
      EXPECT_TRUE(all_pes(rc != 0)) << "shmem_ctx_create succeeded on some PEs only";
      if (rc == 0) ctx_destroy(ctx);
      continue;  // creating contexts may legitimately fail
    }
    for (int i = 0; i < 4 * 64; ++i) buf[i] = -1;
    long src[64];
    for (int i = 0; i < 64; ++i) src[i] = value_of<long>(me(), i + o);
    shmem_barrier_all();
    shmem_ctx_long_put(ctx, buf.get() + 64 * 0, src, 64, right());
    shmem_ctx_long_put_nbi(ctx, buf.get() + 64 * 1, src, 64, right());
    shmem_ctx_putmem(ctx, buf.get() + 64 * 2, src, 64 * sizeof(long), right());
    shmem_ctx_long_p(ctx, buf.get() + 64 * 3, src[0], right());
    shmem_ctx_quiet(ctx);
    long back[64];
    shmem_ctx_long_get(ctx, back, buf.get() + 64, 64, right());
    EXPECT_TRUE(check_range("ctx put_nbi read back after shmem_ctx_quiet", back, 0, 64,
                            [&](std::size_t i) { return src[i]; }));
    shmem_barrier_all();
    const int l = left();
    for (int r = 0; r < 3; ++r) {
      EXPECT_TRUE(check_range("region written through created ctx", buf.get(), 64 * r, 64 * r + 64,
                              [&](std::size_t i) { return value_of<long>(l, i % 64 + o); }));
    }
    EXPECT_EQ(buf[64 * 3], value_of<long>(l, o));
    EXPECT_EQ(shmem_ctx_long_g(ctx, buf.get() + 64 * 3, right()), value_of<long>(me(), o));
    shmem_barrier_all();
    ctx_destroy(ctx);
  }
}
