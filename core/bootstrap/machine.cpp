#include "bootstrap/machine.hpp"

#include <fstream>
#include <string>

namespace shoal::boot {

std::uint64_t machine_id() noexcept {
  std::string boot_id;
  try {
    std::ifstream file("/proc/sys/kernel/random/boot_id");
    if (!std::getline(file, boot_id)) return 0;
  } catch (...) {
    return 0;
  }
  if (boot_id.empty()) return 0;
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a
  for (const char c : boot_id) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash != 0 ? hash : 1;
}

}  // namespace shoal::boot
