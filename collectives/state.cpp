#include "collectives/state.hpp"

#include <dlfcn.h>

namespace shoal::coll {

namespace plugins {

Store::~Store() { unload(); }

void Store::unload() noexcept {
  list.clear();
  algorithms.clear();
  for (auto it = loaded.rbegin(); it != loaded.rend(); ++it) dlclose(it->handle);
  loaded.clear();
}

}  // namespace plugins

void bind_state(LayerState *s) noexcept { detail::g_bound = s; }

}  // namespace shoal::coll
