#include "heap/data_segment.hpp"

#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

namespace shoal::heap {
namespace {

int visit_first_object(struct dl_phdr_info *info, size_t, void *out) {
  // The first object dl_iterate_phdr reports is the main program.
  auto *segment = static_cast<DataSegment *>(out);
  const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  std::uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_W)) continue;
    const std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    lo = std::min(lo, start);
    hi = std::max(hi, start + ph.p_memsz);
  }
  if (hi > lo) {
    lo &= ~(page - 1);
    hi = (hi + page - 1) & ~(page - 1);
    segment->base = reinterpret_cast<std::byte *>(lo);
    segment->size = hi - lo;
  }
  return 1;  // stop after the main program
}

}  // namespace

DataSegment find_data_segment() noexcept {
  DataSegment segment;
  dl_iterate_phdr(visit_first_object, &segment);
  return segment;
}

}  // namespace shoal::heap
