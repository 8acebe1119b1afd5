// GoogleTest main for multi-PE test programs.
//
// Each PE runs the whole gtest program. PE 0 prints the usual gtest report; the other PEs
// print only their failures, each line prefixed with "[PE k]". At the end the failure
// counts of all PEs are combined with RMA + shmem_barrier_all (no collectives, so the
// harness does not depend on the code under test more than necessary) and every PE exits
// non-zero if any PE failed.
//
// Environment:
//   SHOAL_TEST_INIT_THREAD=SINGLE|FUNNELED|SERIALIZED|MULTIPLE
//       initialise with shmem_init_thread(level) instead of shmem_init().
//   SHOAL_TEST_NO_FINALIZE=1
//       skip shmem_finalize() and leave with _Exit (only to work around a broken
//       finalize / exit path when validating the tests against another implementation).
#include "mpp_test.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace shoal::test {
namespace {

int g_reduce_slots[kMaxPes];  // symmetric (bss): per-PE contributions, on PE 0
int g_reduce_result;          // symmetric (bss): the total, pushed back by PE 0
int g_requested_thread_level = -1;
int g_provided_thread_level = -1;
int g_init_thread_rc = 0;

class PeFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit PeFailurePrinter(int pe) : pe_(pe) {}
  void OnTestStart(const ::testing::TestInfo& info) override {
    name_ = std::string(info.test_suite_name()) + "." + info.name();
  }
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (!r.failed()) return;
    std::fprintf(stdout, "[PE %d] %s: %s:%d: Failure\n", pe_, name_.c_str(),
                 r.file_name() != nullptr ? r.file_name() : "?", r.line_number());
    // Prefix every line of the message.
    const char* m = r.message();
    while (m != nullptr && *m != '\0') {
      const char* nl = std::strchr(m, '\n');
      const int len = nl != nullptr ? static_cast<int>(nl - m) : static_cast<int>(std::strlen(m));
      std::fprintf(stdout, "[PE %d]   %.*s\n", pe_, len, m);
      m = nl != nullptr ? nl + 1 : nullptr;
    }
    std::fflush(stdout);
  }

 private:
  int pe_;
  std::string name_;
};

int parse_thread_level(const char* s) {
  if (std::strcmp(s, "SINGLE") == 0) return SHMEM_THREAD_SINGLE;
  if (std::strcmp(s, "FUNNELED") == 0) return SHMEM_THREAD_FUNNELED;
  if (std::strcmp(s, "SERIALIZED") == 0) return SHMEM_THREAD_SERIALIZED;
  if (std::strcmp(s, "MULTIPLE") == 0) return SHMEM_THREAD_MULTIPLE;
  std::fprintf(stderr, "SHOAL_TEST_INIT_THREAD: unknown level '%s'\n", s);
  std::exit(2);
}

}  // namespace

int sum_over_pes(int value) {
  const int n = shmem_n_pes();
  const int pe = shmem_my_pe();
  if (n > kMaxPes) {
    std::fprintf(stderr, "[PE %d] harness supports at most %d PEs\n", pe, kMaxPes);
    std::abort();
  }
  // The barrier on entry separates this call from the previous one: PE 0 must have read
  // the old slots before anyone overwrites them.
  shmem_barrier_all();
  shmem_int_p(&g_reduce_slots[pe], value, 0);
  shmem_barrier_all();
  if (pe == 0) {
    int total = 0;
    for (int i = 0; i < n; ++i) total += g_reduce_slots[i];
    for (int i = 0; i < n; ++i) shmem_int_p(&g_reduce_result, total, i);
  }
  shmem_barrier_all();
  return *static_cast<volatile int*>(&g_reduce_result);
}

int requested_thread_level() { return g_requested_thread_level; }
int provided_thread_level() { return g_provided_thread_level; }
int init_thread_rc() { return g_init_thread_rc; }

}  // namespace shoal::test

int main(int argc, char** argv) {
  using namespace shoal::test;
  if (const char* lvl = std::getenv("SHOAL_TEST_INIT_THREAD"); lvl != nullptr && *lvl != '\0') {
    g_requested_thread_level = parse_thread_level(lvl);
    g_init_thread_rc = shmem_init_thread(g_requested_thread_level, &g_provided_thread_level);
  } else {
    shmem_init();
  }
  const int pe = shmem_my_pe();

  ::testing::InitGoogleTest(&argc, argv);
  auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (pe != 0) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new PeFailurePrinter(pe));
  }

  const int local_rc = RUN_ALL_TESTS();
  std::fflush(stdout);

  const int failed_pes = sum_over_pes(local_rc != 0 ? 1 : 0);
  if (pe == 0) {
    if (failed_pes != 0) {
      std::printf("[mpp] %d of %d PEs reported failures\n", failed_pes, shmem_n_pes());
    } else {
      std::printf("[mpp] all %d PEs passed\n", shmem_n_pes());
    }
    std::fflush(stdout);
  }

  const int rc = failed_pes != 0 ? 1 : 0;
  const char* no_fin = std::getenv("SHOAL_TEST_NO_FINALIZE");
  if (no_fin != nullptr && std::strcmp(no_fin, "1") == 0) {
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(rc);
  }
  shmem_finalize();
  return rc;
}
