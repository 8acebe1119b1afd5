#include "host_list.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netinet/in.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>

namespace shoal::launcher {
namespace {

// As many as oshrun accepts PEs (options.cpp).
constexpr int kMaxSlots = 65536;

std::optional<int> parse_slots(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1 || value > kMaxSlots)
    return std::nullopt;
  return value;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char &c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Host names, IPv4 and IPv6 addresses (with a %scope or in brackets), an optional user@.
bool valid_host_name(std::string_view name) {
  if (name.empty() || name[0] == '-') return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
          c == '-' || c == '_' || c == ':' || c == '@' || c == '%' || c == '[' || c == ']'))
      return false;
  return true;
}

// "name:N" with one colon: a slot count in --host syntax (an IPv6 address has several).
bool has_slot_suffix(std::string_view item, std::size_t &colon) {
  colon = item.rfind(':');
  return colon != std::string_view::npos && item.find(':') == colon;
}

std::vector<std::string_view> split_words(std::string_view s) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    const std::size_t start = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    if (i > start) words.push_back(s.substr(start, i - start));
  }
  return words;
}

// "slots = 4" is "slots=4": drops the blanks next to an '='.
std::string join_around_equals(std::string_view s) {
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (!is_space(s[i])) {
      out += s[i++];
      continue;
    }
    std::size_t j = i;
    while (j < s.size() && is_space(s[j])) ++j;
    const bool before_equals = j < s.size() && s[j] == '=';
    const bool after_equals = !out.empty() && out.back() == '=';
    if (!before_equals && !after_equals) out += ' ';
    i = j;
  }
  return out;
}

// Reads a whole (small) file; errno-style error or 0.
int slurp(const std::string &path, std::string &out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      const int err = errno;
      ::close(fd);
      return err;
    }
  }
  ::close(fd);
  return 0;
}

std::string strip_user(std::string_view name) {
  const auto at = name.rfind('@');
  return std::string(at == std::string_view::npos ? name : name.substr(at + 1));
}

std::string short_name(const std::string &name) { return name.substr(0, name.find('.')); }

// The canonical text of a numeric address (so "::0001" matches "::1"), or "" for a name.
std::string canonical_address(std::string name) {
  if (name.size() > 2 && name.front() == '[' && name.back() == ']')
    name = name.substr(1, name.size() - 2);
  char text[INET6_ADDRSTRLEN] = "";
  in_addr v4{};
  if (::inet_pton(AF_INET, name.c_str(), &v4) == 1)
    return ::inet_ntop(AF_INET, &v4, text, sizeof text) ? text : "";
  name = name.substr(0, name.find('%'));  // fe80::1%eth0: the scope is not part of the address
  in6_addr v6{};
  if (::inet_pton(AF_INET6, name.c_str(), &v6) == 1)
    return ::inet_ntop(AF_INET6, &v6, text, sizeof text) ? text : "";
  return "";
}

}  // namespace

std::string parse_host_option(std::string_view value, std::vector<HostEntry> &out) {
  if (value.empty()) return "option '--host' needs a list of hosts";
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = value.find(',', start);
    const std::string_view item = value.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    HostEntry entry;
    std::size_t colon = 0;
    if (has_slot_suffix(item, colon)) {
      const std::string_view count = item.substr(colon + 1);
      entry.name = std::string(item.substr(0, colon));
      const auto slots = parse_slots(count);
      if (!slots)
        return "invalid slot count '" + std::string(count) + "' for host '" + entry.name +
               "' in --host (expected 1.." + std::to_string(kMaxSlots) + ")";
      entry.slots = *slots;
    } else {
      entry.name = std::string(item);
    }
    if (entry.name.empty()) return "empty host name in '--host " + std::string(value) + "'";
    if (!valid_host_name(entry.name)) return "invalid host name '" + entry.name + "' in --host";
    out.push_back(std::move(entry));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return "";
}

HostfileResult read_hostfile(const std::string &path, int default_slots) {
  HostfileResult result;
  std::string text;
  if (const int err = slurp(path, text); err != 0) {
    result.error = "cannot read hostfile '" + path + "': " + std::strerror(err);
    return result;
  }
  int line_number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    ++line_number;
    line = line.substr(0, line.find('#'));
    const std::string joined = join_around_equals(line);
    const std::vector<std::string_view> words = split_words(joined);
    if (words.empty()) continue;

    const std::string where = "hostfile '" + path + "' line " + std::to_string(line_number) + ": ";
    auto fail = [&](const std::string &why) {
      result.hosts.clear();
      result.error = where + why;
      return result;
    };
    HostEntry entry;
    entry.name = std::string(words[0]);
    std::size_t colon = 0;
    if (has_slot_suffix(entry.name, colon) &&
        parse_slots(std::string_view(entry.name).substr(colon + 1)))
      return fail("'" + entry.name + "': a hostfile gives slots as '" +
                  entry.name.substr(0, colon) + " slots=" + entry.name.substr(colon + 1) + "'");
    if (!valid_host_name(entry.name) || entry.name.find('=') != std::string::npos)
      return fail("invalid host name '" + entry.name +
                  "' (expected \"host [slots=N] [max_slots=N]\")");

    std::optional<int> slots, max_slots;
    for (std::size_t k = 1; k < words.size(); ++k) {
      const std::string_view word = words[k];
      const std::size_t eq = word.find('=');
      if (eq == std::string_view::npos)
        return fail("cannot read '" + std::string(word) +
                    "' (expected \"host [slots=N] [max_slots=N]\")");
      const std::string key = lower(word.substr(0, eq));
      const std::string_view value = word.substr(eq + 1);
      const auto n = parse_slots(value);
      const bool is_slots = key == "slots" || key == "count" || key == "cpu";
      const bool is_max = key == "max_slots" || key == "max-slots" || key == "slots_max";
      if (!is_slots && !is_max)
        return fail("unknown setting '" + std::string(word.substr(0, eq)) +
                    "' (expected slots=N or max_slots=N)");
      if (!n)
        return fail("invalid " + key + " '" + std::string(value) + "' (expected 1.." +
                    std::to_string(kMaxSlots) + ")");
      (is_slots ? slots : max_slots) = *n;
    }
    if (slots && max_slots && *max_slots < *slots)
      return fail("max_slots " + std::to_string(*max_slots) + " is below slots " +
                  std::to_string(*slots));
    entry.slots = slots ? *slots : default_slots;
    if (!slots && max_slots && *max_slots < entry.slots) entry.slots = *max_slots;
    result.hosts.push_back(std::move(entry));
  }
  if (result.hosts.empty()) result.error = "hostfile '" + path + "' lists no hosts";
  return result;
}

int total_slots(const std::vector<HostEntry> &hosts, int cap) {
  long long total = 0;
  for (const HostEntry &h : hosts) {
    total += h.slots;
    if (total >= cap) return cap;
  }
  return static_cast<int>(total);
}

ThisHost ThisHost::probe() {
  ThisHost me;
  char name[HOST_NAME_MAX + 1] = "";
  if (::gethostname(name, sizeof name) == 0) {
    name[HOST_NAME_MAX] = '\0';
    me.hostname_ = lower(name);
  }
  me.addresses_ = {"127.0.0.1", "::1"};
  ifaddrs *list = nullptr;
  if (::getifaddrs(&list) == 0) {
    for (const ifaddrs *i = list; i; i = i->ifa_next) {
      if (!i->ifa_addr) continue;
      char text[INET6_ADDRSTRLEN] = "";
      const void *raw = nullptr;
      if (i->ifa_addr->sa_family == AF_INET)
        raw = &reinterpret_cast<const sockaddr_in *>(i->ifa_addr)->sin_addr;
      else if (i->ifa_addr->sa_family == AF_INET6)
        raw = &reinterpret_cast<const sockaddr_in6 *>(i->ifa_addr)->sin6_addr;
      if (raw && ::inet_ntop(i->ifa_addr->sa_family, raw, text, sizeof text))
        me.addresses_.insert(text);
    }
    ::freeifaddrs(list);
  }
  return me;
}

bool ThisHost::is(std::string_view written) const {
  const std::string name = lower(strip_user(written));
  if (name == "localhost" || name == "localhost.localdomain" || name == "ip6-localhost" ||
      name == "ip6-loopback")
    return true;
  if (const std::string address = canonical_address(name); !address.empty())
    return addresses_.count(address) != 0;
  if (hostname_.empty()) return false;
  // node1 and node1.cluster are the same host; node1.a and node1.b are not.
  if (name == hostname_) return true;
  if (name.find('.') == std::string::npos) return name == short_name(hostname_);
  return hostname_.find('.') == std::string::npos && short_name(name) == hostname_;
}

int usable_cpus() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (::sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
    const int n = CPU_COUNT(&allowed);
    if (n > 0) return n;
  }
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? static_cast<int>(online) : 1;
}

}  // namespace shoal::launcher
