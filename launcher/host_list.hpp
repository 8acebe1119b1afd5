// The hosts of a job as oshrun's --host and --hostfile give them, in Open MPI's syntax, and
// whether they all name this machine (then oshrun starts the PEs itself; otherwise it hands
// the job to a launcher that reaches other hosts, remote_launch.hpp).
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace shoal::launcher {

struct HostEntry {
  std::string name;  // as written, including a "user@" prefix
  int slots = 1;     // PEs it may take (Open MPI's slots)
};

// Appends the entries of one --host value, "h1,h2:4,h3" (":N" slots, 1 when absent; an entry
// with several colons, an IPv6 address, has no slot count). Returns an error message, or ""
// when the value is well formed.
std::string parse_host_option(std::string_view value, std::vector<HostEntry> &out);

// Reads an Open MPI hostfile: one host per line, "name [slots=N] [max_slots=N]", "#" starts a
// comment, blank lines are skipped ("count" and "cpu" are accepted for slots, "max-slots" for
// max_slots). A line without slots gives `default_slots` (Open MPI: the host's cores).
// On failure `error` says which file, line and text.
struct HostfileResult {
  std::vector<HostEntry> hosts;
  std::string error;
};
HostfileResult read_hostfile(const std::string &path, int default_slots);

// Total of the slots, saturating at `cap`.
int total_slots(const std::vector<HostEntry> &hosts, int cap);

// The names this machine answers to: "localhost", its host name (full and short) and the
// addresses of its network interfaces (127.0.0.1 and ::1 always). Names are compared without
// a "user@" prefix and without case; nothing is looked up in DNS.
class ThisHost {
 public:
  static ThisHost probe();
  bool is(std::string_view name) const;

 private:
  std::string hostname_;             // lower case
  std::set<std::string> addresses_;  // canonical numeric form
};

// The CPUs this process may run on (at least 1).
int usable_cpus();

}  // namespace shoal::launcher
