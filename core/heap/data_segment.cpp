#include "heap/data_segment.hpp"

#include <fmt/format.h>

#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "log/log.hpp"

namespace shoal::heap {
namespace {

std::uintptr_t page_size() { return static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE)); }

int visit_first_object(struct dl_phdr_info *info, size_t, void *out) {
  // The first object dl_iterate_phdr reports is the main program.
  auto *segment = static_cast<DataSegment *>(out);
  const std::uintptr_t page = page_size();
  std::uintptr_t lo = UINTPTR_MAX, hi = 0, relro_end = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    // ld.so makes [start, end) of PT_GNU_RELRO read-only, both rounded down to pages.
    if (ph.p_type == PT_GNU_RELRO)
      relro_end = (info->dlpi_addr + ph.p_vaddr + ph.p_memsz) & ~(page - 1);
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
    segment->shareable_offset = std::clamp(relro_end, lo, hi) - lo;
  }
  return 1;  // stop after the main program
}

// Whether [lo, hi) is covered without gaps by private read-write mappings that are not the brk
// heap, per /proc/self/maps; otherwise says why in `why`.
bool plain_private_memory(std::uintptr_t lo, std::uintptr_t hi, std::string &why) {
  std::ifstream maps("/proc/self/maps");
  if (!maps) {
    why = "/proc/self/maps cannot be read";
    return false;
  }
  std::uintptr_t covered = lo;  // [lo, covered) is known good
  for (std::string line; covered < hi && std::getline(maps, line);) {
    std::istringstream in(line);
    std::string range, perms, offset, device, inode, path;
    in >> range >> perms >> offset >> device >> inode;
    std::getline(in >> std::ws, path);
    const std::size_t dash = range.find('-');
    if (dash == std::string::npos) continue;
    const std::uintptr_t start = std::stoull(range.substr(0, dash), nullptr, 16);
    const std::uintptr_t end = std::stoull(range.substr(dash + 1), nullptr, 16);
    if (end <= covered) continue;
    if (start > covered) {
      why = fmt::format("nothing is mapped at {:#x}", covered);
      return false;
    }
    if (perms != "rw-p" || path == "[heap]") {
      why = "mapping " + line;
      return false;
    }
    covered = end;
  }
  if (covered < hi) why = "the range is not entirely mapped";
  return covered >= hi;
}

// The two loops below read whole pages of the program's globals, padding included. Under
// AddressSanitizer that padding is the redzones between globals, so they are not instrumented,
// and they read through volatile words so that the compiler cannot turn them into memcmp or
// memcpy calls, which the sanitizer intercepts and checks.
#define SHOAL_READS_REDZONES __attribute__((no_sanitize("address")))

SHOAL_READS_REDZONES bool all_zero(const std::byte *p, std::size_t bytes) {
  const auto *w = reinterpret_cast<const volatile std::uint64_t *>(p);
  for (std::size_t i = 0; i < bytes / sizeof(std::uint64_t); ++i)
    if (w[i] != 0) return false;
  return true;
}

SHOAL_READS_REDZONES void copy_page(std::byte *to, const std::byte *from, std::size_t bytes) {
  const auto *source = reinterpret_cast<const volatile std::uint64_t *>(from);
  auto *dest = reinterpret_cast<std::uint64_t *>(to);
  for (std::size_t i = 0; i < bytes / sizeof(std::uint64_t); ++i) dest[i] = source[i];
}

}  // namespace

DataSegment find_data_segment() noexcept {
  DataSegment segment;
  dl_iterate_phdr(visit_first_object, &segment);
  return segment;
}

Status share_data_segment(const DataSegment &segment, SharedSegment &memory) noexcept {
  std::byte *start = segment.base + segment.shareable_offset;
  const std::size_t bytes = segment.size - segment.shareable_offset;
  if (bytes == 0) {
    SMA_LOG_DEBUG("heap", "the data segment has no pages after RELRO to share");
    return Status::not_supported;
  }
  std::string why;
  bool plain = false;
  try {
    plain = plain_private_memory(reinterpret_cast<std::uintptr_t>(start),
                                 reinterpret_cast<std::uintptr_t>(start) + bytes, why);
  } catch (const std::exception &e) {  // a /proc/self/maps line stoull cannot read
    why = e.what();
  }
  if (!plain) {
    SMA_LOG_DEBUG("heap", "not sharing the data segment [{}, +{}): {}", static_cast<void *>(start),
                  bytes, why);
    return Status::not_supported;
  }
  SharedSegment shared;
  if (Status s = shared.create("shoal-globals", bytes); s != Status::ok) return s;
  // Pages never written are still zero in both; skipping them leaves untouched .bss (Fortran
  // COMMON blocks can be large) unallocated in the shared object too.
  const std::size_t page = page_size();
  for (std::size_t at = 0; at < bytes; at += page)
    if (!all_zero(start + at, page)) copy_page(shared.base() + at, start + at, page);
  if (Status s = shared.move_to(start); s != Status::ok) return s;  // shared releases itself
  memory = std::move(shared);
  SMA_LOG_DEBUG("heap", "data segment [{}, +{}) now in shared memory", static_cast<void *>(start),
                bytes);
  return Status::ok;
}

}  // namespace shoal::heap
