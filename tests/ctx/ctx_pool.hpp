// One created context per option combination, made once for the whole program (by a gtest
// environment, after shmem_init) and destroyed after the last test. The routine-coverage
// tests (every ctx RMA/AMO form) draw their contexts from here instead of creating one per
// test case: creation and destruction have tests of their own, and hundreds of short-lived
// contexts per PE would only make those tests slow.
#pragma once

#include "ctx_test_util.hpp"

namespace shoal::test::ctx {

class ContextPool : public ::testing::Environment {
 public:
  void SetUp() override {
    for (int i = 0; i < kOptionCaseCount; ++i) {
      ctxs_[i] = SHMEM_CTX_INVALID;
      if (shmem_ctx_create(kOptionCases[i].options, &ctxs_[i]) != 0) ctxs_[i] = SHMEM_CTX_INVALID;
    }
  }
  void TearDown() override {
    for (auto& c : ctxs_) {
      if (c != SHMEM_CTX_INVALID) shmem_ctx_destroy(c);
      c = SHMEM_CTX_INVALID;
    }
  }
  shmem_ctx_t get(int i) const { return ctxs_[i % kOptionCaseCount]; }

 private:
  shmem_ctx_t ctxs_[kOptionCaseCount] = {};
};

inline ContextPool* const g_context_pool =
    static_cast<ContextPool*>(::testing::AddGlobalTestEnvironment(new ContextPool));

// The next pooled context, options rotating; tests run in the same order on every PE, so every
// PE picks the same combination. Returns the index used.
inline int next_pool_index() {
  static int rotation = 0;
  return rotation++ % kOptionCaseCount;
}

}  // namespace shoal::test::ctx
