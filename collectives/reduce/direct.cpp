// On-node reduction by loads, as a reduce-scatter and an allgather over the PEs' own buffers:
// the vector is cut into one chunk per PE (whole cache lines where the element size allows);
// each PE folds its chunk straight from every PE's source (mapped here) into its own dest, then
// copies every other chunk from the dest of the PE that owns it. The data is read about twice
// and written once per PE, with no intermediate buffers: the choice for large vectors.
//
// Three rounds of signals to every peer order it:
//   1. on entry: this PE's source holds its contribution (peers may read it);
//   2. after the fold: this PE's chunk of dest is final and it reads no source any more, so a
//      peer may copy the chunk and may overwrite its own dest even where dest == source;
//   3. after the copies: this PE reads no peer's dest any more; each PE returns after every
//      peer's third signal, since its dest (and source) may change once it returns.
// The fold goes through a small buffer block by block, in team order ((v0 OP v1) OP v2 ...), so
// in-place reductions read their source before overwriting it and every PE gets the same bytes.
//
// Needs args.direct: every team PE's heap is mapped here and dest and source are in the heap.
#include <algorithm>
#include <cstring>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"

namespace shoal::coll {
namespace {

constexpr std::size_t kBlockBytes = 8192;

bool applies(const Channel &, const Args &a) { return a.direct && a.elem_size <= kBlockBytes; }

// Signals every peer, then waits for every peer's signal.
void signal_all(Channel &ch) {
  const int n = ch.size(), me = ch.rank();
  for (int k = 1; k < n; ++k) ch.notify((me + k) % n);
  for (int k = 1; k < n; ++k) ch.await((me + k) % n);
}

void run(Channel &ch, const Args &a) {
  const int n = ch.size(), me = ch.rank();
  const std::size_t es = a.elem_size, nelems = a.nelems;
  // Chunks of whole cache lines when the element size divides 64.
  const std::size_t align = 64 % es == 0 ? 64 / es : 1;
  const std::size_t per =
      ((nelems + static_cast<std::size_t>(n) - 1) / static_cast<std::size_t>(n) + align - 1) /
      align * align;
  auto first = [&](int pe) { return std::min(static_cast<std::size_t>(pe) * per, nelems); };
  auto last = [&](int pe) { return std::min(first(pe) + per, nelems); };
  auto *dest = static_cast<std::byte *>(a.dest);

  std::vector<const std::byte *> sources(static_cast<std::size_t>(n));
  for (int pe = 0; pe < n; ++pe) sources[static_cast<std::size_t>(pe)] = ch.mapped(a.source, pe);

  signal_all(ch);  // 1: every source is ready

  alignas(64) std::byte block[kBlockBytes];
  const std::size_t block_elems = kBlockBytes / es;
  for (std::size_t i = first(me), end = last(me); i < end; i += block_elems) {
    const std::size_t len = std::min(block_elems, end - i), off = i * es;
    std::memcpy(block, sources[0] + off, len * es);
    for (int pe = 1; pe < n; ++pe)
      a.combine(block, sources[static_cast<std::size_t>(pe)] + off, len);
    std::memcpy(dest + off, block, len * es);
  }

  // 2: my chunk is final; copy the others' as they become final.
  for (int k = 1; k < n; ++k) ch.notify((me + k) % n);
  for (int k = 1; k < n; ++k) {
    const int pe = (me + k) % n;
    ch.await(pe);
    const std::size_t off = first(pe) * es, len = (last(pe) - first(pe)) * es;
    if (len != 0) std::memcpy(dest + off, ch.mapped(a.dest, pe) + off, len);
  }

  signal_all(ch);  // 3: nobody reads my dest any more
}

}  // namespace

extern const Algorithm reduce_direct;
const Algorithm reduce_direct = {"direct", Collective::reduce, applies, run};

}  // namespace shoal::coll
