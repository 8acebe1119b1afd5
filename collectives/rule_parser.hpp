// The rule lists of SMA_<COLLECTIVE>_ALGORITHM (registry.hpp gives the syntax): parsed against
// a collective's algorithms and matched against a call, with nothing of the runtime, so that
// the registry and its unit test run the same code.
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "status.hpp"

namespace shoal::coll::rules {

// One rule: an algorithm and the ranges of message bytes and team sizes it is meant for.
struct Rule {
  const Algorithm *algorithm = nullptr;
  std::size_t min_bytes = 0, max_bytes = std::numeric_limits<std::size_t>::max();
  int min_pes = 0, max_pes = std::numeric_limits<int>::max();
  bool matches(int n_pes, std::size_t bytes) const noexcept {
    return bytes >= min_bytes && bytes <= max_bytes && n_pes >= min_pes && n_pes <= max_pes;
  }
};

// `s` without leading and trailing white space.
std::string trim(std::string s);

// Parses a rule list whose names are those of `candidates` (one collective's algorithms). On
// malformed text the failure says what is wrong ("unknown algorithm 'x'", "an empty rule",
// "bad condition 'c' (expected ...)"); `rules` is then incomplete.
Failure parse(std::span<const Algorithm *const> candidates, const std::string &text,
              std::vector<Rule> &rules);

// The message for a variable whose value parse() refused: the variable, the value, the problem
// and every algorithm of the collective.
std::string error_message(const std::string &variable, const std::string &value,
                          const std::string &problem, const char *collective,
                          std::span<const Algorithm *const> candidates);

// The first rule that matches a call of `bytes` on `n_pes` PEs and whose algorithm `serves`
// accepts (applies() on the call's channel, in the registry), or null.
template <typename Serves>
const Algorithm *first_fit(const std::vector<Rule> &rules, int n_pes, std::size_t bytes,
                           Serves &&serves) {
  for (const Rule &r : rules)
    if (r.matches(n_pes, bytes) && serves(*r.algorithm)) return r.algorithm;
  return nullptr;
}

// Whether the last rule takes every call: no condition that could fail and a built-in
// algorithm without applies(). The registry requires it of the built-in lists, so that select()
// always finds an algorithm.
bool ends_with_universal_rule(const std::vector<Rule> &rules);

}  // namespace shoal::coll::rules
