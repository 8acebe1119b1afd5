// Binomial tree broadcast. PEs are numbered relative to the root (relative = (me - root) mod n),
// so the root is relative PE 0 and the tree changes with the root. The parent of relative PE v
// is v with its lowest set bit cleared; its children are v + 2^k for every 2^k below that bit
// (every 2^k for the root) that is still a team PE. Each PE grants its parent on entry, awaits
// the whole message from it into dest, then forwards dest to its children, farthest (largest
// subtree) first. ceil(log2 n) steps of the whole message: the choice for small messages.
#include <cstring>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"

namespace shoal::coll {
namespace {

int lowest_set_bit(int v) { return v & -v; }

// The largest power of two below n (n >= 2).
int highest_power_of_two_below(int n) {
  int p = 1;
  while (p * 2 < n) p *= 2;
  return p;
}

void run(Channel &channel, const Args &args) {
  const int n = channel.size(), root = args.root;
  const int relative = (channel.rank() - root + n) % n;
  const auto team_pe = [&](int relative_pe) { return (relative_pe + root) % n; };

  const void *data = args.source;
  int child_bound = n;  // children are relative + 2^k for 2^k below this bound
  if (relative != 0) {
    const int parent = team_pe(relative - lowest_set_bit(relative));
    channel.grant(parent);
    channel.await(parent);
    data = args.dest;
    child_bound = lowest_set_bit(relative);
  }
  for (int distance = highest_power_of_two_below(n); distance >= 1; distance /= 2) {
    if (distance >= child_bound || relative + distance >= n) continue;
    const int child = team_pe(relative + distance);
    channel.await_grant(child);
    channel.send(args.dest, data, args.bytes(), child);
  }
  if (relative == 0 && args.dest != args.source) std::memmove(args.dest, args.source, args.bytes());
}

}  // namespace

extern const Algorithm broadcast_binomial;
const Algorithm broadcast_binomial = {"binomial", Collective::broadcast, nullptr, run};

}  // namespace shoal::coll
