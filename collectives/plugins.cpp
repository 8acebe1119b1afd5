#include "collectives/plugins.hpp"

#include <dlfcn.h>
#include <shoal/coll_plugin.h>
#include <fmt/format.h>

#include <cctype>
#include <memory>
#include <string_view>

#include "collectives/registry.hpp"
#include "collectives/runtime_channel.hpp"
#include "collectives/slot_state.hpp"
#include "collectives/state.hpp"
#include "log/log.hpp"
#include "runtime.hpp"
#include "team/team.hpp"

namespace shoal::coll {

// The C enumeration is the C++ one, value for value.
#define SMA_SAME_VALUE(name, KEY)                                                         \
  static_assert(static_cast<int>(Collective::name) == static_cast<int>(SHOAL_COLL_##KEY), \
                "shoal_coll_collective and Collective differ at " #name);
#define SHOAL_COLL_BCAST SHOAL_COLL_BROADCAST
SMA_COLLECTIVES(SMA_SAME_VALUE)
#undef SHOAL_COLL_BCAST
#undef SMA_SAME_VALUE

namespace plugins {
namespace {

// The loaded plug-ins, in the bound state (collectives/state.hpp).
Store &store() noexcept { return state().plugins; }
// Plug-in calls running on this thread (a per-thread count, not process state).
thread_local int t_running = 0;

// What add() needs to know about the plug-in being registered.
struct Registration {
  const std::string *file;
  std::string problem;  // the first refusal
};

bool valid_name(std::string_view name) {
  if (name.empty() || name == "auto") return false;
  for (const char ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '-') return false;
  return true;
}

std::string refusal(const shoal_coll_algorithm *a) {
  if (a == nullptr) return "add() was given no algorithm";
  const int c = static_cast<int>(a->collective);
  if (c < 0 || c >= static_cast<int>(Collective::count))
    return fmt::format("algorithm '{}' is for collective {}, which does not exist (0 to {})",
                       a->name ? a->name : "(null)", c, static_cast<int>(Collective::count) - 1);
  const auto collective = static_cast<Collective>(c);
  const char *what = collective_name(collective);
  if (a->name == nullptr || !valid_name(a->name))
    return fmt::format("{} algorithm name '{}' is not a valid name (letters, digits, '_', '-')",
                       what, a->name ? a->name : "(null)");
  if (a->run == nullptr) return fmt::format("{} algorithm '{}' has no run function", what, a->name);
  for (const Algorithm *builtin : coll::algorithms(collective))
    if (std::string_view(builtin->name) == a->name)
      return fmt::format("{} algorithm '{}' clashes with the built-in {} algorithm '{}'", what,
                         a->name, what, builtin->name);
  for (const auto &other : store().algorithms)
    if (other->algorithm.collective == collective && other->name == a->name)
      return fmt::format("{} algorithm '{}' clashes with the {} algorithm '{}' of plug-in {}", what,
                         a->name, what, other->name, other->file);
  return {};
}

int add(shoal_coll_registrar *self, const shoal_coll_algorithm *a) {
  auto &registration = *static_cast<Registration *>(self->library_private);
  try {
    std::string problem = refusal(a);
    if (!problem.empty()) {
      if (registration.problem.empty()) registration.problem = std::move(problem);
      return 1;
    }
    auto p = std::make_unique<PluginAlgorithm>();
    p->c = *a;
    p->name = a->name;
    p->summary = a->summary ? a->summary : "";
    p->file = *registration.file;
    p->c.name = p->name.c_str();
    p->c.summary = p->summary.c_str();
    p->algorithm.name = p->name.c_str();
    p->algorithm.collective = static_cast<Collective>(a->collective);
    p->algorithm.plugin = p.get();
    store().list.push_back(&p->algorithm);
    store().algorithms.push_back(std::move(p));
    return 0;
  } catch (const std::exception &e) {
    if (registration.problem.empty()) registration.problem = e.what();
    return 1;
  }
}

Failure load_one(const std::string &file, const std::string &variable) {
  auto failed = [&](const std::string &why) {
    return Failure::because(Status::invalid_param, fmt::format("{}: {}", variable, why));
  };
  dlerror();
  void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char *why = dlerror();
    return failed(fmt::format("cannot load plug-in {}: {}", file, why ? why : "dlopen failed"));
  }
  store().loaded.push_back({file, handle});
  const auto *entry =
      static_cast<const shoal_coll_plugin *>(dlsym(handle, SHOAL_COLL_PLUGIN_SYMBOL));
  if (entry == nullptr)
    return failed(
        fmt::format("plug-in {} does not define {} (SHOAL_COLL_PLUGIN of "
                    "shoal/coll_plugin.h): is it a Shoal collective plug-in?",
                    file, SHOAL_COLL_PLUGIN_SYMBOL));
  if (entry->abi_version != SHOAL_COLL_PLUGIN_ABI_VERSION)
    return failed(fmt::format("plug-in {} was built for ABI {}, this library has {}", file,
                              entry->abi_version, SHOAL_COLL_PLUGIN_ABI_VERSION));
  const char *name = entry->name ? entry->name : "?";
  if (entry->init == nullptr)
    return failed(fmt::format("plug-in {} ({}) has no init function", file, name));
  Registration registration{&file, {}};
  shoal_coll_registrar registrar{SHOAL_COLL_PLUGIN_ABI_VERSION, add, &registration};
  const std::size_t before = store().list.size();
  const int status = entry->init(&registrar);
  if (!registration.problem.empty())
    return failed(
        fmt::format("plug-in {} ({}) failed to register: {}", file, name, registration.problem));
  if (status != 0)
    return failed(fmt::format("plug-in {} ({}) failed to register: its init function returned {}",
                              file, name, status));
  SMA_LOG_DEBUG("coll", "plug-in {} ({}) registered {} algorithm(s)", file, name,
                store().list.size() - before);
  return {};
}

const PluginAlgorithm &of(const Algorithm &a) noexcept { return *a.plugin; }

// The C view of a call on the channel's team.
shoal_coll_call view(const Algorithm &a, const Channel &channel, const Args &args,
                     std::uint64_t sequence) noexcept {
  const auto &runtime_channel = static_cast<const RuntimeChannel &>(channel);
  const Slot &slot = channel.slot();
  shoal_coll_call call{};
  call.collective = static_cast<shoal_coll_collective>(a.collective);
  call.team = &runtime_channel.team();
  call.my_pe = channel.rank();
  call.n_pes = channel.size();
  call.dest = args.dest;
  call.source = args.source;
  call.nelems = args.nelems;
  call.elem_size = args.elem_size;
  call.root = args.root;
  call.dst_stride = args.dst_stride;
  call.sst_stride = args.sst_stride;
  call.combine = args.combine;
  call.exclusive = args.exclusive ? 1 : 0;
  call.counts = args.counts;
  call.displs = args.displs;
  call.total = args.total;
  call.message_bytes = args.message_bytes;
  call.scratch = slot.plugin_scratch;
  call.scratch_bytes = slot.plugin_scratch_bytes;
  call.sequence = sequence;
  call.routine = runtime_channel.routine();
  return call;
}

}  // namespace

Failure load(const std::string &list, const std::string &variable) {
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t end = list.find(':', start);
    if (end == std::string::npos) end = list.size();
    std::string file = list.substr(start, end - start);
    file.erase(0, file.find_first_not_of(" \t"));
    file.erase(file.find_last_not_of(" \t") + 1);
    if (!file.empty())
      if (Failure f = load_one(file, variable)) return f;
    start = end + 1;
  }
  return {};
}

void unload() noexcept { store().unload(); }

const std::vector<const Algorithm *> &algorithms() noexcept { return store().list; }

const char *summary_of(const Algorithm &a) noexcept { return of(a).summary.c_str(); }
const char *file_of(const Algorithm &a) noexcept { return of(a).file.c_str(); }

bool running() noexcept { return t_running > 0; }

bool applies(const Algorithm &a, const Channel &channel, const Args &args) noexcept {
  if (t_running > 0) return false;
  const auto &runtime_channel = static_cast<const RuntimeChannel &>(channel);
  const Slot &slot = channel.slot();
  if (runtime_channel.team().active_set || slot.plugin_scratch == nullptr) return false;
  const PluginAlgorithm &p = of(a);
  if (p.c.applies == nullptr) return true;
  const shoal_coll_call call = view(a, channel, args, slot.plugin_calls + 1);
  return p.c.applies(&call, p.c.context) != 0;
}

void run(const Algorithm &a, Channel &channel, const Args &args) noexcept {
  const PluginAlgorithm &p = of(a);
  const shoal_coll_call call = view(a, channel, args, ++channel.slot().plugin_calls);
  ++t_running;
  const int status = p.c.run(&call, p.c.context);
  --t_running;
  if (status != 0)
    fatal(fmt::format("{}: plug-in {} algorithm '{}' (plug-in {}) failed on PE {} with status {}",
                      call.routine, collective_name(a.collective), p.name, p.file, g_runtime->my_pe,
                      status));
}

}  // namespace plugins
}  // namespace shoal::coll
