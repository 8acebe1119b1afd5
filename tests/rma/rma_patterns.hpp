// Communication patterns shared by the RMA tests. Each runner takes the routine under
// test as a callable, so one runner checks the typed, sized, mem and ctx forms alike,
// on the symmetric heap or on global/static variables.
//
// Values encode (source PE, index, round): a misplaced, stale or missing element is
// reported with its index. Everything outside the written range must keep a sentinel, so
// overruns are caught too.
#pragma once

#include "mpp_test.hpp"
#include "rma_ops.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace shoal::test {

inline std::string describe(const char* what, std::size_t nelems) {
  return std::string(what) + ", nelems=" + std::to_string(nelems);
}

struct NoComplete {
  void operator()() const {}
};

// Contiguous put. `area` is symmetric with `area_elems` elements, split into 2 + n_pes
// slots: slot 0 receives the ring put from the left neighbour, slot 1 a put to oneself,
// slot 2+k (on PE 0 only) the all-to-one put from PE k. Sizes are clipped to the slot.
// `complete` runs after the puts (e.g. shmem_quiet for nbi); with `readback`, each PE then
// reads its ring put back from the target with shmem_getmem before any barrier, checking
// that `complete` really completed it.
template <class T, class PutFn, class CompleteFn = NoComplete>
void run_put_patterns(const char* what, T* area, std::size_t area_elems,
                      const std::vector<std::size_t>& sizes, PutFn put, CompleteFn complete = {},
                      bool readback = false) {
  const int n = npes(), self = me();
  const std::size_t slots = 2 + static_cast<std::size_t>(n);
  const std::size_t cap = area_elems / slots;
  ASSERT_GE(cap, 4u) << "symmetric area too small for " << n << " PEs";
  std::vector<T> src(cap);
  // Sentinels fill the whole area once. Each round checks a window of every slot (the written
  // range and kGuard elements past it, where an overrun lands first) and then puts the window's
  // sentinels back; after the last round the whole area must hold its sentinels, so a stray
  // write anywhere is still caught. (Refilling and checking every slot whole in every round
  // took most of the time of the byte routines' tests at 8 PEs.)
  constexpr std::size_t kGuard = 64;
  for (std::size_t i = 0; i < slots * cap; ++i) area[i] = fill_sentinel<T>(i);
  std::size_t round = 0;
  for (std::size_t want : sizes) {
    ++round;
    const std::size_t off = round % 2;  // odd and even destination offsets
    const std::size_t sz = std::min(want, cap - 1 - off);
    const std::size_t window = std::min(cap, off + sz + kGuard);
    const std::size_t salt = 1000 * round;
    SCOPED_TRACE(describe(what, sz));
    for (std::size_t i = 0; i < sz; ++i) src[i] = fill_value<T>(self, i + salt);
    shmem_barrier_all();

    put(area + off, src.data(), sz, right());
    put(area + cap + off, src.data(), sz, self);
    put(area + (2 + self) * cap + off, src.data(), sz, 0);
    complete();
    if (readback && sz > 0) {
      std::vector<T> back(sz, fill_sentinel<T>(0));
      shmem_getmem(back.data(), area + off, sz * sizeof(T), right());
      EXPECT_TRUE(check_range("ring put read back from the target after completion", back.data(), 0,
                              sz, [&](std::size_t i) { return src[i]; }));
    }
    shmem_barrier_all();

    auto expect_slot = [&](const char* name, std::size_t slot, int from, bool written) {
      const std::size_t base = slot * cap;
      EXPECT_TRUE(check_range(name, area, base, base + window, [&](std::size_t i) {
        const std::size_t j = i - base;
        if (written && j >= off && j < off + sz) return fill_value<T>(from, j - off + salt);
        return fill_sentinel<T>(i);
      }));
      for (std::size_t i = base; i < base + window; ++i) area[i] = fill_sentinel<T>(i);
    };
    expect_slot("ring slot (from left neighbour)", 0, left(), true);
    expect_slot("self slot", 1, self, true);
    for (int k = 0; k < n; ++k) {
      expect_slot(self == 0 ? "all-to-one slot on PE 0" : "slot that only PE 0 receives",
                  2 + static_cast<std::size_t>(k), k, self == 0);
    }
  }
  EXPECT_TRUE(check_range("the whole area after the last round (a stray write?)", area, 0,
                          slots * cap, [](std::size_t i) { return fill_sentinel<T>(i); }));
  shmem_barrier_all();
}

// Contiguous get from the symmetric `area` (area_elems elements) of the right neighbour,
// of oneself and of PE 0, into private buffers, from an even or odd source offset.
template <class T, class GetFn, class CompleteFn = NoComplete>
void run_get_patterns(const char* what, T* area, std::size_t area_elems,
                      const std::vector<std::size_t>& sizes, GetFn get, CompleteFn complete = {}) {
  const int self = me();
  std::size_t round = 0;
  for (std::size_t want : sizes) {
    ++round;
    const std::size_t off = round % 2;
    const std::size_t sz = std::min(want, area_elems - off);
    const std::size_t salt = 1000 * round;
    SCOPED_TRACE(describe(what, sz));
    for (std::size_t i = 0; i < area_elems; ++i) area[i] = fill_value<T>(self, i + salt);
    const std::size_t cap = sz + 3;
    std::vector<T> ring(cap), mine(cap), from0(cap);
    for (std::size_t i = 0; i < cap; ++i) ring[i] = mine[i] = from0[i] = fill_sentinel<T>(i);
    shmem_barrier_all();

    get(ring.data(), area + off, sz, right());
    get(mine.data(), area + off, sz, self);
    get(from0.data(), area + off, sz, 0);
    complete();

    auto expect_buf = [&](const char* name, const std::vector<T>& b, int from) {
      EXPECT_TRUE(check_range(name, b.data(), 0, cap, [&](std::size_t i) {
        return i < sz ? fill_value<T>(from, i + off + salt) : fill_sentinel<T>(i);
      }));
    };
    expect_buf("get from right neighbour", ring, right());
    expect_buf("get from self", mine, self);
    expect_buf("get from PE 0", from0, 0);
    shmem_barrier_all();  // nobody refills `area` while others still read it
  }
  shmem_barrier_all();
}

struct Strides {
  std::ptrdiff_t dst, sst;
};
inline const std::vector<Strides>& stride_cases() {
  static const std::vector<Strides> v = {{3, 2}, {1, 4}, {5, 1}, {2, 2}, {1, 1}};
  return v;
}

// Strided put: every dst-th element of the target receives every sst-th source element;
// the gaps keep their sentinel. Ring and self, several stride pairs and counts.
template <class T, class IputFn, class CompleteFn = NoComplete>
void run_iput_patterns(const char* what, T* area, std::size_t area_elems,
                       const std::vector<std::size_t>& counts, IputFn iput,
                       CompleteFn complete = {}) {
  const int self = me();
  const std::size_t cap = area_elems / 2;
  std::size_t round = 0;
  for (const Strides& st : stride_cases()) {
    for (std::size_t want : counts) {
      ++round;
      const std::size_t maxn = (cap - 1) / static_cast<std::size_t>(st.dst);
      const std::size_t nel = std::min(want, maxn);
      const std::size_t salt = 1000 * round;
      SCOPED_TRACE(describe(what, nel) + ", dst=" + std::to_string(st.dst) +
                   ", sst=" + std::to_string(st.sst));
      for (std::size_t i = 0; i < 2 * cap; ++i) area[i] = fill_sentinel<T>(i);
      std::vector<T> src(nel * static_cast<std::size_t>(st.sst) + 1);
      for (std::size_t i = 0; i < src.size(); ++i) src[i] = fill_value<T>(self, i + salt);
      shmem_barrier_all();
      iput(area, src.data(), st.dst, st.sst, nel, right());
      iput(area + cap, src.data(), st.dst, st.sst, nel, self);
      complete();
      shmem_barrier_all();
      auto expect_slot = [&](const char* name, std::size_t base, int from) {
        EXPECT_TRUE(check_range(name, area, base, base + cap, [&](std::size_t i) {
          const std::size_t j = i - base;
          const std::size_t k = j / static_cast<std::size_t>(st.dst);
          if (j % static_cast<std::size_t>(st.dst) == 0 && k < nel) {
            return fill_value<T>(from, k * static_cast<std::size_t>(st.sst) + salt);
          }
          return fill_sentinel<T>(i);
        }));
      };
      expect_slot("strided put from left neighbour", 0, left());
      expect_slot("strided put to self", cap, self);
      shmem_barrier_all();
    }
  }
}

// Strided get: every dst-th element of a private buffer receives every sst-th element of
// the remote symmetric area.
template <class T, class IgetFn, class CompleteFn = NoComplete>
void run_iget_patterns(const char* what, T* area, std::size_t area_elems,
                       const std::vector<std::size_t>& counts, IgetFn iget,
                       CompleteFn complete = {}) {
  const int self = me();
  std::size_t round = 0;
  for (const Strides& st : stride_cases()) {
    for (std::size_t want : counts) {
      ++round;
      const std::size_t maxn = (area_elems - 1) / static_cast<std::size_t>(st.sst);
      const std::size_t nel = std::min(want, maxn);
      const std::size_t salt = 1000 * round;
      SCOPED_TRACE(describe(what, nel) + ", dst=" + std::to_string(st.dst) +
                   ", sst=" + std::to_string(st.sst));
      for (std::size_t i = 0; i < area_elems; ++i) area[i] = fill_value<T>(self, i + salt);
      const std::size_t cap = nel * static_cast<std::size_t>(st.dst) + 2;
      std::vector<T> ring(cap), mine(cap);
      for (std::size_t i = 0; i < cap; ++i) ring[i] = mine[i] = fill_sentinel<T>(i);
      shmem_barrier_all();
      iget(ring.data(), area, st.dst, st.sst, nel, right());
      iget(mine.data(), area, st.dst, st.sst, nel, self);
      complete();
      auto expect_buf = [&](const char* name, const std::vector<T>& b, int from) {
        EXPECT_TRUE(check_range(name, b.data(), 0, cap, [&](std::size_t i) {
          const std::size_t k = i / static_cast<std::size_t>(st.dst);
          if (i % static_cast<std::size_t>(st.dst) == 0 && k < nel) {
            return fill_value<T>(from, k * static_cast<std::size_t>(st.sst) + salt);
          }
          return fill_sentinel<T>(i);
        }));
      };
      expect_buf("strided get from right neighbour", ring, right());
      expect_buf("strided get from self", mine, self);
      shmem_barrier_all();
    }
  }
}

// Blocked-strided (OpenSHMEM 1.6 ibput/ibget): block b (bsize contiguous elements) is
// copied from source + b*sst to dest + b*dst; dst and sst count elements.
struct BlockCase {
  std::ptrdiff_t dst, sst;
  std::size_t bsize, nblocks;
};
inline const std::vector<BlockCase>& block_cases() {
  static const std::vector<BlockCase> v = {
      {5, 4, 3, 4},  // gaps on both sides
      {3, 3, 3, 5},  // contiguous overall
      {7, 2, 2, 6},  // dense source, sparse destination
      {2, 6, 2, 7},  // sparse source, dense destination
      {9, 9, 1, 3},  // single-element blocks (like iput)
      {4, 6, 4, 1},  // one block
      {4, 6, 4, 0},  // nothing
      {16, 12, 11, 9},
  };
  return v;
}
inline std::size_t block_extent(std::ptrdiff_t stride, std::size_t bsize, std::size_t nblocks) {
  return nblocks == 0 ? 0 : (nblocks - 1) * static_cast<std::size_t>(stride) + bsize;
}
inline bool in_block(std::size_t i, std::ptrdiff_t stride, std::size_t bsize, std::size_t nblocks,
                     std::size_t* src_block, std::size_t* within) {
  const std::size_t b = i / static_cast<std::size_t>(stride);
  const std::size_t k = i % static_cast<std::size_t>(stride);
  *src_block = b;
  *within = k;
  return b < nblocks && k < bsize;
}

template <class T, class IbputFn, class CompleteFn = NoComplete>
void run_ibput_patterns(const char* what, T* area, std::size_t area_elems, IbputFn ibput,
                        CompleteFn complete = {}) {
  const int self = me();
  const std::size_t cap = area_elems / 2;
  std::size_t round = 0;
  for (const BlockCase& c : block_cases()) {
    ++round;
    const std::size_t salt = 1000 * round;
    SCOPED_TRACE(std::string(what) + ", dst=" + std::to_string(c.dst) +
                 ", sst=" + std::to_string(c.sst) + ", bsize=" + std::to_string(c.bsize) +
                 ", nblocks=" + std::to_string(c.nblocks));
    ASSERT_LE(block_extent(c.dst, c.bsize, c.nblocks) + 1, cap);
    for (std::size_t i = 0; i < 2 * cap; ++i) area[i] = fill_sentinel<T>(i);
    std::vector<T> src(block_extent(c.sst, c.bsize, c.nblocks) + 1);
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = fill_value<T>(self, i + salt);
    shmem_barrier_all();
    ibput(area, src.data(), c.dst, c.sst, c.bsize, c.nblocks, right());
    ibput(area + cap, src.data(), c.dst, c.sst, c.bsize, c.nblocks, self);
    complete();
    shmem_barrier_all();
    auto expect_slot = [&](const char* name, std::size_t base, int from) {
      EXPECT_TRUE(check_range(name, area, base, base + cap, [&](std::size_t i) {
        std::size_t b, k;
        if (in_block(i - base, c.dst, c.bsize, c.nblocks, &b, &k)) {
          return fill_value<T>(from, b * static_cast<std::size_t>(c.sst) + k + salt);
        }
        return fill_sentinel<T>(i);
      }));
    };
    expect_slot("blocked put from left neighbour", 0, left());
    expect_slot("blocked put to self", cap, self);
    shmem_barrier_all();
  }
}

template <class T, class IbgetFn, class CompleteFn = NoComplete>
void run_ibget_patterns(const char* what, T* area, std::size_t area_elems, IbgetFn ibget,
                        CompleteFn complete = {}) {
  const int self = me();
  std::size_t round = 0;
  for (const BlockCase& c : block_cases()) {
    ++round;
    const std::size_t salt = 1000 * round;
    SCOPED_TRACE(std::string(what) + ", dst=" + std::to_string(c.dst) +
                 ", sst=" + std::to_string(c.sst) + ", bsize=" + std::to_string(c.bsize) +
                 ", nblocks=" + std::to_string(c.nblocks));
    ASSERT_LE(block_extent(c.sst, c.bsize, c.nblocks), area_elems);
    for (std::size_t i = 0; i < area_elems; ++i) area[i] = fill_value<T>(self, i + salt);
    const std::size_t cap = block_extent(c.dst, c.bsize, c.nblocks) + 2;
    std::vector<T> ring(cap), mine(cap);
    for (std::size_t i = 0; i < cap; ++i) ring[i] = mine[i] = fill_sentinel<T>(i);
    shmem_barrier_all();
    ibget(ring.data(), area, c.dst, c.sst, c.bsize, c.nblocks, right());
    ibget(mine.data(), area, c.dst, c.sst, c.bsize, c.nblocks, self);
    complete();
    auto expect_buf = [&](const char* name, const std::vector<T>& b, int from) {
      EXPECT_TRUE(check_range(name, b.data(), 0, cap, [&](std::size_t i) {
        std::size_t blk, k;
        if (in_block(i, c.dst, c.bsize, c.nblocks, &blk, &k)) {
          return fill_value<T>(from, blk * static_cast<std::size_t>(c.sst) + k + salt);
        }
        return fill_sentinel<T>(i);
      }));
    };
    expect_buf("blocked get from right neighbour", ring, right());
    expect_buf("blocked get from self", mine, self);
    shmem_barrier_all();
  }
}

// ---- Family runners on the symmetric heap, for an Api<Ops, Ctx> -------------------------

inline const std::vector<std::size_t>& default_sizes() {
  static const std::vector<std::size_t> v = {0, 1, 37, 1021};
  return v;
}
inline const std::vector<std::size_t>& strided_counts() {
  static const std::vector<std::size_t> v = {0, 1, 5, 37};
  return v;
}

template <class A>
void heap_put(const std::vector<std::size_t>& sizes = default_sizes()) {
  using T = typename A::T;
  const std::size_t cap = *std::max_element(sizes.begin(), sizes.end()) + 3;
  SymArray<T> area((2 + npes()) * cap);
  SHOAL_ASSERT_ALL_PES(area);
  run_put_patterns<T>("put", area.get(), area.size(), sizes, &A::put);
}

template <class A>
void heap_put_nbi(const std::vector<std::size_t>& sizes = default_sizes()) {
  using T = typename A::T;
  const std::size_t cap = *std::max_element(sizes.begin(), sizes.end()) + 3;
  SymArray<T> area((2 + npes()) * cap);
  SHOAL_ASSERT_ALL_PES(area);
  run_put_patterns<T>("put_nbi + quiet", area.get(), area.size(), sizes, &A::put_nbi, &A::quiet,
                      /*readback=*/true);
}

template <class A>
void heap_p() {
  using T = typename A::T;
  const std::vector<std::size_t> sizes = {0, 1, 37};
  SymArray<T> area((2 + npes()) * 40);
  SHOAL_ASSERT_ALL_PES(area);
  run_put_patterns<T>("p (element by element)", area.get(), area.size(), sizes,
                      [](T* d, const T* s, std::size_t n, int pe) {
                        for (std::size_t i = 0; i < n; ++i) A::p(d + i, s[i], pe);
                      });
}

template <class A>
void heap_get(const std::vector<std::size_t>& sizes = default_sizes()) {
  using T = typename A::T;
  SymArray<T> area(*std::max_element(sizes.begin(), sizes.end()) + 1);
  SHOAL_ASSERT_ALL_PES(area);
  run_get_patterns<T>("get", area.get(), area.size(), sizes, &A::get);
}

template <class A>
void heap_get_nbi(const std::vector<std::size_t>& sizes = default_sizes()) {
  using T = typename A::T;
  SymArray<T> area(*std::max_element(sizes.begin(), sizes.end()) + 1);
  SHOAL_ASSERT_ALL_PES(area);
  run_get_patterns<T>("get_nbi + quiet", area.get(), area.size(), sizes, &A::get_nbi, &A::quiet);
}

template <class A>
void heap_g() {
  using T = typename A::T;
  const std::vector<std::size_t> sizes = {0, 1, 37};
  SymArray<T> area(38);
  SHOAL_ASSERT_ALL_PES(area);
  run_get_patterns<T>("g (element by element)", area.get(), area.size(), sizes,
                      [](T* d, const T* s, std::size_t n, int pe) {
                        for (std::size_t i = 0; i < n; ++i) d[i] = A::g(s + i, pe);
                      });
}

template <class A>
void heap_iput() {
  using T = typename A::T;
  SymArray<T> area(2 * (37 * 5 + 2));
  SHOAL_ASSERT_ALL_PES(area);
  run_iput_patterns<T>("iput", area.get(), area.size(), strided_counts(), &A::iput);
}

template <class A>
void heap_iget() {
  using T = typename A::T;
  SymArray<T> area(37 * 5 + 2);
  SHOAL_ASSERT_ALL_PES(area);
  run_iget_patterns<T>("iget", area.get(), area.size(), strided_counts(), &A::iget);
}

template <class A>
void heap_ibput() {
  using T = typename A::T;
  SymArray<T> area(2 * 160);
  SHOAL_ASSERT_ALL_PES(area);
  run_ibput_patterns<T>("ibput", area.get(), area.size(), &A::ibput);
}

template <class A>
void heap_ibget() {
  using T = typename A::T;
  SymArray<T> area(160);
  SHOAL_ASSERT_ALL_PES(area);
  run_ibget_patterns<T>("ibget", area.get(), area.size(), &A::ibget);
}

// Large transfers (ring only): bigger than any internal bounce buffer or eager threshold,
// odd element count.
template <class A>
void heap_large(std::size_t bytes = (std::size_t{4} << 20)) {
  using T = typename A::T;
  const std::size_t nel = bytes / sizeof(T) + 1;  // just over `bytes`, odd for most T
  SymArray<T> dst(nel + 1);
  SymArray<T> src(nel);
  SHOAL_ASSERT_ALL_PES(dst && src);
  const int self = me();
  for (std::size_t i = 0; i < nel + 1; ++i) dst[i] = fill_sentinel<T>(i);
  for (std::size_t i = 0; i < nel; ++i) src[i] = fill_value<T>(self, i);
  shmem_barrier_all();
  A::put(dst.get(), src.get(), nel, right());
  shmem_barrier_all();
  EXPECT_TRUE(check_range(
      "large put from left neighbour", dst.get(), 0, nel + 1,
      [&](std::size_t i) { return i < nel ? fill_value<T>(left(), i) : fill_sentinel<T>(i); }));

  std::vector<T> got(nel + 1, fill_sentinel<T>(0));
  A::get(got.data(), src.get(), nel, right());
  EXPECT_TRUE(check_range(
      "large get from right neighbour", got.data(), 0, nel + 1,
      [&](std::size_t i) { return i < nel ? fill_value<T>(right(), i) : fill_sentinel<T>(0); }));
  shmem_barrier_all();
}

template <class A>
void heap_large_nbi(std::size_t bytes = (std::size_t{4} << 20)) {
  using T = typename A::T;
  const std::size_t nel = bytes / sizeof(T) + 1;
  SymArray<T> dst(nel + 1);
  SymArray<T> src(nel);
  SHOAL_ASSERT_ALL_PES(dst && src);
  const int self = me();
  for (std::size_t i = 0; i < nel + 1; ++i) dst[i] = fill_sentinel<T>(i);
  constexpr std::size_t salt = 7;  // differs from heap_large's values
  for (std::size_t i = 0; i < nel; ++i) src[i] = fill_value<T>(self, i + salt);
  std::vector<T> got(nel + 1, fill_sentinel<T>(0));
  shmem_barrier_all();
  A::put_nbi(dst.get(), src.get(), nel, right());
  A::get_nbi(got.data(), src.get(), nel, right());
  A::quiet();
  EXPECT_TRUE(check_range("large get_nbi after quiet", got.data(), 0, nel,
                          [&](std::size_t i) { return fill_value<T>(right(), i + salt); }));
  shmem_barrier_all();
  EXPECT_TRUE(check_range("large put_nbi from left neighbour", dst.get(), 0, nel,
                          [&](std::size_t i) { return fill_value<T>(left(), i + salt); }));
  EXPECT_TRUE(same_value(dst[nel], fill_sentinel<T>(nel))) << "large put_nbi overran";
  shmem_barrier_all();
}

}  // namespace shoal::test
