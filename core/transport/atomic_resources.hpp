// Who executes UCX's atomic operations, and therefore which route this library's AMOs take.
//
// CPU atomics on mapped memory (on-node targets) and UCX atomics (targets on other nodes) are
// atomic together only while UCX executes its AMOs with the same CPU instructions: in software
// at the target (TCP, emulated through active messages) or through shared memory (self, sysv,
// posix). A network device that executes AMOs itself (an InfiniBand HCA, say) is atomic only
// against its own operations, so then every AMO must go through UCX, on-node ones included.
#pragma once

#include <string_view>

namespace shoal::ucx {

// True when the "atomics:" line of a worker's description (ucp_worker_print_info) names a
// resource on a device other than the host's memory ("0:self/memory0, 3:sysv/memory" is the
// CPU; "1:rc_mlx5/mlx5_0:1" is a network device). No such line: no atomic resources at all,
// so UCX emulates AMOs in software at the target.
bool describes_device_atomics(std::string_view worker_description) noexcept;

// What SMA_AMO_ROUTE asks for.
enum class AmoRoute { automatic, cpu, ucx };

// The route in force. through_ucx: every AMO aimed at another PE goes through UCX, mapped or
// not. self_through_ucx: a PE's AMOs on its own memory too. They stay CPU atomics whenever UCX
// would execute them with the CPU anyway: UCX 1.13's loopback loses fetching and/or/xor that a
// PE aims at itself.
struct AmoRouting {
  bool through_ucx = false;
  bool self_through_ucx = false;
};
// device_atomics_in_job: some PE of the job found a device executing UCX's atomics.
AmoRouting choose_amo_routing(AmoRoute requested, bool device_atomics_in_job) noexcept;

}  // namespace shoal::ucx
