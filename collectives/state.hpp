// The collectives' process state, all of it in one LayerState: the symmetric area of team
// slots, the active sets' slot, the algorithm selection and the loaded plug-ins. One LayerState
// lives from shmem_init to shmem_finalize, owned by the library (api/library.cpp), which binds it
// at start (before the collectives start) and unbinds it at stop; the collectives reach it
// through state(). Nothing here is a file-scope global of its own.
#pragma once

#include <shoal/coll_plugin.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/rule_parser.hpp"
#include "collectives/slot.hpp"

namespace shoal::coll {

namespace slots {
// The area's layout (slots.cpp lays it out): attach() fills it, a default Area is detached.
struct Area {
  std::byte *base = nullptr;
  int count = 0;
  int world_pes = 0;
  std::size_t flags_bytes = 0;  // one array of a counter per world PE (3 per slot)
  std::size_t scratch_bytes = 0;
  std::size_t plugin_scratch_bytes = 0;
  std::size_t slot_bytes = 0;
  std::array<std::uint64_t, kMaskWords> used{};  // bit per slot
  std::vector<std::uint64_t> generations;        // per slot: the last team's generation here
};
}  // namespace slots

// One collective's SMA_<COLLECTIVE>_ALGORITHM rules (registry.cpp).
struct Selection {
  std::string text;                   // as the user wrote it ("auto" by default)
  std::vector<rules::Rule> rules;     // the user's rules ("auto": the built-in ones)
  std::vector<rules::Rule> fallback;  // the built-in rules
};

// One algorithm a plug-in registered: the registry's entry and the plug-in's own, with copies
// of its strings.
struct PluginAlgorithm {
  Algorithm algorithm{};
  shoal_coll_algorithm c{};
  std::string name, summary, file;
};

namespace plugins {
struct Loaded {
  std::string file;
  void *handle;
};
// The plug-ins of SMA_COLL_PLUGINS (plugins.cpp); destroying it unloads them, last loaded first.
struct Store {
  std::vector<Loaded> loaded;
  std::vector<std::unique_ptr<PluginAlgorithm>> algorithms;
  std::vector<const Algorithm *> list;
  Store() = default;
  Store(const Store &) = delete;
  Store &operator=(const Store &) = delete;
  ~Store();
  void unload() noexcept;
};
}  // namespace plugins

struct LayerState {
  slots::Area area;
  Slot active_sets_slot;  // bound at start-up, no team owns it (nothing to give back)
  std::array<Selection, static_cast<std::size_t>(Collective::count)> selection;
  plugins::Store plugins;
};

namespace detail {
// The bound state; null before start and after stop. A plain pointer, trivially destructible:
// a team destroyed at exit (a program that never called shmem_finalize) still finds the state,
// which the library then never destroys.
inline LayerState *g_bound = nullptr;
}  // namespace detail

// The running library's state. Only for code that runs while the library does (the API checks
// that the library runs before it calls in); bound() tells the others.
inline LayerState &state() noexcept { return *detail::g_bound; }
inline bool bound() noexcept { return detail::g_bound != nullptr; }
// The owner's calls (api/library.cpp): bind before the collectives start, unbind (null) once they
// stopped.
void bind_state(LayerState *s) noexcept;

}  // namespace shoal::coll
