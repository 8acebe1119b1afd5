// What the heap may still commit (core/heap/memory_budget): the parsers of /proc/meminfo,
// /proc/self/cgroup and the cgroup limit files, and the live reading on this machine.
#include "heap/memory_budget.hpp"

#include <gtest/gtest.h>

using namespace shoal::heap;

TEST(MemoryBudget, MeminfoAvailablePlusSwapFree) {
  const char *meminfo =
      "MemTotal:       24684092 kB\nMemFree:        20000000 kB\n"
      "MemAvailable:   23934104 kB\nSwapTotal:       1000 kB\nSwapFree:         512 kB\n";
  EXPECT_EQ(parse_meminfo_available(meminfo), (23934104ull + 512) * 1024);
}

TEST(MemoryBudget, MeminfoWithoutSwapOrAvailable) {
  EXPECT_EQ(parse_meminfo_available("MemAvailable: 10 kB\n"), 10240u);
  EXPECT_EQ(parse_meminfo_available("MemFree: 10 kB\n"), std::nullopt);
  // A key that only starts like the one asked for is another key.
  EXPECT_EQ(parse_meminfo_available("MemAvailableX: 7 kB\nMemAvailable: 1 kB\n"), 1024u);
}

TEST(MemoryBudget, CgroupV1MemoryLineWins) {
  const auto group = parse_memory_cgroup("9:name=systemd:/\n4:memory:/jobs/42\n0::/\n");
  ASSERT_TRUE(group);
  EXPECT_EQ(group->mount, "/sys/fs/cgroup/memory");
  EXPECT_EQ(group->path, "/jobs/42");
  EXPECT_EQ(group->limit_file, "memory.limit_in_bytes");
}

TEST(MemoryBudget, CgroupV2) {
  const auto group = parse_memory_cgroup("0::/user.slice/job.scope\n");
  ASSERT_TRUE(group);
  EXPECT_EQ(group->mount, "/sys/fs/cgroup");
  EXPECT_EQ(group->path, "/user.slice/job.scope");
  EXPECT_EQ(group->usage_file, "memory.current");
  EXPECT_FALSE(parse_memory_cgroup("3:cpu:/\n"));
}

TEST(MemoryBudget, Headroom) {
  EXPECT_EQ(parse_cgroup_headroom("1000\n", "400\n"), 600u);
  EXPECT_EQ(parse_cgroup_headroom("1000\n", "4000\n"), 0u);  // over the limit already
  EXPECT_EQ(parse_cgroup_headroom("max\n", "400\n"), std::nullopt);
}

TEST(MemoryBudget, LiveReadingIsPlausible) {
  const auto budget = committable_memory();
  ASSERT_TRUE(budget) << "neither /proc/meminfo nor a cgroup limit could be read";
  EXPECT_GT(budget->bytes, 0u);
  EXPECT_FALSE(budget->limited_by.empty());
}
