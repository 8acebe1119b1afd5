// The profile's data and its reports, as pure functions (the unit tests run them without PEs):
// one PE's counters, their exchange as text, and the table and JSON that PE 0 makes of every
// PE's counters (docs/profile.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "observe/observe.hpp"
#include "observe/profile_request.hpp"

namespace shoal::observe {

struct FamilyCounts {
  std::uint64_t calls = 0, bytes = 0, ns = 0;
};

// One PE's profile.
struct PeProfile {
  FamilyCounts families[kFamilies];
  // family name -> algorithm label -> runs. The label is the algorithm's name, or
  // "collective:name" when the algorithm served another collective within the call (collect's
  // exchange of counts is an fcollect).
  std::map<std::string, std::map<std::string, std::uint64_t>> algorithms;
};

// One line per counter ("F put 3 24 1200", "A broadcast binomial 3"), and back. parse_profile
// returns false on text it does not understand.
std::string serialize(const PeProfile &p);
bool parse_profile(const std::string &text, PeProfile &out);

// min, median (the lower of the two middle values for an even number of PEs) and max of one
// counter over the PEs, and the value of every PE.
struct Spread {
  std::uint64_t min = 0, median = 0, max = 0;
  std::vector<std::uint64_t> per_pe;
};
Spread spread(std::vector<std::uint64_t> values);

// The reports over every PE's profile (index = world PE). Families that no PE used and the
// lifecycle family are left out.
std::string format_table(const std::vector<PeProfile> &pes);
std::string format_json(const std::vector<PeProfile> &pes);

}  // namespace shoal::observe
