#include "heap/memory_budget.hpp"

#include <charconv>
#include <fstream>
#include <sstream>

namespace shoal::heap {
namespace {

std::optional<std::string> read_file(const std::string &path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::optional<std::size_t> parse_number(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end == text.data()) return std::nullopt;
  return value;
}

// The value of "<key>: <n> kB" in a meminfo text, in bytes.
std::optional<std::size_t> meminfo_field(std::string_view meminfo, std::string_view key) {
  std::size_t at = 0;
  while (at < meminfo.size()) {
    const std::size_t eol = std::min(meminfo.find('\n', at), meminfo.size());
    const std::string_view line = meminfo.substr(at, eol - at);
    if (line.size() > key.size() && line.substr(0, key.size()) == key && line[key.size()] == ':') {
      const auto kib = parse_number(line.substr(key.size() + 1));
      if (!kib) return std::nullopt;
      return *kib * 1024;
    }
    at = eol + 1;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::size_t> parse_meminfo_available(std::string_view meminfo) {
  const auto available = meminfo_field(meminfo, "MemAvailable");
  if (!available) return std::nullopt;
  return *available + meminfo_field(meminfo, "SwapFree").value_or(0);
}

std::optional<MemoryCgroup> parse_memory_cgroup(std::string_view proc_self_cgroup) {
  std::optional<MemoryCgroup> found;
  std::size_t at = 0;
  while (at < proc_self_cgroup.size()) {
    const std::size_t eol = std::min(proc_self_cgroup.find('\n', at), proc_self_cgroup.size());
    const std::string_view line = proc_self_cgroup.substr(at, eol - at);
    at = eol + 1;
    // "N:memory:/path" (v1, wins) or "0::/path" (v2).
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view rest = line.substr(colon + 1);
    if (rest.substr(0, 7) == "memory:")
      return MemoryCgroup{"/sys/fs/cgroup/memory", std::string(rest.substr(7)),
                          "memory.limit_in_bytes", "memory.usage_in_bytes"};
    if (line.substr(0, 3) == "0::")
      found = MemoryCgroup{"/sys/fs/cgroup", std::string(line.substr(3)), "memory.max",
                           "memory.current"};
  }
  return found;
}

std::optional<std::size_t> parse_cgroup_headroom(std::string_view memory_max,
                                                 std::string_view memory_current) {
  const auto max = parse_number(memory_max);
  const auto current = parse_number(memory_current);
  if (!max || !current) return std::nullopt;  // "max": no limit
  return *max > *current ? *max - *current : 0;
}

std::optional<MemoryBudget> committable_memory() {
  std::optional<MemoryBudget> budget;
  if (const auto meminfo = read_file("/proc/meminfo"))
    if (const auto bytes = parse_meminfo_available(*meminfo))
      budget = MemoryBudget{*bytes, "MemAvailable + SwapFree of /proc/meminfo"};
  const auto cgroup_text = read_file("/proc/self/cgroup");
  const auto cgroup = cgroup_text ? parse_memory_cgroup(*cgroup_text) : std::nullopt;
  if (!cgroup) return budget;
  // A limit may be set on any ancestor: the tightest counts.
  for (std::string group = cgroup->path;;) {
    const std::string dir = cgroup->mount + (group == "/" ? "" : group);
    const auto max = read_file(dir + "/" + cgroup->limit_file);
    const auto current = read_file(dir + "/" + cgroup->usage_file);
    const auto headroom = max && current ? parse_cgroup_headroom(*max, *current) : std::nullopt;
    if (headroom && (!budget || *headroom < budget->bytes))
      budget = MemoryBudget{*headroom, dir + "/" + cgroup->limit_file};
    const std::size_t slash = group.find_last_of('/');
    if (slash == std::string::npos || group.size() <= 1) break;
    group = slash == 0 ? "/" : group.substr(0, slash);
  }
  return budget;
}

}  // namespace shoal::heap
