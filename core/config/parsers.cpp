#include "config/parsers.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "observe/profile_request.hpp"

namespace shoal::cfg {
namespace {

std::string lower(std::string s) {
  for (auto &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

bool parse_bool(const std::string &text, bool &out) {
  const std::string t = lower(text);
  if (t == "1" || t == "y" || t == "yes" || t == "true" || t == "on") return out = true, true;
  if (t == "0" || t == "n" || t == "no" || t == "false" || t == "off") return out = false, true;
  return false;
}

bool parse_presence(const std::string &text, bool &out) {
  bool b = true;
  out = parse_bool(text, b) ? b : true;
  return true;
}

bool parse_text(const std::string &text, std::string &out) {
  out = text;
  return true;
}

bool parse_count(const std::string &text, std::size_t &out) {
  if (text.empty() ||
      !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }))
    return false;
  out = std::strtoull(text.c_str(), nullptr, 10);
  return out > 0 && out <= 1024;
}

bool parse_size(const std::string &text, std::size_t &out) {
  const char *s = text.c_str();
  while (std::isspace(static_cast<unsigned char>(*s))) ++s;
  if (*s == '-' || *s == '\0') return false;
  char *end = nullptr;
  errno = 0;
  const double number = std::strtod(s, &end);
  if (end == s || errno != 0 || !std::isfinite(number) || number < 0) return false;
  double factor = 1;
  switch (std::tolower(static_cast<unsigned char>(*end))) {
    case 'k':
      factor = 0x1p10;
      break;
    case 'm':
      factor = 0x1p20;
      break;
    case 'g':
      factor = 0x1p30;
      break;
    case 't':
      factor = 0x1p40;
      break;
    case '\0':
      break;
    default:
      if (!std::isspace(static_cast<unsigned char>(*end))) return false;
  }
  const double bytes = std::ceil(number * factor);
  if (bytes >= 0x1p63) return false;
  out = static_cast<std::size_t>(bytes);
  return true;
}

// A smaller scratch is a mistake, not a request to be rounded up silently.
bool parse_scratch_size(const std::string &text, std::size_t &out) {
  return parse_size(text, out) && out >= 1024;
}

bool parse_log_level(const std::string &text, log::Level &out) {
  static const std::pair<const char *, log::Level> names[] = {{"trace", log::Level::trace},
                                                              {"debug", log::Level::debug},
                                                              {"info", log::Level::info},
                                                              {"warn", log::Level::warn},
                                                              {"error", log::Level::error}};
  for (const auto &[name, level] : names)
    if (lower(text) == name) return out = level, true;
  return false;
}

bool parse_amo_route(const std::string &text, ucx::AmoRoute &out) {
  static const std::pair<const char *, ucx::AmoRoute> names[] = {
      {"auto", ucx::AmoRoute::automatic}, {"cpu", ucx::AmoRoute::cpu}, {"ucx", ucx::AmoRoute::ucx}};
  for (const auto &[name, route] : names)
    if (lower(text) == name) return out = route, true;
  return false;
}

bool parse_profile(const std::string &text, std::string &out) {
  observe::ProfileRequest request;
  if (!observe::parse_request(text, request)) return false;
  out = text;
  return true;
}

bool parse_seconds(const std::string &text, std::size_t &out) {
  if (text.empty() || text.size() > 7 ||
      !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }))
    return false;
  out = std::strtoull(text.c_str(), nullptr, 10);
  return out <= 1'000'000;
}

}  // namespace shoal::cfg
