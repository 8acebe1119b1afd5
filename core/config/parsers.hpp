// The value parsers of config_table.def: pure functions of a variable's text, apart from the
// environment and the logger (config.cpp reads the variables), so that other modules (the
// collective rules) and the unit tests use them alone. Each returns false on malformed input
// and then leaves `out` unspecified.
#pragma once

#include <cstddef>
#include <string>

#include "log/log.hpp"
#include "transport/atomic_resources.hpp"

namespace shoal::cfg {

// 1, y, yes, true, on / 0, n, no, false, off, in any case.
bool parse_bool(const std::string &text, bool &out);
// The specification's "any value" variables: set means on, except the usual spellings of off.
bool parse_presence(const std::string &text, bool &out);
// Free text, checked later by its user (the collective algorithm rules).
bool parse_text(const std::string &text, std::string &out);
// A whole number from 1 to 1024.
bool parse_count(const std::string &text, std::size_t &out);
// A non-negative number, possibly fractional, with an optional k/m/g/t suffix (powers of 1024);
// the size is rounded up. Characters after the suffix are ignored, as the specification says.
bool parse_size(const std::string &text, std::size_t &out);
// Scratch of the collectives: a size as above, at least 1k.
bool parse_scratch_size(const std::string &text, std::size_t &out);
// error, warn, info, debug or trace, in any case.
bool parse_log_level(const std::string &text, log::Level &out);
// auto, cpu or ucx, in any case.
bool parse_amo_route(const std::string &text, ucx::AmoRoute &out);
// SMA_PROFILE: off, 1 (a table) and/or json:PATH, comma-separated (observe/profile_request.hpp);
// the text is kept as it is.
bool parse_profile(const std::string &text, std::string &out);
// A whole number of seconds from 0 (off) to 1000000.
bool parse_seconds(const std::string &text, std::size_t &out);

}  // namespace shoal::cfg
