// Linear broadcast: the root sends the whole message straight into every other PE's dest, once
// that PE has granted it (on entry, when its dest is free), and copies it into its own dest (team
// forms). n - 1 messages, all from the root; good for small teams or small messages.
#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"

namespace shoal::coll {
namespace {

void run(Channel &channel, const Args &args) {
  const int n = channel.size(), me = channel.rank(), root = args.root;
  if (me != root) {
    channel.grant(root);
    channel.await(root);
    return;
  }
  for (int offset = 1; offset < n; ++offset) {
    const int peer = (root + offset) % n;
    channel.await_grant(peer);
    channel.send(args.dest, args.source, args.bytes(), peer);
  }
  broadcast_to_root_dest(args);
}

}  // namespace

extern const Algorithm broadcast_linear;
const Algorithm broadcast_linear = {"linear", Collective::broadcast, nullptr, run};

}  // namespace shoal::coll
