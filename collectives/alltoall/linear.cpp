// Linear alltoall/alltoalls: every PE puts each of its blocks straight into its owner's dest,
// then waits for the n-1 blocks of the others. One step and no ordering between messages:
// lowest latency for small blocks, but every PE is a target of n-1 PEs at once.
// Peers are visited starting after this PE so the PEs do not all hit PE 0 first.
//
// Block layout (OpenSHMEM alltoalls; alltoall has both strides 1): the block for PE j starts
// at source element j*nelems*sst, its k-th element sst apart; it lands in PE j's dest at
// element me*nelems*dst, consecutive elements dst apart.
#include <cstddef>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"

namespace shoal::coll {
namespace {

// Puts this PE's block for `peer` into peer's dest and notifies peer (for peer == me, only
// copies it into its own dest).
void send_block(Channel &channel, const Args &args, int peer) {
  const std::size_t es = args.elem_size, n = args.nelems;
  const std::size_t dst = static_cast<std::size_t>(args.dst_stride);
  const std::size_t sst = static_cast<std::size_t>(args.sst_stride);
  auto *to =
      static_cast<std::byte *>(args.dest) + static_cast<std::size_t>(channel.rank()) * n * dst * es;
  const auto *from =
      static_cast<const std::byte *>(args.source) + static_cast<std::size_t>(peer) * n * sst * es;
  const bool other = peer != channel.rank();
  if (dst == 1 && sst == 1 && other) {
    channel.send(to, from, n * es, peer);  // across nodes, one message with the counter
  } else if (dst == 1 && sst == 1) {
    channel.put(to, from, n * es, peer);
  } else {
    channel.put_strided(to, from, args.dst_stride, args.sst_stride, n, es, peer);
    if (other) channel.notify(peer);
  }
}

void run(Channel &channel, const Args &args) {
  const int n = channel.size(), me = channel.rank();
  for (int k = 1; k < n; ++k) channel.grant((me + k) % n);
  send_block(channel, args, me);
  for (int k = 1; k < n; ++k) {
    const int peer = (me + k) % n;
    channel.await_grant(peer);
    send_block(channel, args, peer);
  }
  for (int k = 1; k < n; ++k) channel.await((me + n - k) % n);
}

}  // namespace

extern const Algorithm alltoall_linear;
const Algorithm alltoall_linear = {"linear", Collective::alltoall, nullptr, run};

}  // namespace shoal::coll
