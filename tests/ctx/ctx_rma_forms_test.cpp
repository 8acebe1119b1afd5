// Every shmem_ctx_* RMA routine (typed, sized, mem; put, get, p, g, iput, iget, ibput, ibget,
// put_nbi, get_nbi) on a context made by shmem_ctx_create, never on SHMEM_CTX_DEFAULT. The
// options rotate through every combination from one test case to the next. Operations
// are completed with shmem_ctx_quiet on that context before the barrier that precedes the
// checks (the barrier itself completes only the default context). The contexts come from a
// pool with one context per option combination (ctx_pool.hpp); each test case takes the next.
#include "ctx_pool.hpp"
#include "rma_patterns.hpp"

using namespace shoal::test;
using namespace shoal::test::ctx;

namespace {

// Takes the next pooled context (same one on every PE).
class CtxRmaFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    const int i = next_pool_index();
    options_name_ = kOptionCases[i].name;
    ctx_ = g_context_pool->get(i);
    const bool ok = ctx_ != SHMEM_CTX_INVALID;
    EXPECT_TRUE(ok) << "shmem_ctx_create(" << options_name_ << ") failed at start-up";
    ASSERT_TRUE(all_pes(ok)) << "context creation failed on some PE";
  }
  void TearDown() override { shmem_barrier_all(); }
  shmem_ctx_t c() const { return ctx_; }
  std::string trace() const { return std::string("context options ") + options_name_; }

  shmem_ctx_t ctx_ = SHMEM_CTX_INVALID;
  const char* options_name_ = "";
};

// Completion on the test's context.
struct CtxQuiet {
  shmem_ctx_t c;
  void operator()() const { shmem_ctx_quiet(c); }
};

const std::vector<std::size_t>& sizes() {
  static const std::vector<std::size_t> v = {0, 1, 37, 1021};
  return v;
}
const std::vector<std::size_t>& counts() {
  static const std::vector<std::size_t> v = {1, 5, 37};
  return v;
}

// ---- family runners on a created context ----------------------------------------------------

template <class Ops>
void ctx_put(shmem_ctx_t c, bool nbi) {
  using T = typename Ops::type;
  const std::size_t cap = sizes().back() + 3;
  SymArray<T> area((2 + npes()) * cap);
  SHOAL_ASSERT_ALL_PES(area);
  auto put = [c, nbi](T* d, const T* s, std::size_t n, int pe) {
    if (nbi)
      Ops::ctx_put_nbi(c, d, s, n, pe);
    else
      Ops::ctx_put(c, d, s, n, pe);
  };
  run_put_patterns<T>(nbi ? "ctx put_nbi + ctx quiet" : "ctx put + ctx quiet", area.get(),
                      area.size(), sizes(), put, CtxQuiet{c}, /*readback=*/true);
}

template <class Ops>
void ctx_get(shmem_ctx_t c, bool nbi) {
  using T = typename Ops::type;
  SymArray<T> area(sizes().back() + 1);
  SHOAL_ASSERT_ALL_PES(area);
  if (nbi) {
    run_get_patterns<T>(
        "ctx get_nbi + ctx quiet", area.get(), area.size(), sizes(),
        [c](T* d, const T* s, std::size_t n, int pe) { Ops::ctx_get_nbi(c, d, s, n, pe); },
        CtxQuiet{c});
  } else {
    // A blocking get is complete on return: no quiet before the check.
    run_get_patterns<T>(
        "ctx get", area.get(), area.size(), sizes(),
        [c](T* d, const T* s, std::size_t n, int pe) { Ops::ctx_get(c, d, s, n, pe); });
  }
}

template <class Ops>
void ctx_p(shmem_ctx_t c) {
  using T = typename Ops::type;
  const std::vector<std::size_t> sz = {0, 1, 37};
  SymArray<T> area((2 + npes()) * 40);
  SHOAL_ASSERT_ALL_PES(area);
  run_put_patterns<T>(
      "ctx p (element by element)", area.get(), area.size(), sz,
      [c](T* d, const T* s, std::size_t n, int pe) {
        for (std::size_t i = 0; i < n; ++i) Ops::ctx_p(c, d + i, s[i], pe);
      },
      CtxQuiet{c});
}

template <class Ops>
void ctx_g(shmem_ctx_t c) {
  using T = typename Ops::type;
  const std::vector<std::size_t> sz = {0, 1, 37};
  SymArray<T> area(38);
  SHOAL_ASSERT_ALL_PES(area);
  run_get_patterns<T>("ctx g (element by element)", area.get(), area.size(), sz,
                      [c](T* d, const T* s, std::size_t n, int pe) {
                        for (std::size_t i = 0; i < n; ++i) d[i] = Ops::ctx_g(c, s + i, pe);
                      });
}

template <class Ops>
void ctx_iput(shmem_ctx_t c) {
  using T = typename Ops::type;
  SymArray<T> area(2 * (37 * 5 + 2));
  SHOAL_ASSERT_ALL_PES(area);
  run_iput_patterns<T>(
      "ctx iput", area.get(), area.size(), counts(),
      [c](T* d, const T* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t n, int pe) {
        Ops::ctx_iput(c, d, s, dst, sst, n, pe);
      },
      CtxQuiet{c});
}

template <class Ops>
void ctx_iget(shmem_ctx_t c) {
  using T = typename Ops::type;
  SymArray<T> area(37 * 5 + 2);
  SHOAL_ASSERT_ALL_PES(area);
  run_iget_patterns<T>("ctx iget", area.get(), area.size(), counts(),
                       [c](T* d, const T* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t n,
                           int pe) { Ops::ctx_iget(c, d, s, dst, sst, n, pe); });
}

template <class Ops>
void ctx_ibput(shmem_ctx_t c) {
  using T = typename Ops::type;
  if constexpr (Ops::has_ib) {
    SymArray<T> area(2 * 160);
    SHOAL_ASSERT_ALL_PES(area);
    run_ibput_patterns<T>(
        "ctx ibput", area.get(), area.size(),
        [c](T* d, const T* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t bsize,
            std::size_t nblocks, int pe) { Ops::ctx_ibput(c, d, s, dst, sst, bsize, nblocks, pe); },
        CtxQuiet{c});
  }
}

template <class Ops>
void ctx_ibget(shmem_ctx_t c) {
  using T = typename Ops::type;
  if constexpr (Ops::has_ib) {
    SymArray<T> area(160);
    SHOAL_ASSERT_ALL_PES(area);
    run_ibget_patterns<T>("ctx ibget", area.get(), area.size(),
                          [c](T* d, const T* s, std::ptrdiff_t dst, std::ptrdiff_t sst,
                              std::size_t bsize, std::size_t nblocks,
                              int pe) { Ops::ctx_ibget(c, d, s, dst, sst, bsize, nblocks, pe); });
  }
}

}  // namespace

// ---- typed routines: shmem_ctx_<TYPENAME>_*
// ------------------------------------------------------
template <class Ops>
class CtxRmaTyped : public CtxRmaFixture {};
TYPED_TEST_SUITE(CtxRmaTyped, AllTypedOps, OpsName);

TYPED_TEST(CtxRmaTyped, Put) {
  SCOPED_TRACE(this->trace());
  ctx_put<TypeParam>(this->c(), false);
}
TYPED_TEST(CtxRmaTyped, PutNbi) {
  SCOPED_TRACE(this->trace());
  ctx_put<TypeParam>(this->c(), true);
}
TYPED_TEST(CtxRmaTyped, P) {
  SCOPED_TRACE(this->trace());
  ctx_p<TypeParam>(this->c());
}
TYPED_TEST(CtxRmaTyped, Get) {
  SCOPED_TRACE(this->trace());
  ctx_get<TypeParam>(this->c(), false);
}
TYPED_TEST(CtxRmaTyped, GetNbi) {
  SCOPED_TRACE(this->trace());
  ctx_get<TypeParam>(this->c(), true);
}
TYPED_TEST(CtxRmaTyped, G) {
  SCOPED_TRACE(this->trace());
  ctx_g<TypeParam>(this->c());
}
TYPED_TEST(CtxRmaTyped, Iput) {
  SCOPED_TRACE(this->trace());
  ctx_iput<TypeParam>(this->c());
}
TYPED_TEST(CtxRmaTyped, Iget) {
  SCOPED_TRACE(this->trace());
  ctx_iget<TypeParam>(this->c());
}
TYPED_TEST(CtxRmaTyped, Ibput) {
  SCOPED_TRACE(this->trace());
  ctx_ibput<TypeParam>(this->c());
}
TYPED_TEST(CtxRmaTyped, Ibget) {
  SCOPED_TRACE(this->trace());
  ctx_ibget<TypeParam>(this->c());
}

// ---- sized routines: shmem_ctx_{put,get,iput,iget,ibput,ibget}<BITS>[_nbi] --------------------
template <class Ops>
class CtxRmaSized : public CtxRmaFixture {};
TYPED_TEST_SUITE(CtxRmaSized, AllSizedOps, OpsName);

TYPED_TEST(CtxRmaSized, Put) {
  SCOPED_TRACE(this->trace());
  ctx_put<TypeParam>(this->c(), false);
}
TYPED_TEST(CtxRmaSized, PutNbi) {
  SCOPED_TRACE(this->trace());
  ctx_put<TypeParam>(this->c(), true);
}
TYPED_TEST(CtxRmaSized, Get) {
  SCOPED_TRACE(this->trace());
  ctx_get<TypeParam>(this->c(), false);
}
TYPED_TEST(CtxRmaSized, GetNbi) {
  SCOPED_TRACE(this->trace());
  ctx_get<TypeParam>(this->c(), true);
}
TYPED_TEST(CtxRmaSized, Iput) {
  SCOPED_TRACE(this->trace());
  ctx_iput<TypeParam>(this->c());
}
TYPED_TEST(CtxRmaSized, Iget) {
  SCOPED_TRACE(this->trace());
  ctx_iget<TypeParam>(this->c());
}
TYPED_TEST(CtxRmaSized, Ibput) {
  SCOPED_TRACE(this->trace());
  ctx_ibput<TypeParam>(this->c());
}
TYPED_TEST(CtxRmaSized, Ibget) {
  SCOPED_TRACE(this->trace());
  ctx_ibget<TypeParam>(this->c());
}

// ---- mem routines: shmem_ctx_{put,get}mem[_nbi] ------------------------------------------------
class CtxRmaMem : public CtxRmaFixture {};

TEST_F(CtxRmaMem, Putmem) {
  SCOPED_TRACE(trace());
  ctx_put<MemOps>(c(), false);
}
TEST_F(CtxRmaMem, PutmemNbi) {
  SCOPED_TRACE(trace());
  ctx_put<MemOps>(c(), true);
}
TEST_F(CtxRmaMem, Getmem) {
  SCOPED_TRACE(trace());
  ctx_get<MemOps>(c(), false);
}
TEST_F(CtxRmaMem, GetmemNbi) {
  SCOPED_TRACE(trace());
  ctx_get<MemOps>(c(), true);
}

// Transfers larger than any eager or bounce-buffer threshold, nonblocking, in both directions
// at once on one context, completed by one shmem_ctx_quiet.
TEST_F(CtxRmaMem, LargeNbiBothWays) {
  SCOPED_TRACE(trace());
  constexpr std::size_t kBytes = (std::size_t{1} << 20) + 3;
  SymArray<unsigned char> dst(kBytes + 1), src(kBytes);
  SHOAL_ASSERT_ALL_PES(dst && src);
  for (std::size_t i = 0; i <= kBytes; ++i) dst[i] = fill_sentinel<unsigned char>(i);
  for (std::size_t i = 0; i < kBytes; ++i) src[i] = fill_value<unsigned char>(me(), i);
  std::vector<unsigned char> got(kBytes + 1, 0xEE);
  shmem_barrier_all();
  shmem_ctx_putmem_nbi(c(), dst.get(), src.get(), kBytes, right());
  shmem_ctx_getmem_nbi(c(), got.data(), src.get(), kBytes, right());
  shmem_ctx_quiet(c());
  EXPECT_TRUE(check_range("large getmem_nbi after ctx quiet", got.data(), 0, kBytes,
                          [](std::size_t i) { return fill_value<unsigned char>(right(), i); }));
  EXPECT_EQ(got[kBytes], 0xEE) << "large getmem_nbi overran";
  shmem_barrier_all();
  EXPECT_TRUE(check_range("large putmem_nbi from the left neighbour", dst.get(), 0, kBytes,
                          [](std::size_t i) { return fill_value<unsigned char>(left(), i); }));
  EXPECT_EQ(dst[kBytes], fill_sentinel<unsigned char>(kBytes)) << "large putmem_nbi overran";
  shmem_barrier_all();
}

// ---- global and static variables: always reached through UCX from another PE, so this runs
// the created context's own worker even when heaps are mapped between PEs of a node.
namespace {
constexpr std::size_t kStaticElems = 10 * 67;  // 2 + 8 slots of 67 elements
long g_static_long[kStaticElems];
double g_static_double[kStaticElems] = {1.0};
unsigned char g_static_bytes[kStaticElems];
}  // namespace

class CtxRmaStatic : public CtxRmaFixture {};

TEST_F(CtxRmaStatic, PutAndGetOnGlobals) {
  SCOPED_TRACE(trace());
  const shmem_ctx_t cx = c();
  const std::vector<std::size_t> sz = {1, 37, 61};
  run_put_patterns<long>(
      "ctx long put to .bss", g_static_long, kStaticElems, sz,
      [cx](long* d, const long* s, std::size_t n, int pe) { shmem_ctx_long_put(cx, d, s, n, pe); },
      CtxQuiet{cx}, true);
  run_put_patterns<double>(
      "ctx double put_nbi to .data", g_static_double, kStaticElems, sz,
      [cx](double* d, const double* s, std::size_t n, int pe) {
        shmem_ctx_double_put_nbi(cx, d, s, n, pe);
      },
      CtxQuiet{cx}, true);
  run_put_patterns<unsigned char>(
      "ctx putmem_nbi to .bss", g_static_bytes, kStaticElems, sz,
      [cx](unsigned char* d, const unsigned char* s, std::size_t n, int pe) {
        shmem_ctx_putmem_nbi(cx, d, s, n, pe);
      },
      CtxQuiet{cx}, true);
  run_get_patterns<long>(
      "ctx long get from .bss", g_static_long, kStaticElems, sz,
      [cx](long* d, const long* s, std::size_t n, int pe) { shmem_ctx_long_get(cx, d, s, n, pe); });
  run_get_patterns<double>(
      "ctx double get_nbi from .data", g_static_double, kStaticElems, sz,
      [cx](double* d, const double* s, std::size_t n, int pe) {
        shmem_ctx_double_get_nbi(cx, d, s, n, pe);
      },
      CtxQuiet{cx});
  run_iput_patterns<long>(
      "ctx long iput to .bss", g_static_long, 2 * (37 * 5 + 2), counts(),
      [cx](long* d, const long* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t n, int pe) {
        shmem_ctx_long_iput(cx, d, s, dst, sst, n, pe);
      },
      CtxQuiet{cx});
  run_iget_patterns<long>(
      "ctx long iget from .bss", g_static_long, 37 * 5 + 2, counts(),
      [cx](long* d, const long* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t n, int pe) {
        shmem_ctx_long_iget(cx, d, s, dst, sst, n, pe);
      });
}
