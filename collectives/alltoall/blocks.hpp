// Block layout of alltoall/alltoalls (alltoall has both strides 1), shared by the algorithms:
// the block for PE j starts at source element j*nelems*sst, its k-th element sst apart; it
// lands in PE j's dest at element me*nelems*dst, consecutive elements dst apart.
#pragma once

#include <cstddef>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"

namespace shoal::coll::alltoall_blocks {

// Byte offset of PE pe's block in a buffer whose elements are `stride` elements apart.
inline std::size_t block_offset(const Args &args, int pe, std::size_t stride) noexcept {
  return static_cast<std::size_t>(pe) * args.nelems * stride * args.elem_size;
}

// Puts this PE's block for `peer` into peer's dest and notifies peer (for peer == me, only
// copies it into its own dest). Across nodes a contiguous block travels in one message with
// the notification (Channel::send).
inline void put_block(Channel &channel, const Args &args, int peer) noexcept {
  const std::size_t es = args.elem_size, n = args.nelems;
  const auto dst = static_cast<std::size_t>(args.dst_stride);
  const auto sst = static_cast<std::size_t>(args.sst_stride);
  auto *to = static_cast<std::byte *>(args.dest) + block_offset(args, channel.rank(), dst);
  const auto *from = static_cast<const std::byte *>(args.source) + block_offset(args, peer, sst);
  const bool other = peer != channel.rank();
  if (dst == 1 && sst == 1 && other) {
    channel.send(to, from, n * es, peer);
  } else if (dst == 1 && sst == 1) {
    channel.put(to, from, n * es, peer);
  } else {
    channel.put_strided(to, from, args.dst_stride, args.sst_stride, n, es, peer);
    if (other) channel.notify(peer);
  }
}

}  // namespace shoal::coll::alltoall_blocks
