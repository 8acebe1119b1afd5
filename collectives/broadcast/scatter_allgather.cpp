// Scatter-allgather broadcast for large messages (van de Geijn). The message is cut into m =
// n - 1 pieces of nearly equal size (the first B mod m are one byte longer; pieces may be
// empty when B < m). The root sends piece j straight into the dest of the j-th PE after it,
// then a ring allgather among those m PEs completes dest everywhere: in step s each PE passes
// the piece it got in step s - 1 (its own in step 0) to the next PE of the ring and receives
// one from the previous. The root only scatters, so it sends the message about once, and every
// other PE receives it about once, instead of log2 n times for the binomial tree.
//
// Writes into a PE's dest come from the root and from its left neighbour in the ring; the PE
// grants each of them once on entry, as its dest is free for the whole call and every piece
// lands in its own part of it. Every piece transfer is notified (even an empty one) and awaited
// once.
#include <cstddef>
#include "collectives/algorithm.hpp"
#include "collectives/broadcast/pieces.hpp"
#include "collectives/channel.hpp"

namespace shoal::coll {
namespace {

// Puts piece j of `from` into the same place of peer's dest, then notifies peer.
void send_piece(Channel &channel, const Args &args, const void *from, std::size_t j, std::size_t m,
                int peer) {
  const pieces::Piece p = pieces::piece(j, m, args.bytes());
  channel.send(static_cast<std::byte *>(args.dest) + p.offset,
               static_cast<const std::byte *>(from) + p.offset, p.bytes, peer);
}

void run(Channel &channel, const Args &args) {
  const int n = channel.size(), root = args.root;
  const int m = n - 1;  // PEs in the ring: every PE but the root
  const auto team_pe = [&](int position) { return pieces::team_pe(position, root, n); };

  if (channel.rank() == root) {
    for (int position = 0; position < m; ++position) {
      channel.await_grant(team_pe(position));
      send_piece(channel, args, args.source, static_cast<std::size_t>(position),
                 static_cast<std::size_t>(m), team_pe(position));
    }
    broadcast_to_root_dest(args);
    return;
  }

  const int me = pieces::position(channel.rank(), root, n);
  const int left = team_pe((me - 1 + m) % m), right = team_pe((me + 1) % m);
  channel.grant(root);
  if (m > 1) channel.grant(left);
  channel.await(root);  // my own piece
  for (int step = 0; step < m - 1; ++step) {
    if (step == 0) channel.await_grant(right);
    send_piece(channel, args, args.dest, static_cast<std::size_t>(pieces::forwarded(me, step, m)),
               static_cast<std::size_t>(m), right);
    channel.await(left);  // piece (me - step - 1) mod m
  }
}

}  // namespace

extern const Algorithm broadcast_scatter_allgather;
const Algorithm broadcast_scatter_allgather = {"scatter_allgather", Collective::broadcast, nullptr,
                                               run};

}  // namespace shoal::coll
