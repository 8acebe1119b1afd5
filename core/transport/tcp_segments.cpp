#include "transport/tcp_segments.hpp"

#include <ifaddrs.h>
#include <net/if.h>
#include <sys/socket.h>

namespace shoal::ucx {

namespace {

// Whether `matches` holds for an entry of the comma-separated `list`.
template <typename Predicate>
bool any_entry(std::string_view list, Predicate &&matches) {
  for (;;) {
    const std::size_t comma = list.find(',');
    if (matches(list.substr(0, comma))) return true;
    if (comma == std::string_view::npos) return false;
    list.remove_prefix(comma + 1);
  }
}

}  // namespace

bool ucx_opens_tcp(const char *tls, const char *net_devices,
                   const std::function<bool(std::string_view)> &interface_usable) {
  std::string_view transports = tls != nullptr ? tls : "";
  if (!transports.empty()) {
    // "^a,b": every transport but a and b; otherwise only those named ("all": every one).
    const bool excluding = transports.front() == '^';
    if (excluding) transports.remove_prefix(1);
    const bool names_tcp = any_entry(transports, [](std::string_view t) { return t == "tcp"; });
    const bool names_all = any_entry(transports, [](std::string_view t) { return t == "all"; });
    if (excluding ? names_tcp : !(names_tcp || names_all)) return false;
  }
  std::string_view devices = net_devices != nullptr ? net_devices : "";
  if (devices.empty() || devices.front() == '^') return true;  // all, or all but some
  // TCP's devices are network interfaces ("eth0", "ib0"); "mlx5_0:1" is an InfiniBand port.
  return any_entry(devices, [&](std::string_view device) {
    return device == "all" ||
           (device.find(':') == std::string_view::npos && interface_usable(device));
  });
}

bool network_interface_usable(std::string_view name) {
  ifaddrs *interfaces = nullptr;
  if (getifaddrs(&interfaces) != 0) return false;
  bool usable = false;
  for (const ifaddrs *i = interfaces; i != nullptr && !usable; i = i->ifa_next) {
    usable = i->ifa_name != nullptr && name == i->ifa_name && (i->ifa_flags & IFF_UP) != 0 &&
             i->ifa_addr != nullptr &&
             (i->ifa_addr->sa_family == AF_INET || i->ifa_addr->sa_family == AF_INET6);
  }
  freeifaddrs(interfaces);
  return usable;
}

}  // namespace shoal::ucx
