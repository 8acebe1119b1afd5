#include "collectives/rule_parser.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

#include "config/parsers.hpp"

namespace shoal::coll::rules {
namespace {

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

// One condition: bytes<=SIZE, bytes>SIZE, pes<=N, pes>N. Conditions joined by '&' must all
// hold, so each one narrows the rule's range (pes<=4&pes<=8 is pes<=4). A bound no call can
// meet on the open side (bytes> the largest size, pes> the largest team) or a team size beyond
// int is a bad condition, not a wrapped number.
bool parse_condition(const std::string &cond, Rule &rule) {
  const bool is_bytes = cond.starts_with("bytes");
  const bool is_pes = cond.starts_with("pes");
  if (!is_bytes && !is_pes) return false;
  std::string rest = cond.substr(is_bytes ? 5 : 3);
  const bool at_most = rest.starts_with("<=");
  if (!at_most && !rest.starts_with(">")) return false;
  rest = trim(rest.substr(at_most ? 2 : 1));
  if (is_bytes) {
    std::size_t value = 0;
    if (!cfg::parse_size(rest, value)) return false;
    if (at_most) {
      rule.max_bytes = std::min(rule.max_bytes, value);
    } else {
      if (value == std::numeric_limits<std::size_t>::max()) return false;
      rule.min_bytes = std::max(rule.min_bytes, value + 1);
    }
  } else {
    constexpr int kMaxPes = std::numeric_limits<int>::max();
    unsigned long long value = 0;
    const char *end = rest.data() + rest.size();
    const auto [stop, error] = std::from_chars(rest.data(), end, value);
    if (rest.empty() || error != std::errc() || stop != end) return false;
    if (value > static_cast<unsigned long long>(at_most ? kMaxPes : kMaxPes - 1)) return false;
    const int pes = static_cast<int>(value);
    if (at_most)
      rule.max_pes = std::min(rule.max_pes, pes);
    else
      rule.min_pes = std::max(rule.min_pes, pes + 1);
  }
  return true;
}

}  // namespace

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

Failure parse(std::span<const Algorithm *const> candidates, const std::string &text,
              std::vector<Rule> &rules) {
  rules.clear();
  for (const std::string &part : split(text, ',')) {
    const std::size_t colon = part.find(':');
    const std::string name = trim(part.substr(0, colon));
    Rule rule;
    for (const Algorithm *a : candidates)
      if (name == a->name) rule.algorithm = a;
    if (rule.algorithm == nullptr)
      return Failure::because(Status::invalid_param,
                              name.empty() ? "an empty rule" : "unknown algorithm '" + name + "'");
    if (colon != std::string::npos)
      for (const std::string &cond : split(part.substr(colon + 1), '&'))
        if (!parse_condition(cond, rule))
          return Failure::because(
              Status::invalid_param,
              "bad condition '" + cond + "' (expected bytes<=SIZE, bytes>SIZE, pes<=N or pes>N)");
    rules.push_back(rule);
  }
  return {};
}

std::string error_message(const std::string &variable, const std::string &value,
                          const std::string &problem, const char *collective,
                          std::span<const Algorithm *const> candidates) {
  std::string names;
  for (const Algorithm *a : candidates) names += (names.empty() ? "" : ", ") + std::string(a->name);
  return variable + "='" + value + "': " + problem + "; the " + collective +
         " algorithms are: " + names + " (or auto)";
}

bool ends_with_universal_rule(const std::vector<Rule> &rules) {
  if (rules.empty()) return false;
  const Rule &last = rules.back();
  return last.algorithm->applies == nullptr && last.algorithm->plugin == nullptr &&
         last.matches(1, 0) &&
         last.matches(std::numeric_limits<int>::max(), std::numeric_limits<std::size_t>::max());
}

}  // namespace shoal::coll::rules
