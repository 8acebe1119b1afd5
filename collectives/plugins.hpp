// Collective plug-ins: shared objects named in SMA_COLL_PLUGINS whose algorithms join the
// registry at start-up, through the C ABI of include/shoal/coll_plugin.h (docs/plugins.md).
// The registry lists a plug-in's algorithm like a built-in one (Algorithm::plugin set, applies
// and run null) and asks here whether it applies; the dispatcher runs it here, with a C view
// of the call and the team's plug-in scratch.
#pragma once

#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "status.hpp"

namespace shoal::coll {

class Channel;

namespace plugins {

// Loads every plug-in of `list` (colon-separated paths; `variable` is where the list came
// from, for messages) in order and lets each register its algorithms. A file that cannot be
// loaded, lacks the entry, was built for another ABI or whose registration fails is an error
// naming the file; nothing of a failed load is kept once unload() has run.
Failure load(const std::string &list, const std::string &variable);
// Forgets every registered algorithm and unloads the plug-ins (shmem_finalize, failed start).
void unload() noexcept;

// The algorithms the plug-ins registered, in registration order.
const std::vector<const Algorithm *> &algorithms() noexcept;
// The summary a plug-in gave its algorithm, and the file it came from.
const char *summary_of(const Algorithm &a) noexcept;
const char *file_of(const Algorithm &a) noexcept;

// Whether plug-in algorithm `a` serves this call (never for active sets, nor on a thread that
// is already running a plug-in algorithm: a collective called from inside one gets a built-in
// algorithm).
bool applies(const Algorithm &a, const Channel &channel, const Args &args) noexcept;
// Runs plug-in algorithm `a`; a nonzero return from the plug-in is fatal, naming it.
void run(const Algorithm &a, Channel &channel, const Args &args) noexcept;
// Whether this thread is inside a plug-in algorithm.
bool running() noexcept;

}  // namespace plugins
}  // namespace shoal::coll
