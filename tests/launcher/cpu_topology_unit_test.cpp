// In-process unit test: the order in which oshrun binds PEs to CPUs (launcher/cpu_topology.hpp),
// one hardware thread of every core first, for the ways kernels number a core's threads.
#include "cpu_topology.hpp"

#include <sched.h>

#include <vector>

#include <gtest/gtest.h>

using shoal::launcher::cores_first;
using shoal::launcher::parse_cpu_list;
using shoal::launcher::thread_of_core;

TEST(ParseCpuList, RangesAndSingles) {
  EXPECT_EQ(parse_cpu_list("0-3,8,10-11\n"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parse_cpu_list("5"), (std::vector<int>{5}));
  EXPECT_TRUE(parse_cpu_list("").empty());
  EXPECT_TRUE(parse_cpu_list("3-1").empty());
  EXPECT_TRUE(parse_cpu_list("a,1").empty());
}

TEST(CoresFirst, ThreadsSideBySide) {
  // QEMU with threads=2, POWER: CPUs 2c and 2c + 1 are core c.
  const auto adjacent = [](int cpu) { return cpu % 2; };
  EXPECT_EQ(cores_first({0, 1, 2, 3, 4, 5, 6, 7}, adjacent),
            (std::vector<int>{0, 2, 4, 6, 1, 3, 5, 7}));
}

TEST(CoresFirst, ThreadsApart) {
  // Most x86 hosts: CPUs c and c + 4 are core c; numeric order already puts cores first.
  const auto apart = [](int cpu) { return cpu / 4; };
  EXPECT_EQ(cores_first({0, 1, 2, 3, 4, 5, 6, 7}, apart),
            (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  // An allocation of some CPUs only keeps its own, in the same spirit.
  EXPECT_EQ(cores_first({1, 5, 2, 6}, apart), (std::vector<int>{1, 2, 5, 6}));
}

TEST(CoresFirst, NoSmtKeepsTheOrder) {
  EXPECT_EQ(cores_first({3, 0, 7}, [](int) { return 0; }), (std::vector<int>{3, 0, 7}));
}

TEST(ThreadOfCore, ThisMachine) {
  // Every CPU this process may use is some thread of its core; the first CPU of the kernel's
  // sibling list is thread 0.
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
  int first_threads = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &allowed)) continue;
    const int thread = thread_of_core(cpu);
    EXPECT_GE(thread, 0);
    first_threads += thread == 0;
  }
  EXPECT_GE(first_threads, 1);
}
