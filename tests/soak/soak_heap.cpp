#include <shmem.h>

#include <cstring>

#include "soak_check.hpp"
#include "soak_rounds.hpp"

namespace soak {
namespace {

constexpr std::size_t kMaxLive = 6;
constexpr std::size_t kMaxBytes = 1 << 20;

struct Allocation {
  unsigned char* ptr;
  std::size_t size;
  std::uint64_t key;  // contents on PE p: Pattern(key_of(key, p))
  std::string how;
};
std::vector<Allocation> g_live;
std::uint64_t g_serial = 0;  // allocations so far (the same on every PE)

Pattern contents(const Allocation& a, int pe) { return Pattern(key_of(a.key, pe)); }

// This PE's copy must still hold exactly what it wrote: anything else means the allocation
// overlaps memory someone else uses.
void check_intact(const Allocation& a, const char* when) {
  std::vector<unsigned char> want(a.size);
  contents(a, g_run.me).fill(want.data(), 0, a.size);
  expect_bytes(want.data(), a.ptr, a.size,
               [&] { return strf("%s of %zu bytes %s", a.how.c_str(), a.size, when); });
}

// Reads a random piece of a random PE's copy.
void check_remote(const Allocation& a, Rng& r) {
  const int pe = static_cast<int>(r.below(static_cast<std::uint64_t>(g_run.n)));
  const std::size_t len = r.log_uniform(1, a.size);
  const std::size_t off = r.below(a.size - len + 1);
  std::vector<unsigned char> got(len), want(len);
  shmem_getmem(got.data(), a.ptr + off, len, pe);
  contents(a, pe).fill(want.data(), off, len);
  expect_bytes(want.data(), got.data(), len, [&] {
    return strf("%zu bytes at offset %zu of pe %d's copy of %s of %zu bytes", len, off, pe,
                a.how.c_str(), a.size);
  });
}

void allocate(Rng& r) {
  Allocation a;
  a.size = r.log_uniform(1, kMaxBytes);
  a.key = round_key("heap.alloc", g_serial++);
  const int how = static_cast<int>(r.below(4));
  std::size_t align = 0;
  set_kind("heap.alloc");
  switch (how) {
    case 0:
      a.how = "shmem_malloc";
      a.ptr = static_cast<unsigned char*>(shmem_malloc(a.size));
      break;
    case 1: {
      const std::size_t elem = std::size_t{1} << r.below(4);
      a.size = (a.size + elem - 1) / elem * elem;
      a.how = strf("shmem_calloc(%zu, %zu)", a.size / elem, elem);
      a.ptr = static_cast<unsigned char*>(shmem_calloc(a.size / elem, elem));
      break;
    }
    case 2:
      align = std::size_t{8} << r.below(10);  // 8 .. 4096
      a.how = strf("shmem_align(%zu)", align);
      a.ptr = static_cast<unsigned char*>(shmem_align(align, a.size));
      break;
    default:
      a.how = "shmem_malloc_with_hints";
      a.ptr = static_cast<unsigned char*>(shmem_malloc_with_hints(
          a.size, r.percent(50) ? SHMEM_MALLOC_ATOMICS_REMOTE : SHMEM_MALLOC_SIGNAL_REMOTE));
      break;
  }
  expect_true(
      a.ptr != nullptr, [&] { return strf("%s of %zu bytes", a.how.c_str(), a.size); }, "memory",
      "NULL");
  if (align != 0) {
    expect_eq(std::uintptr_t{0}, reinterpret_cast<std::uintptr_t>(a.ptr) % align,
              [&] { return a.how + ": address modulo the alignment"; });
  }
  if (how == 1) {
    std::vector<unsigned char> zeros(a.size, 0);
    expect_bytes(zeros.data(), a.ptr, a.size, [&] { return a.how + " contents"; });
  }
  contents(a, g_run.me).fill(a.ptr, 0, a.size);
  trace("  %s of %zu bytes", a.how.c_str(), a.size);
  g_live.push_back(a);
}

void reallocate(Rng& r) {
  Allocation& a = g_live[r.below(g_live.size())];
  const std::size_t size = r.log_uniform(1, kMaxBytes);
  set_kind("heap.realloc");
  auto* p = static_cast<unsigned char*>(shmem_realloc(a.ptr, size));
  expect_true(
      p != nullptr, [&] { return strf("shmem_realloc of %s to %zu bytes", a.how.c_str(), size); },
      "memory", "NULL");
  a.how = strf("%s realloc'ed from %zu", a.how.c_str(), a.size);
  const std::size_t kept = std::min(a.size, size);
  a.ptr = p;
  a.size = kept;
  check_intact(a, "(the bytes realloc keeps)");
  a.size = size;
  contents(a, g_run.me).fill(a.ptr + kept, kept, size - kept);
}

void release(Rng& r) {
  const std::size_t i = r.below(g_live.size());
  check_intact(g_live[i], "before shmem_free");
  set_kind("heap.free");
  shmem_free(g_live[i].ptr);
  g_live.erase(g_live.begin() + static_cast<std::ptrdiff_t>(i));
}

}  // namespace

void heap_round() {
  Rng r = shared_rng("heap");
  const int actions = static_cast<int>(r.between(1, 3));
  trace("heap: %d action(s), %zu allocations live", actions, g_live.size());
  for (int a = 0; a < actions; ++a) {
    // 0: allocate, 1: realloc, 2: free
    const int weights[] = {g_live.size() < kMaxLive ? 40 : 0, g_live.empty() ? 0 : 15,
                           g_live.empty() ? 0 : (g_live.size() >= kMaxLive ? 60 : 30)};
    switch (r.weighted(weights)) {
      case 0:
        allocate(r);
        break;
      case 1:
        reallocate(r);
        break;
      default:
        release(r);
        break;
    }
  }
  // Every PE's copies are written: read pieces of them from other PEs.
  set_kind("heap.check");
  shmem_barrier_all();
  Rng local = pe_rng("heap.read", g_run.me);
  for (const Allocation& a : g_live) {
    check_intact(a, "between rounds");
    check_remote(a, local);
  }
  shmem_barrier_all();  // the reads are done before anyone frees or reallocates
}

void heap_cleanup() {
  Rng r = shared_rng("heap.cleanup");
  while (!g_live.empty()) release(r);
}

}  // namespace soak
