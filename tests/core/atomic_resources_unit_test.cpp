// In-process unit test: reading UCX's choice of atomic resources, and the AMO route that
// follows (core/transport/atomic_resources.*). No PEs, no UCX.
#include "transport/atomic_resources.hpp"

#include <gtest/gtest.h>

using shoal::ucx::AmoRoute;
using shoal::ucx::choose_amo_routing;
using shoal::ucx::describes_device_atomics;

namespace {

// What ucp_worker_print_info printed on this machine (UCX 1.13, shared memory and TCP).
constexpr const char *kCpuWorker =
    "#\n"
    "# UCP worker 'host:1234'\n"
    "#\n"
    "#                 address: 361 bytes\n"
    "#\n"
    "# memory: 0.00MB, file descriptors: 4\n"
    "#\n"
    "#                 atomics: 0:self/memory0, 3:sysv/memory, 4:posix/memory\n"
    "#\n";

}  // namespace

TEST(AtomicResources, SharedMemoryAndSelfAreTheCpu) {
  EXPECT_FALSE(describes_device_atomics(kCpuWorker));
}

TEST(AtomicResources, NoAtomicsLineMeansSoftwareEmulation) {
  EXPECT_FALSE(describes_device_atomics("# UCP worker 'x'\n#   address: 10 bytes\n"));
  EXPECT_FALSE(describes_device_atomics(""));
}

TEST(AtomicResources, NetworkDeviceIsDetected) {
  EXPECT_TRUE(describes_device_atomics("#                 atomics: 1:rc_mlx5/mlx5_0:1\n"));
  EXPECT_TRUE(describes_device_atomics(
      "# memory: 1.2MB\n#   atomics: 0:self/memory0, 5:dc_mlx5/mlx5_0:1, 6:rc_verbs/mlx5_0:1\n"));
  // The last entry of the list, without a line end after it.
  EXPECT_TRUE(describes_device_atomics("atomics: 3:sysv/memory, 7:rc_mlx5/mlx5_1:1"));
}

TEST(AtomicResources, OtherLinesNamingDevicesDoNotCount) {
  EXPECT_FALSE(describes_device_atomics(
      "#   lane[1]:  2:rc_mlx5/mlx5_0:1.0 md[1] -> md[1]/ib rma_bw#0\n" + std::string(kCpuWorker)));
}

TEST(AmoRouting, AutoFollowsTheDevice) {
  const auto cpu = choose_amo_routing(AmoRoute::automatic, false);
  EXPECT_FALSE(cpu.through_ucx);
  EXPECT_FALSE(cpu.self_through_ucx);
  const auto device = choose_amo_routing(AmoRoute::automatic, true);
  EXPECT_TRUE(device.through_ucx);
  EXPECT_TRUE(device.self_through_ucx);
}

TEST(AmoRouting, ForcedRoutes) {
  EXPECT_FALSE(choose_amo_routing(AmoRoute::cpu, true).through_ucx);
  // The UCX route keeps a PE's own AMOs on the CPU unless a device executes them (UCX 1.13's
  // loopback loses fetching and/or/xor aimed at the caller).
  const auto forced = choose_amo_routing(AmoRoute::ucx, false);
  EXPECT_TRUE(forced.through_ucx);
  EXPECT_FALSE(forced.self_through_ucx);
  EXPECT_TRUE(choose_amo_routing(AmoRoute::ucx, true).self_through_ucx);
}
