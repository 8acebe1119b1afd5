// shoal::Failure, the library's error convention (core/status.hpp): success by default, a code
// and the first failure's words, context put in front as it is passed up.
#include <gtest/gtest.h>

#include <string>

#include "status.hpp"

namespace shoal {
namespace {

Failure inner(bool fail) {
  if (fail) return Failure::because(Status::no_memory, "cannot map the heap of PE 3");
  return {};
}

Failure outer(bool fail) {
  if (Failure f = inner(fail)) return std::move(f).within("cannot start");
  return {};
}

TEST(Failure, SuccessByDefault) {
  const Failure f = outer(false);
  EXPECT_TRUE(f.ok());
  EXPECT_FALSE(static_cast<bool>(f));
  EXPECT_EQ(f.code(), Status::ok);
  EXPECT_EQ(f.why(), "");
}

TEST(Failure, KeepsTheFirstCauseWithTheCallersContext) {
  const Failure f = outer(true);
  EXPECT_FALSE(f.ok());
  EXPECT_TRUE(static_cast<bool>(f));
  EXPECT_EQ(f.code(), Status::no_memory);  // the first failure's code
  EXPECT_EQ(f.why(), "cannot start: cannot map the heap of PE 3");
}

TEST(Failure, NeverOkWhenItFailed) {
  // A failure made with Status::ok by mistake still reads as a failure.
  const Failure f = Failure::because(Status::ok, "something");
  EXPECT_FALSE(f.ok());
  EXPECT_EQ(f.code(), Status::invalid_param);
}

}  // namespace
}  // namespace shoal
