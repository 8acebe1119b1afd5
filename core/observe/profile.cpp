#include "observe/profile.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <set>
#include <sstream>

namespace shoal::observe {

const char *family_name(Family f) noexcept {
  switch (f) {
#define SMA_FAMILY_NAME(name) \
  case Family::name:          \
    return #name;
    SMA_OBSERVE_FAMILIES(SMA_FAMILY_NAME)
#undef SMA_FAMILY_NAME
    case Family::count:
      break;
  }
  return "?";
}

namespace {

bool profiled(int f) noexcept { return f != static_cast<int>(Family::lifecycle); }

int family_index(const std::string &name) noexcept {
  for (int f = 0; f < kFamilies; ++f)
    if (name == family_name(static_cast<Family>(f))) return f;
  return -1;
}

// Families some PE called, in table order.
std::vector<int> used_families(const std::vector<PeProfile> &pes) {
  std::vector<int> used;
  for (int f = 0; f < kFamilies; ++f) {
    if (!profiled(f)) continue;
    for (const PeProfile &p : pes)
      if (p.families[f].calls != 0) {
        used.push_back(f);
        break;
      }
  }
  return used;
}

template <typename Get>
Spread spread_of(const std::vector<PeProfile> &pes, Get get) {
  std::vector<std::uint64_t> values;
  values.reserve(pes.size());
  for (const PeProfile &p : pes) values.push_back(get(p));
  return spread(std::move(values));
}

// Every (family, algorithm label) some PE ran, sorted.
std::map<std::string, std::set<std::string>> used_algorithms(const std::vector<PeProfile> &pes) {
  std::map<std::string, std::set<std::string>> used;
  for (const PeProfile &p : pes)
    for (const auto &[family, runs] : p.algorithms)
      for (const auto &[label, count] : runs)
        if (count != 0) used[family].insert(label);
  return used;
}

std::uint64_t runs_of(const PeProfile &p, const std::string &family, const std::string &label) {
  const auto f = p.algorithms.find(family);
  if (f == p.algorithms.end()) return 0;
  const auto a = f->second.find(label);
  return a == f->second.end() ? 0 : a->second;
}

std::string three(const Spread &s) {
  return std::to_string(s.min) + " / " + std::to_string(s.median) + " / " + std::to_string(s.max);
}

std::string three_us(const Spread &s) {
  char text[96];
  std::snprintf(text, sizeof text, "%.1f / %.1f / %.1f", static_cast<double>(s.min) / 1e3,
                static_cast<double>(s.median) / 1e3, static_cast<double>(s.max) / 1e3);
  return text;
}

std::string json_string(const std::string &s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\u%04x", static_cast<unsigned>(c));
      out += esc;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string json_spread(const Spread &s) {
  std::string out = "{\"min\": " + std::to_string(s.min) +
                    ", \"median\": " + std::to_string(s.median) +
                    ", \"max\": " + std::to_string(s.max) + ", \"per_pe\": [";
  for (std::size_t i = 0; i < s.per_pe.size(); ++i)
    out += (i ? ", " : "") + std::to_string(s.per_pe[i]);
  return out + "]}";
}

}  // namespace

std::string serialize(const PeProfile &p) {
  std::string out = "V 1\n";  // never empty: the bootstrap's store takes no empty values
  for (int f = 0; f < kFamilies; ++f) {
    const FamilyCounts &c = p.families[f];
    if (c.calls == 0 && c.bytes == 0 && c.ns == 0) continue;
    out += "F " + std::string(family_name(static_cast<Family>(f))) + " " + std::to_string(c.calls) +
           " " + std::to_string(c.bytes) + " " + std::to_string(c.ns) + "\n";
  }
  for (const auto &[family, runs] : p.algorithms)
    for (const auto &[label, count] : runs)
      out += "A " + family + " " + label + " " + std::to_string(count) + "\n";
  return out;
}

bool parse_profile(const std::string &text, PeProfile &out) {
  out = PeProfile{};
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream words(line);
    std::string tag, family;
    words >> tag >> family;
    if (tag == "V") {
      continue;
    } else if (tag == "F") {
      const int f = family_index(family);
      FamilyCounts c;
      if (f < 0 || !(words >> c.calls >> c.bytes >> c.ns)) return false;
      out.families[f] = c;
    } else if (tag == "A") {
      std::string label;
      std::uint64_t count = 0;
      if (!(words >> label >> count)) return false;
      out.algorithms[family][label] = count;
    } else {
      return false;
    }
  }
  return true;
}

Spread spread(std::vector<std::uint64_t> values) {
  Spread s;
  s.per_pe = values;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.min = values.front();
  s.max = values.back();
  s.median = values[(values.size() - 1) / 2];
  return s;
}

std::string format_table(const std::vector<PeProfile> &pes) {
  std::string out = "shoal profile over " + std::to_string(pes.size()) +
                    (pes.size() == 1 ? " PE" : " PEs") +
                    ": min / median / max over the PEs of each PE's total\n";
  char line[320];
  std::snprintf(line, sizeof line, "%-10s %-26s %-32s %s\n", "family", "calls", "bytes",
                "time inside the library (us)");
  out += line;
  for (const int f : used_families(pes)) {
    const Spread calls = spread_of(pes, [f](const PeProfile &p) { return p.families[f].calls; });
    const Spread bytes = spread_of(pes, [f](const PeProfile &p) { return p.families[f].bytes; });
    const Spread ns = spread_of(pes, [f](const PeProfile &p) { return p.families[f].ns; });
    std::snprintf(line, sizeof line, "%-10s %-26s %-32s %s\n", family_name(static_cast<Family>(f)),
                  three(calls).c_str(), three(bytes).c_str(), three_us(ns).c_str());
    out += line;
  }
  const auto algorithms = used_algorithms(pes);
  if (!algorithms.empty()) {
    std::snprintf(line, sizeof line, "%-10s %-26s %s\n", "collective", "algorithm",
                  "runs per PE (min / median / max)");
    out += line;
    for (const auto &[family, labels] : algorithms)
      for (const std::string &label : labels) {
        const Spread runs =
            spread_of(pes, [&](const PeProfile &p) { return runs_of(p, family, label); });
        std::snprintf(line, sizeof line, "%-10s %-26s %s\n", family.c_str(), label.c_str(),
                      three(runs).c_str());
        out += line;
      }
  }
  return out;
}

std::string format_json(const std::vector<PeProfile> &pes) {
  std::string out = "{\n  \"pes\": " + std::to_string(pes.size()) + ",\n  \"families\": {";
  bool first = true;
  for (const int f : used_families(pes)) {
    out += first ? "\n" : ",\n";
    first = false;
    out += "    " + json_string(family_name(static_cast<Family>(f))) + ": {\n";
    out += "      \"calls\": " +
           json_spread(spread_of(pes, [f](const PeProfile &p) { return p.families[f].calls; })) +
           ",\n";
    out += "      \"bytes\": " +
           json_spread(spread_of(pes, [f](const PeProfile &p) { return p.families[f].bytes; })) +
           ",\n";
    out += "      \"ns\": " +
           json_spread(spread_of(pes, [f](const PeProfile &p) { return p.families[f].ns; })) +
           "\n    }";
  }
  out += first ? "},\n" : "\n  },\n";
  out += "  \"algorithms\": {";
  first = true;
  for (const auto &[family, labels] : used_algorithms(pes)) {
    out += first ? "\n" : ",\n";
    first = false;
    out += "    " + json_string(family) + ": {";
    bool first_label = true;
    for (const std::string &label : labels) {
      out += first_label ? "\n" : ",\n";
      first_label = false;
      out += "      " + json_string(label) + ": " +
             json_spread(
                 spread_of(pes, [&](const PeProfile &p) { return runs_of(p, family, label); }));
    }
    out += "\n    }";
  }
  out += first ? "}\n}\n" : "\n  }\n}\n";
  return out;
}

}  // namespace shoal::observe
