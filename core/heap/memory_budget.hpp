// How much memory this process can still commit, so that a heap block the node cannot hold is
// refused with a message instead of being taken from other processes (the kernel's OOM killer)
// or failing at a store.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace shoal::heap {

struct MemoryBudget {
  std::size_t bytes = 0;
  std::string limited_by;  // "MemAvailable + SwapFree of /proc/meminfo" or the cgroup file
};

// The smaller of the node's available memory (MemAvailable + SwapFree) and the headroom of the
// process's memory cgroup and its ancestors (limit - usage, cgroup v1 or v2); nullopt when
// neither can be read.
std::optional<MemoryBudget> committable_memory();

// The pieces, for the unit tests.
// MemAvailable + SwapFree of a /proc/meminfo text, in bytes.
std::optional<std::size_t> parse_meminfo_available(std::string_view meminfo);
struct MemoryCgroup {
  std::string mount;       // "/sys/fs/cgroup/memory" (v1) or "/sys/fs/cgroup" (v2)
  std::string path;        // the process's group under it, "/..."
  std::string limit_file;  // memory.limit_in_bytes or memory.max
  std::string usage_file;  // memory.usage_in_bytes or memory.current
};
// The memory cgroup of a /proc/self/cgroup text: v1's "N:memory:/path" line, else v2's
// "0::/path"; nullopt when there is neither.
std::optional<MemoryCgroup> parse_memory_cgroup(std::string_view proc_self_cgroup);
// limit - usage (0 when over); nullopt for "max" (v2: no limit) or unreadable text.
std::optional<std::size_t> parse_cgroup_headroom(std::string_view memory_max,
                                                 std::string_view memory_current);

}  // namespace shoal::heap
