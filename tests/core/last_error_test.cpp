// shmemx_last_error_string: every routine that returns an error (rather than ending the job)
// leaves its message there, naming the routine, on every PE that got the error.
#include "mpp_test.hpp"

#include <shmemx.h>

#include <cstdint>
#include <string>

using namespace shoal::test;

namespace {

// The last error must mention `routine` and `what`.
void expect_last_error(const std::string& routine, const std::string& what) {
  const char* text = shmemx_last_error_string();
  ASSERT_NE(text, nullptr);
  const std::string last(text);
  EXPECT_NE(last.find(routine), std::string::npos) << "last error: '" << last << "'";
  EXPECT_NE(last.find(what), std::string::npos) << "last error: '" << last << "'";
}

TEST(LastError, HeapRoutines) {
  EXPECT_EQ(shmem_align(48, 64), nullptr);
  expect_last_error("shmem_align", "alignment 48 is not a power of two");
  EXPECT_EQ(shmem_calloc(SIZE_MAX / 2, 4), nullptr);
  expect_last_error("shmem_calloc", "overflow");
  EXPECT_EQ(shmem_malloc(SIZE_MAX), nullptr);
  expect_last_error("shmem_malloc", "symmetric heap exhausted");
  shmem_barrier_all();
}

TEST(LastError, TeamRoutines) {
  shmem_team_t x = SHMEM_TEAM_INVALID, y = SHMEM_TEAM_INVALID;
  EXPECT_NE(shmem_team_split_2d(SHMEM_TEAM_WORLD, 0, nullptr, 0, &x, nullptr, 0, &y), 0);
  expect_last_error("shmem_team_split_2d", "xrange 0 must be at least 1");
  EXPECT_NE(shmem_team_sync(SHMEM_TEAM_INVALID), 0);
  expect_last_error("shmem_team_sync", "SHMEM_TEAM_INVALID");
  shmem_team_destroy(SHMEM_TEAM_WORLD);  // refused: the predefined teams stay
  expect_last_error("shmem_team_destroy", "predefined");
  shmem_barrier_all();
}

TEST(LastError, Collectives) {
  SymArray<long> buf(8);
  SHOAL_ASSERT_ALL_PES(buf);
  EXPECT_NE(shmem_long_broadcast(SHMEM_TEAM_WORLD, buf.get(), buf.get(), 1, npes()), 0);
  expect_last_error("shmem_long_broadcast", "out of range");
  shmem_barrier_all();
}

}  // namespace
