// The size of the pieces UCX's TCP transport moves data in, which Shoal raises from UCX's
// default when the job reaches other hosts over TCP.
//
// TCP has no remote memory access, so UCX carries every put and get over it as active messages,
// in fragments of one send buffer: 8 KiB by default (UCX_TCP_TX_SEG_SIZE; a receive buffer,
// UCX_TCP_RX_SEG_SIZE, must hold one). Each fragment is a system call at both ends and a pass of
// the target's progress, so a 1 MiB put is 128 of them. With 128 KiB buffers a put or get of
// 16 KiB to 1 MiB across hosts takes a half to a fifth of the time; a small message uses as
// much of the buffer as it needs and is unchanged (docs/performance/internode.md). Larger
// buffers were no better and sometimes worse: one fragment then outgrows what the socket takes
// in one call.
#pragma once

#include <functional>
#include <string_view>

namespace shoal::ucx {

struct UcxSetting {
  // As ucp_config_modify takes it for a transport: the name in the transport's table, without
  // the prefix of its variable ("RX_SEG_SIZE" for UCX_TCP_RX_SEG_SIZE).
  const char *name;
  const char *value;
};

// The receive buffer first: UCX refuses a send buffer larger than it.
inline constexpr UcxSetting kTcpSegmentSettings[] = {{"RX_SEG_SIZE", "128k"},
                                                     {"TX_SEG_SIZE", "128k"}};

// Whether UCX will open its TCP transport, given the transport list in force (`tls`: UCX_TLS or
// what the library sets; null or empty is UCX's default, every transport) and UCX_NET_DEVICES
// (`net_devices`, null or empty for every device). `interface_usable(name)` says whether this
// host has a network interface of that name that is up and has an address. A setting for a
// transport UCX does not open draws UCX's "invalid configuration" warning from every PE, so a
// device list that names no such interface (only InfiniBand ports, "mlx5_0:1") means no.
bool ucx_opens_tcp(const char *tls, const char *net_devices,
                   const std::function<bool(std::string_view)> &interface_usable);

// Whether this host has a network interface `name` that is up and has an IPv4 or IPv6 address.
bool network_interface_usable(std::string_view name);

}  // namespace shoal::ucx
