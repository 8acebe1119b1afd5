// Which PEs compete for a PE's CPUs (core/bootstrap/machine.hpp: cpu_share): the PEs of its
// machine whose CPUs overlap its own, against the CPUs those PEs may run on, for the ways
// launchers bind PEs.
#include <gtest/gtest.h>

#include <sched.h>

#include <initializer_list>
#include <vector>

#include "bootstrap/machine.hpp"

namespace shoal::boot {
namespace {

CpuMask cpus(std::initializer_list<int> list) {
  CpuMask mask;
  for (const int cpu : list) mask.add(cpu);
  return mask;
}

CpuMask range(int first, int last) {
  CpuMask mask;
  for (int cpu = first; cpu <= last; ++cpu) mask.add(cpu);
  return mask;
}

TEST(CpuMask, CountsOverlapsAndJoins) {
  CpuMask a = cpus({0, 63, 64, 1023});
  EXPECT_EQ(a.count(), 4);
  EXPECT_TRUE(a.overlaps(cpus({64})));
  EXPECT_FALSE(a.overlaps(cpus({1, 65, 1022})));
  a |= cpus({1, 64});
  EXPECT_EQ(a.count(), 5);
  a.add(1024);  // past what a cpu_set_t holds: ignored
  a.add(-1);
  EXPECT_EQ(a.count(), 5);
}

TEST(CpuMask, OfThisThreadIsItsAffinity) {
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
  const CpuMask mine = CpuMask::of_this_thread();
  EXPECT_EQ(mine.count(), CPU_COUNT(&allowed));
  for (int cpu = 0; cpu < CpuMask::kWords * 64; ++cpu)
    EXPECT_EQ(mine.overlaps(cpus({cpu})), CPU_ISSET(cpu, &allowed) != 0) << "CPU " << cpu;
}

TEST(CpusBetween, TheUnionOfTheMachinesPes) {
  EXPECT_EQ(cpus_between(cpus({3}), {}), 1);
  // A job allowed 2 CPUs of a big machine, unbound within them: 2, not the machine's count.
  EXPECT_EQ(cpus_between(range(4, 5), {range(4, 5), range(4, 5), range(4, 5)}), 2);
  EXPECT_EQ(cpus_between(cpus({0}), {cpus({1}), cpus({0}), range(8, 11)}), 6);
}

TEST(CpuShare, AloneOnItsCpus) {
  const CpuShare share = cpu_share(range(0, 3), {});
  EXPECT_EQ(share.pes, 1);
  EXPECT_EQ(share.cpus, 4);
  EXPECT_TRUE(share.known());
  EXPECT_FALSE(share.crowded());
  EXPECT_FALSE(CpuShare{}.known());
}

TEST(CpuShare, UnboundPesShareEveryCpu) {
  // 4 PEs on 2 CPUs, none bound: crowded; 2 on 2: not.
  const CpuMask all = range(0, 1);
  EXPECT_TRUE(cpu_share(all, {all, all, all}).crowded());
  const CpuShare two = cpu_share(all, {all});
  EXPECT_EQ(two.pes, 2);
  EXPECT_EQ(two.cpus, 2);
  EXPECT_FALSE(two.crowded());
}

TEST(CpuShare, OneCpuEachIsNotCrowded) {
  // --bind-to core on a machine of 64 CPUs, one PE per CPU.
  std::vector<CpuMask> others;
  for (int cpu = 1; cpu < 64; ++cpu) others.push_back(cpus({cpu}));
  const CpuShare share = cpu_share(cpus({0}), others);
  EXPECT_EQ(share.pes, 1);
  EXPECT_EQ(share.cpus, 1);
  EXPECT_FALSE(share.crowded());
}

TEST(CpuShare, TwoPesBoundToOneCpuAreCrowded) {
  // --bind-to core round robin with more PEs than CPUs: PEs 0 and 2 on CPU 0, 1 and 3 on 1.
  const CpuShare share = cpu_share(cpus({0}), {cpus({1}), cpus({0}), cpus({1})});
  EXPECT_EQ(share.pes, 2);
  EXPECT_EQ(share.cpus, 1);
  EXPECT_TRUE(share.crowded());
}

TEST(CpuShare, ACoreOfTwoHardwareThreadsEach) {
  // srun --cpu-bind=cores with SMT: 32 PEs, PE k on CPUs k and k + 32 of 64.
  std::vector<CpuMask> others;
  for (int core = 1; core < 32; ++core) others.push_back(cpus({core, core + 32}));
  const CpuShare share = cpu_share(cpus({0, 32}), others);
  EXPECT_EQ(share.pes, 1);
  EXPECT_EQ(share.cpus, 2);
  EXPECT_FALSE(share.crowded());
}

TEST(CpuShare, BoundToASocket) {
  // Open MPI's default above 2 PEs: 32 PEs on 2 sockets of 16 CPUs, 16 PEs per socket.
  std::vector<CpuMask> others;
  for (int pe = 1; pe < 32; ++pe) others.push_back(pe % 2 == 0 ? range(0, 15) : range(16, 31));
  const CpuShare fits = cpu_share(range(0, 15), others);
  EXPECT_EQ(fits.pes, 16);
  EXPECT_EQ(fits.cpus, 16);
  EXPECT_FALSE(fits.crowded());
  // One PE more on the socket is one too many.
  others.push_back(range(0, 15));
  EXPECT_TRUE(cpu_share(range(0, 15), others).crowded());
}

TEST(CpuShare, CountsTheCpusOfThePesThatOverlap) {
  // An unbound PE beside PEs bound to one CPU each: they may run on all 4 CPUs between them.
  const CpuShare unbound = cpu_share(range(0, 3), {cpus({1}), cpus({2}), cpus({3})});
  EXPECT_EQ(unbound.pes, 4);
  EXPECT_EQ(unbound.cpus, 4);
  EXPECT_FALSE(unbound.crowded());
  // A bound one sees only the unbound PE, whose other CPUs make room for both.
  const CpuShare bound = cpu_share(cpus({1}), {range(0, 3), cpus({2}), cpus({3})});
  EXPECT_EQ(bound.pes, 2);
  EXPECT_EQ(bound.cpus, 4);
  EXPECT_FALSE(bound.crowded());
}

}  // namespace
}  // namespace shoal::boot
