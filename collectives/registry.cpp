#include "collectives/registry.hpp"

#include <spdlog/fmt/fmt.h>

#include <array>
#include <cctype>
#include <limits>
#include <string_view>
#include <vector>

#include "collectives/channel.hpp"
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
  for (std::size_t i = 0; i < std::size(kAll); ++i)
    if (kAll[i] == a) return kSummaries[i];
  return "";
}

constexpr int kCollectives = static_cast<int>(Collective::count);

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
    "dissemination",  // barrier
    // broadcast; direct only where every heap is mapped (one node), cache_line there or in
    // teams of up to 8 PEs
    "cache_line,direct,binomial:bytes<=512k,scatter_allgather:pes>4,binomial",
    // reduce; the same
    "cache_line,direct:pes<=2&bytes>4k,direct:bytes>64k,mailbox,recursive_doubling:bytes<=64k,"
    "rabenseifner:pes>4,recursive_doubling",
    "mailbox:pes<=8,direct,recursive_doubling:bytes<=4k,ring",  // collect
    "mailbox:pes<=8,direct,recursive_doubling:bytes<=4k,ring",  // fcollect
    "mailbox:pes<=8,pairwise",                                  // alltoall
    "recursive_doubling",                                       // scan
};
static_assert(sizeof(kAutoRules) / sizeof(kAutoRules[0]) == kCollectives);

struct Rule {
  const Algorithm *algorithm = nullptr;
  std::size_t min_bytes = 0, max_bytes = std::numeric_limits<std::size_t>::max();
  int min_pes = 0, max_pes = std::numeric_limits<int>::max();
  bool matches(int n_pes, std::size_t bytes) const noexcept {
    return bytes >= min_bytes && bytes <= max_bytes && n_pes >= min_pes && n_pes <= max_pes;
  }
};

struct Selection {
  std::string text;            // as the user wrote it ("auto" by default)
  std::vector<Rule> rules;     // the user's rules ("auto": the built-in ones)
  std::vector<Rule> fallback;  // the built-in rules
};
std::array<Selection, kCollectives> g_selection;

std::vector<const Algorithm *> of(Collective c) {
  std::vector<const Algorithm *> out;
  for (const Algorithm *a : kAll)
    if (a->collective == c) out.push_back(a);
  return out;
}

std::string names_of(Collective c) {
  std::string out;
  for (const Algorithm *a : of(c)) out += (out.empty() ? "" : ", ") + std::string(a->name);
  return out;
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = s.find(sep, start);
    parts.push_back(trim(s.substr(start, at - start)));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

// One condition: bytes<=SIZE, bytes>SIZE, pes<=N, pes>N.
bool parse_condition(const std::string &cond, Rule &rule) {
  const bool is_bytes = cond.starts_with("bytes");
  const bool is_pes = cond.starts_with("pes");
  if (!is_bytes && !is_pes) return false;
  std::string rest = cond.substr(is_bytes ? 5 : 3);
  const bool at_most = rest.starts_with("<=");
  if (!at_most && !rest.starts_with(">")) return false;
  rest = trim(rest.substr(at_most ? 2 : 1));
  std::size_t value = 0;
  if (is_bytes) {
    if (!cfg::parse_size(rest, value)) return false;
    if (at_most)
      rule.max_bytes = value;
    else
      rule.min_bytes = value + 1;
  } else {
    if (rest.empty() || rest.find_first_not_of("0123456789") != std::string::npos) return false;
    value = std::stoul(rest);
    if (at_most)
      rule.max_pes = static_cast<int>(value);
    else
      rule.min_pes = static_cast<int>(value) + 1;
  }
  return true;
}

bool parse_rules(Collective c, const std::string &text, std::vector<Rule> &rules,
                 std::string &problem) {
  rules.clear();
  for (const std::string &part : split(text, ',')) {
    const std::size_t colon = part.find(':');
    const std::string name = trim(part.substr(0, colon));
    Rule rule;
    for (const Algorithm *a : of(c))
      if (name == a->name) rule.algorithm = a;
    if (rule.algorithm == nullptr) {
      problem = name.empty() ? "an empty rule" : "unknown algorithm '" + name + "'";
      return false;
    }
    if (colon != std::string::npos)
      for (const std::string &cond : split(part.substr(colon + 1), '&'))
        if (!parse_condition(cond, rule)) {
          problem =
              "bad condition '" + cond + "' (expected bytes<=SIZE, bytes>SIZE, pes<=N or pes>N)";
          return false;
        }
    rules.push_back(rule);
  }
  return true;
}

bool can_serve(const Algorithm &a, const Channel &channel, const Args &args) {
  return a.applies == nullptr || a.applies(channel, args);
}

const Algorithm *first_fit(const std::vector<Rule> &rules, const Channel &channel,
                           const Args &args) {
  for (const Rule &r : rules)
    if (r.matches(channel.size(), args.message_bytes) && can_serve(*r.algorithm, channel, args))
      return r.algorithm;
  return nullptr;
}

// The built-in rules of every collective must end with an unconditional rule whose algorithm
// serves every call, so that select() always finds one that applies.
bool ends_with_universal_rule(const std::vector<Rule> &rules) {
  if (rules.empty()) return false;
  const Rule &last = rules.back();
  return last.algorithm->applies == nullptr && last.matches(1, 0) &&
         last.matches(std::numeric_limits<int>::max(), std::numeric_limits<std::size_t>::max());
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

Status init_selection(const Config &config, std::string &error) {
  for (std::size_t i = 0; i < std::size(kAll); ++i)
    if (std::string_view(kAll[i]->name) != kRowNames[i]) {
      error = fmt::format("algorithms.def names '{}' where the object is named '{}'", kRowNames[i],
                          kAll[i]->name);
      return Status::invalid_param;
    }
  for (int i = 0; i < kCollectives; ++i) {
    const auto c = static_cast<Collective>(i);
    Selection &sel = g_selection[static_cast<std::size_t>(i)];
    std::string problem;
    if (!parse_rules(c, kAutoRules[i], sel.fallback, problem) ||
        !ends_with_universal_rule(sel.fallback)) {
      error = fmt::format("built-in {} rules: {}", kNames[i],
                          problem.empty() ? "the last rule must serve every call" : problem);
      return Status::invalid_param;
    }
    sel.text = trim(config_value(config, c));
    if (sel.text.empty() || sel.text == "auto") {
      sel.rules = sel.fallback;
      continue;
    }
    if (!parse_rules(c, sel.text, sel.rules, problem)) {
      error = fmt::format("{}='{}': {}; the {} algorithms are: {} (or auto)",
                          config.source_of(std::string(kKeys[i]) + "_ALGORITHM"), sel.text, problem,
                          kNames[i], names_of(c));
      return Status::invalid_param;
    }
  }
  return Status::ok;
}

const Algorithm &select(Collective c, const Channel &channel, const Args &args) noexcept {
  const Selection &sel = g_selection[static_cast<std::size_t>(c)];
  if (const Algorithm *a = first_fit(sel.rules, channel, args)) return *a;
  // The built-in rules end with one that serves every call (checked by init_selection).
  return *first_fit(sel.fallback, channel, args);
}

std::string describe_selection() {
  std::string out =
      "Shoal collective algorithms (SMA_<COLLECTIVE>_ALGORITHM: rules in force; auto = "
      "built-in):\n";
  for (int i = 0; i < kCollectives; ++i) {
    const auto c = static_cast<Collective>(i);
    const Selection &sel = g_selection[static_cast<std::size_t>(i)];
    out += fmt::format("  {:<10} SMA_{}_ALGORITHM={}  (auto: {})\n", kNames[i], kKeys[i],
                       sel.text.empty() ? "auto" : sel.text, kAutoRules[i]);
    for (const Algorithm *a : of(c))
      out += fmt::format("      {:<20} {}\n", a->name, summary_of(a));
  }
  return out;
}

}  // namespace shoal::coll
