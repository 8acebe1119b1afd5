// Pairwise alltoall/alltoalls: n-1 steps; at step k PE me sends its block for PE (me+k) mod n
// and receives the block of PE (me-k) mod n, waiting for it before the next step, so each PE
// has one message in flight and no PE is flooded (unlike linear). For powers of two the
// partners are me XOR k instead, which makes every step a true pairwise exchange.
//
// Block layout (OpenSHMEM alltoalls; alltoall has both strides 1): the block for PE j starts
// at source element j*nelems*sst, its k-th element sst apart; it lands in PE j's dest at
// element me*nelems*dst, consecutive elements dst apart. Each PE writes once into every other
// PE's dest, so each grants every peer on entry and awaits one credit per peer.
#include <cstddef>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/tree.hpp"

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
  for (int k = 1; k < n; ++k) channel.grant(tree::ahead(me, k, n));
  send_block(channel, args, me);
  for (int k = 1; k < n; ++k) {
    const int to = tree::pairwise_to(me, k, n), from = tree::pairwise_from(me, k, n);
    channel.await_grant(to);
    send_block(channel, args, to);
    channel.await(from);
  }
}

}  // namespace

extern const Algorithm alltoall_pairwise;
const Algorithm alltoall_pairwise = {"pairwise", Collective::alltoall, nullptr, run};

}  // namespace shoal::coll
