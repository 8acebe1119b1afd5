// Binomial tree broadcast. PEs are numbered relative to the root (relative = (me - root) mod n),
// so the root is relative PE 0 and the tree changes with the root. The parent of relative PE v
// is v with its lowest set bit cleared; its children are v + 2^k for every 2^k below that bit
// (every 2^k for the root) that is still a team PE. Each PE grants its parent on entry, awaits
// the whole message from it into dest, then forwards dest to its children, farthest (largest
// subtree) first. ceil(log2 n) steps of the whole message: the choice for small messages.
#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/tree.hpp"

namespace shoal::coll {
namespace {

void run(Channel &channel, const Args &args) {
  const int n = channel.size(), root = args.root;
  const int relative = tree::to_relative(channel.rank(), root, n);
  const auto team_pe = [&](int relative_pe) { return tree::from_relative(relative_pe, root, n); };

  const void *data = args.source;
  if (relative != 0) {
    const int parent = team_pe(tree::binomial_parent(relative));
    channel.grant(parent);
    channel.await(parent);
    data = args.dest;
  }
  for (int distance = tree::highest_power_of_two_below(n); distance >= 1; distance /= 2) {
    if (!tree::binomial_child(relative, distance, n)) continue;
    const int child = team_pe(relative + distance);
    channel.await_grant(child);
    channel.send(args.dest, data, args.bytes(), child);
  }
  if (relative == 0) broadcast_to_root_dest(args);
}

}  // namespace

extern const Algorithm broadcast_binomial;
const Algorithm broadcast_binomial = {"binomial", Collective::broadcast, nullptr, run};

}  // namespace shoal::coll
