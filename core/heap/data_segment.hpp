// The executable's writable data (.data and .bss): symmetric by the specification, because
// every PE runs the same program. With address-space randomization (PIE, Debian's default)
// each PE has it at a different address, so remote addresses are translated by offset.
//
// So that the PEs of a node can reach each other's globals with loads and stores, the part of
// the segment after the RELRO pages (which ld.so makes read-only after relocation: .got,
// .data.rel.ro, .init_array) can be moved into a shared-memory segment, in place: same addresses,
// same contents, same protection.
#pragma once

#include <cstddef>

#include "heap/shared_segment.hpp"
#include "status.hpp"

namespace shoal::heap {

struct DataSegment {
  std::byte *base = nullptr;  // page-aligned
  std::size_t size = 0;
  // [base + shareable_offset, base + size) is what may live in shared memory: the segment
  // without its leading RELRO pages. Page-aligned; equal to size when nothing is left.
  std::size_t shareable_offset = 0;
};

// The main program's writable PT_LOAD segment, rounded out to whole pages.
DataSegment find_data_segment() noexcept;

// Replaces the shareable part of the segment by a shared-memory segment (SharedSegment::create)
// holding the same bytes, mapped at the same address. On success `memory` owns the segment
// (peers open it through its handle) and keeps the mapping when released: the program's
// globals live there until the process ends. Any layout this cannot handle safely (pages that
// are not plain private read-write memory, the brk heap in the range) is Status::not_supported
// with a debug line, and leaves the segment untouched.
Status share_data_segment(const DataSegment &segment, SharedSegment &memory) noexcept;

}  // namespace shoal::heap
