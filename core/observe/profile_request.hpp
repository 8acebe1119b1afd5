// The value of SMA_PROFILE, parsed (header-only: the configuration's parser checks it with the
// same code, config/parsers.cpp).
#pragma once

#include <cctype>
#include <string>

namespace shoal::observe {

// What SMA_PROFILE asks for: a table on stderr, and/or JSON written to json_path.
struct ProfileRequest {
  bool table = false;
  std::string json_path;
  bool any() const noexcept { return table || !json_path.empty(); }
};

// "", "0", "off", "no", "false": nothing; "1", "on", "yes", "true", "table": the table;
// "json:PATH": JSON to PATH (only PE 0 writes it); several, comma-separated
// ("1,json:/tmp/p.json"). False when malformed (an unknown word, an empty path).
inline bool parse_request(const std::string &text, ProfileRequest &out) {
  out = ProfileRequest{};
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(start, comma - start);
    start = comma + 1;
    if (item.compare(0, 5, "json:") == 0) {
      if (item.size() == 5) return false;
      out.json_path = item.substr(5);
      continue;
    }
    for (auto &c : item) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (item == "1" || item == "on" || item == "yes" || item == "true" || item == "table" ||
        item == "y")
      out.table = true;
    else if (!(item.empty() || item == "0" || item == "off" || item == "no" || item == "false" ||
               item == "n"))
      return false;
  }
  return true;
}

}  // namespace shoal::observe
