// Mailbox alltoall/alltoalls, for blocks that fit a mailbox (Channel::box_bytes: 128 B in the
// largest jobs, 8 KiB with 4 PEs, 4 KiB with 8): each PE sends its block for every peer to that
// peer's mailbox (Channel::next_outbox, packed: consecutive elements) with one notification,
// then copies each peer's block from its own mailboxes into dest. Every ordered pair carries
// exactly one message per call in each direction, so the calls are exchanges and the
// alternating mailboxes need no credit (channel.hpp): one one-way message per pair and no second
// round, where pairwise and linear need a credit before each write into a peer's dest, and
// direct a second round of notifications before the source may change. Each block is copied
// twice, which costs less than that round up to the box size where PEs wait for CPUs (4 PEs on
// 2 CPUs, 8 KiB blocks: 2.8 us against direct's 3.9), but not with 2 PEs on one node above
// 1 KiB (registry.cpp). Works on any team; on one node a message is a copy into the peer's
// mapped box.
//
// Block layout: alltoall/blocks.hpp. In jobs above kBoxPeers PEs some teams have no mailboxes
// (the same answer on every PE): those calls run pairwise.
#include <cstddef>
#include <cstring>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/alltoall/blocks.hpp"
#include "collectives/channel.hpp"
#include "collectives/slot_state.hpp"

namespace shoal::coll {

namespace {

// In jobs above kBoxPeers PEs, some teams have no mailboxes (the same answer on every PE).
bool applies(const Channel &channel, const Args &args) {
  return channel.has_mailboxes() && args.bytes() <= channel.box_bytes();
}

// Copies nelems elements from `from` (source_stride elements apart) to `to` (dest_stride apart).
void copy(std::byte *to, const std::byte *from, std::size_t dest_stride, std::size_t source_stride,
          const Args &args) {
  const std::size_t es = args.elem_size;
  if (dest_stride == 1 && source_stride == 1) return (void)std::memcpy(to, from, args.bytes());
  for (std::size_t i = 0; i < args.nelems; ++i)
    std::memcpy(to + i * dest_stride * es, from + i * source_stride * es, es);
}

void run(Channel &channel, const Args &args) {
  const int n = channel.size(), me = channel.rank();
  const auto dst = static_cast<std::size_t>(args.dst_stride);
  const auto sst = static_cast<std::size_t>(args.sst_stride);
  const auto *source = static_cast<const std::byte *>(args.source);
  auto *dest = static_cast<std::byte *>(args.dest);
  auto block = [&](int pe, std::size_t stride) {
    return alltoall_blocks::block_offset(args, pe, stride);
  };
  std::vector<std::byte> packed(sst == 1 ? 0 : args.bytes());
  // Peers are visited starting after this PE, so the PEs do not all hit PE 0 first.
  for (int k = 1; k < n; ++k) {
    const int peer = (me + k) % n;
    if (sst == 1) {
      channel.send(channel.next_outbox(peer), source + block(peer, 1), args.bytes(), peer);
    } else {  // pack here, then one contiguous send
      copy(packed.data(), source + block(peer, sst), 1, sst, args);
      channel.send(channel.next_outbox(peer), packed.data(), args.bytes(), peer);
    }
  }
  copy(dest + block(me, dst), source + block(me, sst), dst, sst, args);
  for (int k = 1; k < n; ++k) {
    const int peer = (me + n - k) % n;
    channel.await(peer);
    copy(dest + block(peer, dst), channel.next_inbox(peer), dst, 1, args);
  }
}

}  // namespace

extern const Algorithm alltoall_mailbox;
const Algorithm alltoall_mailbox = {"mailbox", Collective::alltoall, applies, run};

}  // namespace shoal::coll
