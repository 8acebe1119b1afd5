#include "collectives/registry.hpp"

#include <fmt/format.h>

#include <array>
#include <string_view>
#include <vector>

#include "collectives/channel.hpp"
#include "collectives/plugins.hpp"
#include "collectives/rule_parser.hpp"
#include "collectives/state.hpp"
#include "config/config.hpp"

namespace shoal::coll {

// The algorithm objects, one per row of algorithms.def.
#define SMA_ALGORITHM(collective, name, summary) extern const Algorithm collective##_##name;
#include "collectives/algorithms.def"
#undef SMA_ALGORITHM

namespace {

const Algorithm *const kAll[] = {
#define SMA_ALGORITHM(collective, name, summary) &collective##_##name,
#include "collectives/algorithms.def"
#undef SMA_ALGORITHM
};
// Per row of kAll: the name the row gives (checked against the object's at start-up) and the
// summary that SMA_INFO prints.
const char *const kRowNames[] = {
#define SMA_ALGORITHM(collective, name, summary) #name,
#include "collectives/algorithms.def"
#undef SMA_ALGORITHM
};
const char *const kSummaries[] = {
#define SMA_ALGORITHM(collective, name, summary) summary,
#include "collectives/algorithms.def"
#undef SMA_ALGORITHM
};

const char *summary_of(const Algorithm *a) {
  if (a->plugin != nullptr) return plugins::summary_of(*a);
  for (std::size_t i = 0; i < std::size(kAll); ++i)
    if (kAll[i] == a) return kSummaries[i];
  return "";
}

constexpr int kCollectives = static_cast<int>(Collective::count);
using rules::Rule;

const char *const kNames[] = {
#define SMA_NAME(name, KEY) #name,
    SMA_COLLECTIVES(SMA_NAME)
#undef SMA_NAME
};
const char *const kKeys[] = {
#define SMA_KEY(name, KEY) #KEY,
    SMA_COLLECTIVES(SMA_KEY)
#undef SMA_KEY
};

// The built-in rules (`auto`). On one node the tree and doubling algorithms win up to large
// sizes (bench/coll_bench.c); the bandwidth-oriented ones only pay off on larger teams.
const char *const kAutoRules[] = {
    // barrier; node_leaders only for teams over several nodes with several PEs on some (4 PEs
    // on 2 namespace hosts: 16-25 us against 29-36, and the PEs of a node leave together), and
    // for teams on one node with more PEs than CPUs (8 PEs on 2 CPUs: 8.6 us against 11.9)
    "node_leaders,dissemination",
    // broadcast; direct only where every heap is mapped (one node), cache_line there or in
    // teams of up to 8 PEs. On one node cache_line's entries (up to 4 KiB with 4 PEs, 2 with 8)
    // let the root return at once (4 PEs on 2 CPUs, 256 B: 0.23 us against direct's 1.07; 8
    // PEs, 1 KiB: 0.33 against 1.22), but 2 PEs, each with a CPU, lose more to the second copy
    // above 2 KiB than direct's wait costs them (4 KiB: 0.81 against 0.50).
    "cache_line:pes<=2&bytes<=2k,direct:pes<=2,cache_line,direct,binomial:bytes<=512k,"
    "scatter_allgather:pes>4,binomial",
    // reduce; the same
    "cache_line,direct:pes<=2&bytes>4k,direct:bytes>64k,mailbox,recursive_doubling:bytes<=64k,"
    "rabenseifner:pes>4,recursive_doubling",
    // collect and fcollect; node_leaders only for teams over several nodes, after mailbox for
    // 2 PEs with blocks that fit its boxes (across 2 hosts 9.2 us against 9.35 for 8 B; above
    // 128 B node_leaders' one stashed message each, 9-10 us, against 18 for a doubling with
    // credits, and as fast as mailbox up to its 16 KiB), up to its 1 MiB messages (fcollect,
    // 4 PEs on 2 hosts, 32 KiB blocks: 32 us against ring's 91-101, OSHMEM 75; 256 KiB: 229
    // against 684-959, OSHMEM 358). On one node mailbox up to the box size
    // (4 PEs on 2 CPUs, fcollect of 8 KiB blocks: 2.8 us against direct's 4.0), but with 2 PEs
    // direct above 2 KiB gathered (4 KiB blocks: 0.68 us against 0.79).
    // On teams of up to 4 PEs over several nodes node_leaders only up to 32 KiB blocks (128
    // KiB gathered for collect, whose bytes count everything): above, its stashed messages and
    // the leader's hand-offs cost more than bruck's exchanges (2026-12-01, 4 PEs on 2 hosts,
    // fcollect of 64 KiB blocks 48.6 us against 62.4, 1 MiB 894 against 1427 (ring), OSHMEM
    // 979; 2 PEs alike from 64 KiB). On 6 PEs of 3 hosts (2 CPUs) node_leaders still led up to
    // 256 KiB blocks. Last bruck, not ring: 4 PEs on 2 hosts 1 MiB blocks 894 us against
    // 1486, on one node through UCX (SMA_SHARED_MEMORY=0) 1119 against 1346.
    "direct:pes<=2&bytes>2k,mailbox:pes<=2,node_leaders:pes>4,node_leaders:bytes<=128k,"
    "mailbox:pes<=8,direct,recursive_doubling:bytes<=4k,bruck",
    "direct:pes<=2&bytes>2k,mailbox:pes<=2,node_leaders:pes>4,node_leaders:bytes<=32k,"
    "mailbox:pes<=8,direct,recursive_doubling:bytes<=4k,bruck",
    // alltoall; mailbox up to the box size (4 KiB with 8 PEs, 8 with 4, 16 with 2), then direct
    // on one node: 4 PEs on 2 CPUs, 8 KiB blocks 2.8 us and 16 KiB 4.5 against pairwise's 6.5
    // and 7.0 (OSHMEM 4.3 and 4.9); across 2 hosts, 8 KiB blocks 41 us (2 per host) and 15
    // (one per host) against 80 and 23. With 2 PEs on one node direct leads above 1 KiB.
    // Rechecked with coll_bench --touch (fresh source, result read) on 2026-12-01: on one node
    // mailbox led up to 1 KiB and stayed within 7% of direct up to the box size (4 PEs, 8 KiB:
    // 7.0 us against 6.5; 8 PEs even). Without --touch direct looked 1.7x faster there (3.4
    // against 5.8), only because its reads found the peers' still sources in cache.
    "mailbox:pes<=2&bytes<=1k,direct:pes<=2,mailbox:pes<=8,direct,pairwise",
    "recursive_doubling",  // scan
};
static_assert(sizeof(kAutoRules) / sizeof(kAutoRules[0]) == kCollectives);

// Every algorithm of collective c: the built-in ones, then the plug-ins'.
std::vector<const Algorithm *> of(Collective c) {
  std::vector<const Algorithm *> out;
  for (const Algorithm *a : kAll)
    if (a->collective == c) out.push_back(a);
  for (const Algorithm *a : plugins::algorithms())
    if (a->collective == c) out.push_back(a);
  return out;
}

bool can_serve(const Algorithm &a, const Channel &channel, const Args &args) {
  if (a.plugin != nullptr) return plugins::applies(a, channel, args);
  return a.applies == nullptr || a.applies(channel, args);
}

const Algorithm *first_fit(const std::vector<Rule> &rules, const Channel &channel,
                           const Args &args) {
  return rules::first_fit(rules, channel.size(), args.message_bytes,
                          [&](const Algorithm &a) { return can_serve(a, channel, args); });
}

const std::string &config_value(const Config &config, Collective c) {
  switch (c) {
    case Collective::barrier:
      return config.barrier_algorithm;
    case Collective::broadcast:
      return config.bcast_algorithm;
    case Collective::reduce:
      return config.reduce_algorithm;
    case Collective::collect:
      return config.collect_algorithm;
    case Collective::fcollect:
      return config.fcollect_algorithm;
    case Collective::alltoall:
      return config.alltoall_algorithm;
    case Collective::scan:
      return config.scan_algorithm;
    case Collective::count:
      break;
  }
  return config.barrier_algorithm;
}

}  // namespace

const char *collective_name(Collective c) noexcept { return kNames[static_cast<int>(c)]; }

std::span<const Algorithm *const> algorithms(Collective c) noexcept {
  // kAll is grouped by collective (algorithms.def lists them so).
  std::size_t first = 0, n = 0;
  for (std::size_t i = 0; i < std::size(kAll); ++i)
    if (kAll[i]->collective == c) {
      if (n == 0) first = i;
      ++n;
    }
  return {kAll + first, n};
}

Failure init_selection(const Config &config) {
  for (std::size_t i = 0; i < std::size(kAll); ++i)
    if (std::string_view(kAll[i]->name) != kRowNames[i]) {
      return Failure::because(
          Status::invalid_param,
          fmt::format("algorithms.def names '{}' where the object is named '{}'", kRowNames[i],
                      kAll[i]->name));
    }
  for (int i = 0; i < kCollectives; ++i) {
    const auto c = static_cast<Collective>(i);
    Selection &sel = state().selection[static_cast<std::size_t>(i)];
    if (Failure f = rules::parse(of(c), kAutoRules[i], sel.fallback))
      return std::move(f).within(fmt::format("built-in {} rules", kNames[i]));
    if (!rules::ends_with_universal_rule(sel.fallback))
      return Failure::because(
          Status::invalid_param,
          fmt::format("built-in {} rules: the last rule must serve every call", kNames[i]));
    sel.text = rules::trim(config_value(config, c));
    if (sel.text.empty() || sel.text == "auto") {
      sel.rules = sel.fallback;
      continue;
    }
    if (Failure f = rules::parse(of(c), sel.text, sel.rules)) {
      return Failure::because(
          f.code(), rules::error_message(config.source_of(std::string(kKeys[i]) + "_ALGORITHM"),
                                         sel.text, f.why(), kNames[i], of(c)));
    }
  }
  return {};
}

const Algorithm &select(Collective c, const Channel &channel, const Args &args) noexcept {
  const Selection &sel = state().selection[static_cast<std::size_t>(c)];
  if (const Algorithm *a = first_fit(sel.rules, channel, args)) return *a;
  // The built-in rules end with one that serves every call (checked by init_selection).
  return *first_fit(sel.fallback, channel, args);
}

bool uses_builtin_rules(Collective c) noexcept {
  const std::string &text = state().selection[static_cast<std::size_t>(c)].text;
  return text.empty() || text == "auto";
}

std::string describe_selection() {
  std::string out =
      "Shoal collective algorithms (SMA_<COLLECTIVE>_ALGORITHM: rules in force; auto = "
      "built-in):\n";
  for (int i = 0; i < kCollectives; ++i) {
    const auto c = static_cast<Collective>(i);
    const Selection &sel = state().selection[static_cast<std::size_t>(i)];
    out += fmt::format("  {:<10} SMA_{}_ALGORITHM={}  (auto: {})\n", kNames[i], kKeys[i],
                       sel.text.empty() ? "auto" : sel.text, kAutoRules[i]);
    for (const Algorithm *a : of(c)) {
      out += fmt::format("      {:<20} {}", a->name, summary_of(a));
      if (a->plugin != nullptr) out += fmt::format(" (plug-in {})", plugins::file_of(*a));
      out += '\n';
    }
  }
  return out;
}

}  // namespace shoal::coll
