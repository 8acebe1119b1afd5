#include "transport/atomic_resources.hpp"

namespace shoal::ucx {
namespace {

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// One entry of the "atomics:" list, "<index>:<transport>/<device>": true for a device other
// than the host's memory ("memory", "memory0", ...).
bool is_device_resource(std::string_view entry) noexcept {
  entry = trim(entry);
  const std::size_t slash = entry.find('/');
  if (slash == std::string_view::npos) return false;
  return !entry.substr(slash + 1).starts_with("memory");
}

}  // namespace

bool describes_device_atomics(std::string_view description) noexcept {
  constexpr std::string_view kKey = "atomics:";
  while (!description.empty()) {
    const std::size_t eol = description.find('\n');
    std::string_view line = description.substr(0, eol);
    description = eol == std::string_view::npos ? std::string_view{} : description.substr(eol + 1);
    // Lines look like "#                 atomics: 0:self/memory0, 3:sysv/memory".
    const std::size_t key = line.find(kKey);
    if (key == std::string_view::npos) continue;
    std::string_view list = line.substr(key + kKey.size());
    while (!list.empty()) {
      const std::size_t comma = list.find(',');
      if (is_device_resource(list.substr(0, comma))) return true;
      list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    }
  }
  return false;
}

AmoRouting choose_amo_routing(AmoRoute requested, bool device_atomics_in_job) noexcept {
  switch (requested) {
    case AmoRoute::cpu:
      return {false, false};
    case AmoRoute::ucx:
      return {true, device_atomics_in_job};
    case AmoRoute::automatic:
      break;
  }
  return {device_atomics_in_job, device_atomics_in_job};
}

}  // namespace shoal::ucx
