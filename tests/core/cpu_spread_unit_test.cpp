// In-process unit test: which crowded PE moves to which CPU (core/cpu_spread.hpp). No PEs, no
// scheduler: the CPUs the PEs reported are made up.
#include "cpu_spread.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <vector>

using shoal::cpu_to_move_to;

namespace {

cpu_set_t cpus_of(std::initializer_list<int> list) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : list) CPU_SET(cpu, &set);
  return set;
}

// The CPU each PE would move to, -1 where it stays.
std::vector<int> moves(const std::vector<std::int32_t> &cpus, const cpu_set_t &allowed) {
  std::vector<int> to;
  for (int pe = 0; pe < static_cast<int>(cpus.size()); ++pe)
    to.push_back(cpu_to_move_to(cpus, pe, allowed));
  return to;
}

}  // namespace

TEST(CpuSpread, ThreePlusOneOnTwoCpusMovesTheLowestOfTheThree) {
  // PEs 0, 1 and 3 on CPU 0, PE 2 on CPU 1: PE 0 alone moves, to CPU 1.
  EXPECT_EQ(moves({0, 0, 1, 0}, cpus_of({0, 1})), (std::vector<int>{1, -1, -1, -1}));
  // Three on CPU 1: PE 1, the lowest there, moves to CPU 0.
  EXPECT_EQ(moves({0, 1, 1, 1}, cpus_of({0, 1})), (std::vector<int>{-1, 0, -1, -1}));
}

TEST(CpuSpread, AnEvenSpreadStays) {
  EXPECT_EQ(moves({0, 1, 0, 1}, cpus_of({0, 1})), (std::vector<int>{-1, -1, -1, -1}));
  // 3 PEs on 2 CPUs: 2 + 1 is as even as it gets.
  EXPECT_EQ(moves({0, 0, 1}, cpus_of({0, 1})), (std::vector<int>{-1, -1, -1}));
  // 8 PEs, 4 per CPU.
  EXPECT_EQ(moves({0, 1, 0, 1, 0, 1, 0, 1}, cpus_of({0, 1})), std::vector<int>(8, -1));
}

TEST(CpuSpread, MovesToTheCpuWithTheFewest) {
  // 6 PEs on 3 CPUs: 4 on CPU 0, 2 on CPU 1, none on CPU 2: PE 0 goes to CPU 2.
  EXPECT_EQ(cpu_to_move_to(std::vector<std::int32_t>{0, 0, 0, 0, 1, 1}, 0, cpus_of({0, 1, 2})), 2);
}

TEST(CpuSpread, OnlyReportedPesOnAllowedCpusCount) {
  // PE 1 reported nothing lately (-1): PEs 0 and 2 on CPU 0 are 2 of 2 PEs on 2 CPUs, one too
  // many there, and CPU 1 has none: PE 0 moves.
  EXPECT_EQ(cpu_to_move_to(std::vector<std::int32_t>{0, -1, 0}, 0, cpus_of({0, 1})), 1);
  // A PE on a CPU this PE may not use does not count, and is no destination.
  EXPECT_EQ(cpu_to_move_to(std::vector<std::int32_t>{0, 0, 5, 5}, 0, cpus_of({0, 1})), 1);
  EXPECT_EQ(cpu_to_move_to(std::vector<std::int32_t>{0, 0, 1, 1}, 0, cpus_of({0, 1, 5})), -1);
}

TEST(CpuSpread, ABoundPeOrAnUnknownOneStays) {
  // Allowed one CPU: nowhere to go.
  EXPECT_EQ(cpu_to_move_to(std::vector<std::int32_t>{0, 0, 0}, 0, cpus_of({0})), -1);
  // This PE's own CPU unknown, or outside its set, or no such PE.
  EXPECT_EQ(cpu_to_move_to(std::vector<std::int32_t>{-1, 0, 0}, 0, cpus_of({0, 1})), -1);
  EXPECT_EQ(cpu_to_move_to(std::vector<std::int32_t>{3, 0, 0}, 0, cpus_of({0, 1})), -1);
  EXPECT_EQ(cpu_to_move_to(std::vector<std::int32_t>{0, 0}, 2, cpus_of({0, 1})), -1);
}
