#include "bootstrap/machine.hpp"

#include <sched.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace shoal::boot {

std::uint64_t machine_id() noexcept {
  std::string boot_id;
  try {
    std::ifstream file("/proc/sys/kernel/random/boot_id");
    if (!std::getline(file, boot_id)) return 0;
  } catch (...) {
    return 0;
  }
  if (boot_id.empty()) return 0;
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a
  for (const char c : boot_id) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash != 0 ? hash : 1;
}

CpuMask CpuMask::of_this_thread() noexcept {
  CpuMask mask;
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
    for (int cpu = 0; cpu < kWords * 64; ++cpu)
      if (CPU_ISSET(cpu, &allowed)) mask.add(cpu);
  }
  if (mask.count() == 0) {  // more CPUs than a cpu_set_t holds, or no answer
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    for (int cpu = 0; cpu < (online > 0 ? online : 1) && cpu < kWords * 64; ++cpu) mask.add(cpu);
  }
  return mask;
}

void CpuMask::add(int cpu) noexcept {
  if (cpu >= 0 && cpu < kWords * 64) words[cpu / 64] |= std::uint64_t{1} << (cpu % 64);
}

int CpuMask::count() const noexcept {
  int n = 0;
  for (const std::uint64_t w : words) n += __builtin_popcountll(w);
  return n;
}

bool CpuMask::overlaps(const CpuMask &other) const noexcept {
  for (int i = 0; i < kWords; ++i)
    if ((words[i] & other.words[i]) != 0) return true;
  return false;
}

CpuMask &CpuMask::operator|=(const CpuMask &other) noexcept {
  for (int i = 0; i < kWords; ++i) words[i] |= other.words[i];
  return *this;
}

int cpus_between(const CpuMask &mine, const std::vector<CpuMask> &others) noexcept {
  CpuMask cpus = mine;
  for (const CpuMask &theirs : others) cpus |= theirs;
  return cpus.count();
}

CpuShare cpu_share(const CpuMask &mine, const std::vector<CpuMask> &others) noexcept {
  CpuMask cpus = mine;
  int pes = 1;
  for (const CpuMask &theirs : others) {
    if (!theirs.overlaps(mine)) continue;
    ++pes;
    cpus |= theirs;
  }
  return {pes, cpus.count()};
}

}  // namespace shoal::boot
