#include "cpu_topology.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace shoal::launcher {

std::vector<int> parse_cpu_list(const std::string &list) {
  std::vector<int> cpus;
  std::stringstream items(list);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (item.empty() || item == "\n") continue;
    char *end = nullptr;
    const long first = std::strtol(item.c_str(), &end, 10);
    long last = first;
    if (*end == '-') last = std::strtol(end + 1, &end, 10);
    if (end == item.c_str() || (*end != '\0' && *end != '\n') || first < 0 || last < first)
      return {};
    for (long cpu = first; cpu <= last; ++cpu) cpus.push_back(static_cast<int>(cpu));
  }
  return cpus;
}

int thread_of_core(int cpu) {
  std::ifstream file("/sys/devices/system/cpu/cpu" + std::to_string(cpu) +
                     "/topology/thread_siblings_list");
  std::string list;
  if (!std::getline(file, list)) return 0;
  const std::vector<int> siblings = parse_cpu_list(list);
  const auto at = std::find(siblings.begin(), siblings.end(), cpu);
  return at == siblings.end() ? 0 : static_cast<int>(at - siblings.begin());
}

std::vector<int> cores_first(const std::vector<int> &cpus,
                             const std::function<int(int)> &thread_of) {
  std::vector<std::pair<int, int>> keyed;  // (thread of its core, cpu)
  keyed.reserve(cpus.size());
  for (const int cpu : cpus) keyed.emplace_back(thread_of(cpu), cpu);
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<int> ordered;
  ordered.reserve(cpus.size());
  for (const auto &[thread, cpu] : keyed) ordered.push_back(cpu);
  return ordered;
}

}  // namespace shoal::launcher
