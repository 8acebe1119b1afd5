// In-process unit test: when the library sizes UCX's TCP buffers, which it does only where UCX
// will open its TCP transport (core/transport/tcp_segments.*). No PEs, no UCX.
#include "transport/tcp_segments.hpp"

#include <gtest/gtest.h>

#include <string_view>

using shoal::ucx::network_interface_usable;
using shoal::ucx::ucx_opens_tcp;

namespace {

// A host with the interfaces eth0 and ib0.
bool on_test_host(std::string_view name) { return name == "eth0" || name == "ib0"; }

bool opens(const char *tls, const char *net_devices = nullptr) {
  return ucx_opens_tcp(tls, net_devices, on_test_host);
}

}  // namespace

TEST(TcpSegments, UcxDefaultTransportsIncludeTcp) {
  EXPECT_TRUE(opens(nullptr));
  EXPECT_TRUE(opens(""));
  EXPECT_TRUE(opens("all"));
  EXPECT_TRUE(opens("^posix"));  // the library's choice for a small /dev/shm
}

TEST(TcpSegments, TransportListMustNameTcp) {
  EXPECT_TRUE(opens("tcp,self,sm"));
  EXPECT_TRUE(opens("self,sm,tcp"));
  EXPECT_TRUE(opens("rc,all"));
  EXPECT_FALSE(opens("self,sm"));  // a job on one node
  EXPECT_FALSE(opens("rc,sm,self"));
  EXPECT_FALSE(opens("tcpx,sm"));  // only the whole name counts
}

TEST(TcpSegments, ExcludedTcpIsNotOpened) {
  EXPECT_FALSE(opens("^tcp"));
  EXPECT_FALSE(opens("^sm,tcp"));
  EXPECT_TRUE(opens("^sm,rc"));
}

TEST(TcpSegments, DeviceListMustNameAUsableInterface) {
  EXPECT_TRUE(opens(nullptr, ""));
  EXPECT_TRUE(opens(nullptr, "all"));
  EXPECT_TRUE(opens(nullptr, "eth0"));
  EXPECT_TRUE(opens("tcp,self", "mlx5_0:1,ib0"));
  EXPECT_TRUE(opens(nullptr, "^eth1"));
  EXPECT_FALSE(opens(nullptr, "mlx5_0:1"));  // InfiniBand ports only: TCP stays closed
  EXPECT_FALSE(opens(nullptr, "mlx5_0:1,mlx5_1:1"));
  EXPECT_FALSE(opens(nullptr, "eth7"));  // no such interface here
  EXPECT_FALSE(opens("self,sm", "eth0"));
}

TEST(TcpSegments, LoopbackIsUsableAndUnknownNamesAreNot) {
  EXPECT_TRUE(network_interface_usable("lo"));
  EXPECT_FALSE(network_interface_usable("shoal-no-such-interface"));
  EXPECT_FALSE(network_interface_usable(""));
}
