// The interface every collective algorithm implements, and what a collective call hands it.
// An algorithm is a name, the collective it serves, an optional applicability test and a run
// function built on the team's point-to-point channels (channel.hpp). Algorithms are listed in
// algorithms.def; nothing else in the library names them. Plug-ins add more at start-up
// (plugins.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace shoal::coll {

class Channel;
struct PluginAlgorithm;

// The collectives that have an algorithm choice (SMA_<NAME>_ALGORITHM). sync/barrier/team_sync
// share `barrier`; alltoalls shares `alltoall`; the scans have their own.
#define SMA_COLLECTIVES(X) \
  X(barrier, BARRIER)      \
  X(broadcast, BCAST)      \
  X(reduce, REDUCE)        \
  X(collect, COLLECT)      \
  X(fcollect, FCOLLECT)    \
  X(alltoall, ALLTOALL)    \
  X(scan, SCAN)

enum class Collective : int {
#define SMA_ENUM(name, KEY) name,
  SMA_COLLECTIVES(SMA_ENUM)
#undef SMA_ENUM
      count
};
const char *collective_name(Collective c) noexcept;

// inout[i] = inout[i] OP in[i] for i < n elements (reductions and scans).
using Combine = void (*)(void *inout, const void *in, std::size_t n);

// One call of a collective. Pointers are symmetric where the specification says so (dest and
// source of every team collective); counts are in elements, PEs are team PE numbers.
struct Args {
  void *dest = nullptr;
  const void *source = nullptr;
  std::size_t nelems = 0;     // broadcast/fcollect/alltoall/reduce/scan: elements per PE;
                              // collect: this PE's contribution
  std::size_t elem_size = 1;  // bytes per element
  int root = 0;               // broadcast: the root's team PE number
  // broadcast: whether the root's dest receives source too (the team forms); the active-set
  // forms leave it untouched (broadcast_to_root_dest()).
  bool root_dest = true;
  std::ptrdiff_t dst_stride = 1, sst_stride = 1;  // alltoalls, in elements (>= 1)
  Combine combine = nullptr;                      // reduce, scan
  bool exclusive = false;  // scan: exscan (dest on team PE 0 becomes all zero bytes)
  // collect: every PE's element count and where its block starts in dest (filled by the
  // dispatcher before the algorithm runs, identical on every PE).
  const std::size_t *counts = nullptr;
  const std::size_t *displs = nullptr;
  std::size_t total = 0;  // collect: sum of counts
  // What the `bytes` conditions of the selection rules compare: elements per PE times the
  // element size; collect: everything gathered (set by the dispatcher).
  std::size_t message_bytes = 0;
  // Every team PE's symmetric heap is mapped here (one node, shared memory on) and dest and
  // source, where given, lie in the symmetric heap or in globals every member shares: the
  // algorithm may load from and store to any member's dest, source and scratch through
  // Channel::mapped(). Same on every PE.
  bool direct = false;

  std::size_t bytes() const noexcept { return nelems * elem_size; }
};

// A broadcast's last step on the root: source into its own dest, unless the call leaves that
// untouched (Args::root_dest). No broadcast algorithm reads the root's dest.
inline void broadcast_to_root_dest(const Args &args) noexcept {
  if (args.root_dest && args.dest != args.source)
    std::memmove(args.dest, args.source, args.bytes());
}

struct Algorithm {
  const char *name;  // the value users write in SMA_<COLLECTIVE>_ALGORITHM
  Collective collective;
  // Whether the algorithm can serve this call on the channel's team (its size, slot,
  // mailboxes and lines); null: always. Must give the same answer on every PE of the team.
  // run() is called only when it does, so it needs no fallback of its own, and never for a
  // team of one PE or a call that moves nothing (alone.hpp completes those).
  bool (*applies)(const Channel &channel, const Args &args);
  void (*run)(Channel &channel, const Args &args);
  // Set for an algorithm a plug-in registered (plugins.hpp): applies and run are then null and
  // the registry and the dispatcher call the plug-in's through plugins::applies/run.
  const PluginAlgorithm *plugin = nullptr;
};

}  // namespace shoal::coll
