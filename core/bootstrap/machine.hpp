// Which PEs share this machine's CPUs. A launcher's node is not always a machine: the hosts of a
// test bed made of network namespaces (scripts/netns) or of containers on one kernel are nodes of
// their own to the launcher and to shared memory, yet their PEs take turns on the same CPUs. Only
// the kernel knows: PEs whose kernels have the same boot id run on one machine.
//
// Nor do all the PEs of a machine share every CPU: a launcher that binds gives each PE a core
// (two CPUs with SMT), a socket or a NUMA domain. Each PE publishes the CPUs it may run on, and a
// PE counts as its rivals only the PEs of its machine that may run on one of its CPUs.
#pragma once

#include <cstdint>
#include <vector>

namespace shoal::boot {

// This machine's kernel, as a number that PEs compare (a hash of
// /proc/sys/kernel/random/boot_id); 0 when it cannot be read.
std::uint64_t machine_id() noexcept;

// A set of CPUs in a form PEs exchange: CPU c is bit c % 64 of words[c / 64] (the first 1024
// CPUs, as many as a cpu_set_t holds).
struct CpuMask {
  static constexpr int kWords = 16;
  std::uint64_t words[kWords] = {};

  // The CPUs the calling thread may run on; every CPU online if the kernel does not say.
  static CpuMask of_this_thread() noexcept;
  void add(int cpu) noexcept;
  int count() const noexcept;
  bool overlaps(const CpuMask &other) const noexcept;
  CpuMask &operator|=(const CpuMask &other) noexcept;
};

// The PEs that compete for this PE's CPUs, and the CPUs they may run on between them.
struct CpuShare {
  int pes = 0;  // 0: not known yet (before the PEs have exchanged their masks)
  int cpus = 0;
  bool known() const noexcept { return pes > 0; }
  // More PEs than CPUs: the PE a wait waits for may well be waiting for this PE's CPU.
  bool crowded() const noexcept { return pes > cpus; }
};

// The CPUs that a PE on `mine` and the other PEs of its machine, on `others`, may run on between
// them: the same for every PE of the machine.
int cpus_between(const CpuMask &mine, const std::vector<CpuMask> &others) noexcept;

// The share of a PE that may run on `mine`, among the other PEs of its machine that may run on
// `others`: the PEs whose CPUs overlap mine (this PE included) and the union of their CPUs.
CpuShare cpu_share(const CpuMask &mine, const std::vector<CpuMask> &others) noexcept;

}  // namespace shoal::boot
