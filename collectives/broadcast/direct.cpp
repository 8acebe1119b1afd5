// On-node broadcast by loads: the root tells every reader its source is ready, each reader
// copies the whole message straight from the root's source (mapped here) into its dest with
// one memcpy and tells the root it is done; the root copies its own dest meanwhile and returns
// once every reader is done (its source may change after it returns). The data crosses once,
// with no intermediate copy and no tree: the choice for large messages on one node.
//
// Needs args.direct: every team PE's heap is mapped here and source (symmetric, as the
// specification requires) is in the heap.
#include <cstring>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"

namespace shoal::coll {
namespace {

bool applies(const Channel &, const Args &a) { return a.direct; }

void run(Channel &ch, const Args &a) {
  const int n = ch.size(), me = ch.rank(), root = a.root;
  const std::size_t bytes = a.bytes();
  if (me != root) {
    ch.await(root);  // the root's source holds the message
    std::memcpy(a.dest, ch.mapped(a.source, root), bytes);
    ch.notify(root);  // done reading it
    return;
  }
  for (int k = 1; k < n; ++k) ch.notify((me + k) % n);
  broadcast_to_root_dest(a);
  for (int k = 1; k < n; ++k) ch.await((me + k) % n);
}

}  // namespace

extern const Algorithm broadcast_direct;
const Algorithm broadcast_direct = {"direct", Collective::broadcast, applies, run};

}  // namespace shoal::coll
