// The words of a hang report, one line per PE from its record (pure: the unit tests run it).
#include <cstdio>
#include <cstring>
#include <string>

#include "observe/hang.hpp"

namespace shoal::observe::hang {
namespace {

const char *cmp_text(int cmp) noexcept {
  switch (cmp) {  // the values of SHMEM_CMP_* (atomics/p2p_sync.hpp)
    case 1:
      return "==";
    case 2:
      return "!=";
    case 3:
      return ">";
    case 4:
      return "<=";
    case 5:
      return "<";
    case 6:
      return ">=";
    default:
      return "?";
  }
}

std::string value_text(ValueKind kind, std::uint8_t size, std::uint64_t bits) {
  char text[64];
  switch (kind) {
    case ValueKind::signed_int: {
      // Sign-extend the value's bytes (little-endian: the low bytes come first).
      const unsigned shift = 64u - 8u * size;
      const auto v = static_cast<std::int64_t>(bits << shift) >> shift;
      std::snprintf(text, sizeof text, "%lld", static_cast<long long>(v));
      break;
    }
    case ValueKind::unsigned_int: {
      const std::uint64_t v = size >= 8 ? bits : bits & ((std::uint64_t{1} << (8u * size)) - 1);
      std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(v));
      break;
    }
    case ValueKind::floating: {
      double v = 0;
      if (size == sizeof(float)) {
        float f;
        std::memcpy(&f, &bits, sizeof f);
        v = f;
      } else {
        std::memcpy(&v, &bits, sizeof v);
      }
      std::snprintf(text, sizeof text, "%g", v);
      break;
    }
    case ValueKind::none:
      return "?";
  }
  return text;
}

std::string team_text(const Fields &f) {
  switch (f.team_kind) {
    case TeamKind::world:
      return "team world";
    case TeamKind::shared:
      return "team shared";
    case TeamKind::none:
      return "";
    case TeamKind::split:
    case TeamKind::active_set:
      break;
  }
  std::string t = f.team_kind == TeamKind::active_set ? "active set of " : "team of ";
  t += std::to_string(f.team_size) + " PEs from world PE " + std::to_string(f.team_first);
  if (f.team_stride > 1) t += " stride " + std::to_string(f.team_stride);
  t += " (this PE is its PE " + std::to_string(f.team_rank) + ")";
  return t;
}

}  // namespace

std::string describe(int pe, const Fields *f, std::uint64_t now_ns, bool has_current,
                     std::uint64_t current) {
  std::string line = "PE " + std::to_string(pe) + ": ";
  if (f == nullptr)
    return line +
           "unknown (its record is not readable from here: another node, or "
           "SMA_SHARED_MEMORY=0)";
  if (!f->inside) return line + "computing, outside the library";
  char head[128];
  std::snprintf(head, sizeof head, "in %s for %.1f s", f->routine,
                now_ns > f->entered_ns ? static_cast<double>(now_ns - f->entered_ns) / 1e9 : 0.0);
  line += head;
  const std::string team = team_text(*f);
  if (f->family >= Family::barrier && f->family <= Family::scan) {
    line += std::string(", ") + family_name(f->family);
    if (!team.empty())
      line += " on " + team + ", collective call " + std::to_string(f->team_call) + " on that team";
  } else if (f->family == Family::wait && f->addr != 0) {
    char where[160];
    std::snprintf(where, sizeof where, ", waiting for %s0x%llx %s %s",
                  f->nvars > 1 ? "variables from " : "", static_cast<unsigned long long>(f->addr),
                  cmp_text(f->cmp), value_text(f->kind, f->value_size, f->value).c_str());
    line += where;
    if (f->nvars > 1) line += " (" + std::to_string(f->nvars) + " variables)";
    if (has_current) line += ", which holds " + value_text(f->kind, f->value_size, current);
  } else if (f->family == Family::lock && f->addr != 0) {
    char where[64];
    std::snprintf(where, sizeof where, ", lock at 0x%llx",
                  static_cast<unsigned long long>(f->addr));
    line += where;
  } else if (f->pe >= 0) {
    line += ", " + std::to_string(f->bytes) + " bytes with PE " + std::to_string(f->pe);
  } else if (!team.empty()) {
    line += " on " + team;
  }
  return line;
}

}  // namespace shoal::observe::hang
