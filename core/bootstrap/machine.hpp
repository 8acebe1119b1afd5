// Which PEs share this machine's CPUs. A launcher's node is not always a machine: the hosts of a
// test bed made of network namespaces (scripts/netns) or of containers on one kernel are nodes of
// their own to the launcher and to shared memory, yet their PEs take turns on the same CPUs. Only
// the kernel knows: PEs whose kernels have the same boot id run on one machine.
#pragma once

#include <cstdint>

namespace shoal::boot {

// This machine's kernel, as a number that PEs compare (a hash of
// /proc/sys/kernel/random/boot_id); 0 when it cannot be read.
std::uint64_t machine_id() noexcept;

}  // namespace shoal::boot
