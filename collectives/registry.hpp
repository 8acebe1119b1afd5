// The collective algorithm registry: every algorithm of algorithms.def, and the choice of one
// per call from SMA_<COLLECTIVE>_ALGORITHM.
//
// A variable's value is a rule list, tried left to right; the first rule whose conditions hold
// and whose algorithm applies to the call wins:
//     rules := rule { ',' rule }
//     rule  := name [ ':' cond { '&' cond } ]
//     cond  := 'bytes<=' SIZE | 'bytes>' SIZE | 'pes<=' N | 'pes>' N
// SIZE takes the suffixes k, m, g. `bytes` is the message size of the call (per-PE element
// count times element size; collect: the total gathered). `auto` stands for the built-in rule
// list of the collective, which SMA_INFO prints. When no rule fits, the built-in list decides.
// Example: SMA_BCAST_ALGORITHM='linear:pes<=4,binomial:bytes<=64k,scatter_allgather'.
#pragma once

#include <span>
#include <string>

#include "collectives/algorithm.hpp"
#include "status.hpp"

namespace shoal {
struct Config;
}

namespace shoal::coll {

// Every built-in algorithm of collective c, in algorithms.def order (plug-ins add theirs to the
// rules, SMA_INFO and the error messages, plugins.hpp).
std::span<const Algorithm *const> algorithms(Collective c) noexcept;

// Parses the SMA_*_ALGORITHM values; an unknown name or bad rule is an error whose message
// names the variable and lists the valid algorithms.
Failure init_selection(const Config &config);

// The algorithm for one call on the channel's team (the same on every PE of the team given the
// same arguments): the first rule that matches and whose algorithm applies, else the built-in
// rules'. Never an algorithm whose applies() refuses the call.
const Algorithm &select(Collective c, const Channel &channel, const Args &args) noexcept;

// Whether collective c runs the built-in rules (its SMA_*_ALGORITHM is unset or "auto"): then
// the dispatcher may serve a call without them (collect's records, dispatch.cpp).
bool uses_builtin_rules(Collective c) noexcept;

// Lines for SMA_INFO: per collective, its variable, the rules in force and every algorithm.
std::string describe_selection();

}  // namespace shoal::coll
