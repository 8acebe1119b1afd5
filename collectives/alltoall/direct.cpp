// Direct alltoall/alltoalls, for teams whose heaps are all mapped here (Args::direct: one node,
// shared memory on, dest and source in the symmetric heap). Every PE copies the block each peer
// has for it straight from the peer's source into its own dest through the mapping (a pull):
// one copy per byte, no scratch, no store into another PE's memory but the channel counters.
//
//   1. every PE tells every peer that its source is ready (notify);
//   2. it copies its own block, then for every peer: awaits that peer's "ready", copies the
//      block from the peer's source and tells the peer it is done reading (notify);
//   3. it returns only after every peer is done reading its source, since the caller may
//      change source as soon as the call returns.
// Nothing is written into another PE's dest, so no credits. Per ordered pair there are exactly
// two notifications each way in one call, "ready" always before "done": they balance and
// cannot be confused, within a call or with the next one.
//
// Block layout (OpenSHMEM alltoalls; alltoall has both strides 1): the block for PE j starts
// at source element j*nelems*sst, its k-th element sst apart; it lands in PE j's dest at
// element me*nelems*dst, consecutive elements dst apart.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/alltoall/blocks.hpp"
#include "collectives/channel.hpp"

namespace shoal::coll {
namespace {

bool applies(const Channel &, const Args &args) { return args.direct; }

// n elements of T, dst and sst elements apart.
template <class T>
void copy_strided(std::byte *to, const std::byte *from, std::size_t dst, std::size_t sst,
                  std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, from + i * sst * sizeof(T), sizeof(T));
    std::memcpy(to + i * dst * sizeof(T), &v, sizeof(T));
  }
}

// Copies the block that the PE whose source is `source` has for `for_pe` into this PE's dest,
// at the place of block `from_pe`.
void copy_block(const Args &args, const std::byte *source, int for_pe, int from_pe) {
  const std::size_t es = args.elem_size, n = args.nelems;
  const std::size_t dst = static_cast<std::size_t>(args.dst_stride);
  const std::size_t sst = static_cast<std::size_t>(args.sst_stride);
  auto *to =
      static_cast<std::byte *>(args.dest) + alltoall_blocks::block_offset(args, from_pe, dst);
  const std::byte *from = source + alltoall_blocks::block_offset(args, for_pe, sst);
  if (dst == 1 && sst == 1) return (void)std::memcpy(to, from, n * es);
  switch (es) {
    case 1:
      return copy_strided<std::uint8_t>(to, from, dst, sst, n);
    case 2:
      return copy_strided<std::uint16_t>(to, from, dst, sst, n);
    case 4:
      return copy_strided<std::uint32_t>(to, from, dst, sst, n);
    case 8:
      return copy_strided<std::uint64_t>(to, from, dst, sst, n);
    default:
      for (std::size_t i = 0; i < n; ++i) std::memcpy(to + i * dst * es, from + i * sst * es, es);
  }
}

void run(Channel &channel, const Args &args) {
  const int n = channel.size(), me = channel.rank();
  for (int k = 1; k < n; ++k) channel.notify((me + k) % n);
  copy_block(args, static_cast<const std::byte *>(args.source), me, me);
  // Peers are visited starting after this PE, so the PEs do not all read PE 0 first; those
  // that are ready first: with more PEs than CPUs the next peer in turn is often off its CPU.
  std::vector<bool> copied(static_cast<std::size_t>(n), false);
  auto copy_from = [&](int peer) {
    channel.await(peer);
    copy_block(args, channel.mapped(args.source, peer), me, peer);
    channel.notify(peer);
    copied[static_cast<std::size_t>(peer)] = true;
  };
  for (int left = n - 1; left > 0;) {
    int next = -1, ready = 0;
    for (int k = 1; k < n; ++k) {
      const int peer = (me + k) % n;
      if (copied[static_cast<std::size_t>(peer)]) continue;
      if (next < 0) next = peer;
      if (channel.arrived(peer)) {
        copy_from(peer);
        ++ready;
      }
    }
    if (ready == 0) {  // none was: wait for the next in turn
      copy_from(next);
      ready = 1;
    }
    left -= ready;
  }
  for (int k = 1; k < n; ++k) channel.await((me + n - k) % n);
}

}  // namespace

extern const Algorithm alltoall_direct;
const Algorithm alltoall_direct = {"direct", Collective::alltoall, applies, run};

}  // namespace shoal::coll
