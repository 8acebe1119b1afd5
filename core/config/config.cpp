// The only file that reads the environment (getenv). Every variable comes from config_table.def;
// its values go through the parsers of parsers.cpp.
#include "config/config.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

extern char **environ;

namespace shoal {

namespace {

struct Descriptor {
  const char *key;
  const char *default_text;
  bool spec;  // also spelled SHMEM_KEY
  const char *doc;
};

constexpr Descriptor kDescriptors[] = {
#define SMA_CONFIG(_field, _key, _type, _parser, _def, _spelling, _doc) \
  {#_key, _def, std::string_view(#_spelling) == "spec", _doc},
#include "config/config_table.def"
#undef SMA_CONFIG
};

const char *env(const std::string &name) { return std::getenv(name.c_str()); }

// Finds the text for one row: SHMEM_KEY wins over SMA_KEY for spec variables.
// Returns the variable name it came from, or "" when unset.
std::string lookup(const Descriptor &d, std::string &value) {
  const std::string sma = std::string("SMA_") + d.key;
  const char *sma_value = env(sma);
  if (d.spec) {
    const std::string shmem = std::string("SHMEM_") + d.key;
    if (const char *v = env(shmem)) {
      if (sma_value && std::strcmp(sma_value, v) != 0)
        SMA_LOG_WARN("config", "both {} and {} are set; using {}={}", shmem, sma, shmem, v);
      value = v;
      return shmem;
    }
  }
  if (sma_value) {
    value = sma_value;
    return sma;
  }
  return "";
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

void warn_unknown_variables() {
  for (char **e = environ; e && *e; ++e) {
    const std::string_view entry(*e);
    const std::string_view name = entry.substr(0, entry.find('='));
    std::string_view key;
    if (name.starts_with("SMA_"))
      key = name.substr(4);
    else if (name.starts_with("SHMEM_"))
      key = name.substr(6);
    else
      continue;
    const Descriptor *closest = nullptr;
    std::size_t best = ~std::size_t{0};
    for (const auto &d : kDescriptors) {
      if (key == d.key) {
        // SHMEM_ is the specification's prefix: an implementation knob spelled with it is not
        // read (another implementation may give that name another meaning), but never silently.
        if (!d.spec && name.starts_with("SHMEM_"))
          SMA_LOG_WARN("config", "{} is not read: this implementation's variable is SMA_{}", name,
                       d.key);
        closest = nullptr;
        best = 0;
        break;
      }
      const std::size_t dist = edit_distance(key, d.key);
      if (dist < best) best = dist, closest = &d;
    }
    if (best == 0) continue;
    if (closest && best <= 3)
      SMA_LOG_WARN("config", "unknown variable {} (did you mean SMA_{}?)", name, closest->key);
    else
      SMA_LOG_WARN("config", "unknown variable {}", name);
  }
}

template <typename T>
std::string show(const T &v) {
  if constexpr (std::is_same_v<T, bool>)
    return v ? "1" : "0";
  else if constexpr (std::is_same_v<T, std::string>)
    return v;
  else if constexpr (std::is_same_v<T, log::Level>) {
    static const char *names[] = {"trace", "debug", "info", "warn", "error"};
    return names[static_cast<int>(v)];
  } else if constexpr (std::is_same_v<T, ucx::AmoRoute>) {
    static const char *names[] = {"auto", "cpu", "ucx"};
    return names[static_cast<int>(v)];
  } else
    return std::to_string(v);
}

// The failures of Config::load, built out of line: one copy instead of one per row, and GCC 12
// warns falsely (-Warray-bounds) about string concatenations inlined into the rows.
[[gnu::noinline]] Failure bad_default(const Descriptor &d) {
  return Failure::because(Status::invalid_param, std::string("bad built-in default for ") + d.key);
}
[[gnu::noinline]] Failure bad_value(const Descriptor &d, const std::string &value,
                                    const std::string &from) {
  return Failure::because(Status::invalid_param,
                          "invalid value '" + value + "' for " + from + ": expected " + d.doc);
}

}  // namespace

Failure Config::load() {
  using namespace cfg;
  std::string value;
  std::size_t row = 0;
#define SMA_CONFIG(_field, _key, _type, _parser, _def, _spelling, _doc)             \
  {                                                                                 \
    const Descriptor &d = kDescriptors[row++];                                      \
    if (*d.default_text && !_parser(d.default_text, _field)) return bad_default(d); \
    const std::string from = lookup(d, value);                                      \
    if (!from.empty()) sources[d.key] = from;                                       \
    if (!from.empty() && !_parser(value, _field)) return bad_value(d, value, from); \
  }
#include "config/config_table.def"
#undef SMA_CONFIG
  if (debug && log_level > log::Level::debug) log_level = log::Level::debug;
  if (warn_unknown_env) warn_unknown_variables();
  return {};
}

std::string Config::source_of(const std::string &key) const {
  if (auto it = sources.find(key); it != sources.end()) return it->second;
  return "SMA_" + key;
}

void Config::print(std::FILE *out) const {
  std::fprintf(out, "Shoal environment variables (name, default, value in force, meaning):\n");
  std::size_t row = 0;
#define SMA_CONFIG(_field, _key, _type, _parser, _def, _spelling, _doc)                         \
  {                                                                                             \
    const Descriptor &d = kDescriptors[row++];                                                  \
    const std::string name = d.spec ? std::string("SHMEM_") + d.key + " (or SMA_" + d.key + ")" \
                                    : std::string("SMA_") + d.key;                              \
    std::fprintf(out, "  %-40s default %-8s value %-10s %s\n", name.c_str(),                    \
                 *d.default_text ? d.default_text : "unset", show(_field).c_str(), d.doc);      \
  }
#include "config/config_table.def"
#undef SMA_CONFIG
}

}  // namespace shoal
