// The executable's writable data (.data and .bss): symmetric by the specification, because
// every PE runs the same program. With address-space randomization (PIE, Debian's default)
// each PE has it at a different address, so remote addresses are translated by offset.
#pragma once

#include <cstddef>

namespace shoal::heap {

struct DataSegment {
  std::byte *base = nullptr;  // page-aligned
  std::size_t size = 0;
};

// The main program's writable PT_LOAD segment, rounded out to whole pages.
DataSegment find_data_segment() noexcept;

}  // namespace shoal::heap
