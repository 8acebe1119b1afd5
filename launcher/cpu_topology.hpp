// The order in which oshrun hands out CPUs: one hardware thread of every core before the second
// of any (SMT). The kernel numbers a core's threads apart on most x86 hosts (CPUs k and k + n)
// but side by side in many virtual machines (QEMU's threads=2: CPUs 0 and 1 are one core) and on
// POWER, where binding PE k to the k-th CPU put PEs 0 and 1 on one core while other cores idled.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace shoal::launcher {

// Which of its core's hardware threads `cpu` is (0 for the first, in the kernel's list of the
// core's CPUs; 0 where the kernel does not say), from /sys/devices/system/cpu.
int thread_of_core(int cpu);

// The CPUs of a list such as "0-3,8,10-11" (the kernel's format); empty if malformed.
std::vector<int> parse_cpu_list(const std::string &list);

// `cpus` reordered: the first threads of every core, then the second ones, and so on, each group
// in the order given.
std::vector<int> cores_first(const std::vector<int> &cpus,
                             const std::function<int(int)> &thread_of = thread_of_core);

}  // namespace shoal::launcher
