// The record of the call a PE is in, published in its symmetric heap (observe::kAreaBytes at the
// heap's end) so that another PE of the node reads it through its mapping of that heap, without
// the PE's cooperation: a hang report must describe PEs that are stuck, or computing.
//
// The PE writes it under a sequence lock: seq is odd while the fields change, even when they are
// consistent; a reader copies the fields and keeps the copy when seq was the same even number
// before and after. seq changes at every entry and exit, so an unchanged seq with `inside` set
// means the same call all along.
#pragma once

#include <cstddef>
#include <cstdint>

#include "observe/observe.hpp"

namespace shoal::observe {

enum class TeamKind : std::uint8_t { none, world, shared, split, active_set };

struct Fields {
  std::uint32_t inside = 0;  // 1 while a call runs
  Family family = Family::count;
  std::uint8_t cmp = 0;
  ValueKind kind = ValueKind::none;
  std::uint8_t value_size = 0;
  std::int32_t pe = -1;  // target PE (RMA, AMO)
  TeamKind team_kind = TeamKind::none;
  std::int32_t team_size = 0;
  std::int32_t team_first = 0;   // world PE of team PE 0
  std::int32_t team_stride = 0;  // between consecutive members' world PEs, 0: not strided
  std::int32_t team_rank = -1;   // this PE's number in the team
  std::uint64_t team_call = 0;   // the collective's number among this PE's calls on the team
  std::uint64_t entered_ns = 0;  // CLOCK_MONOTONIC at entry (one clock for the node)
  std::uint64_t bytes = 0;
  std::uint64_t addr = 0;  // wait: the variable (a symmetric address)
  std::uint64_t nvars = 0;
  std::uint64_t value = 0;
  char routine[48] = {};
};

struct alignas(64) Record {
  std::uint64_t seq;
  // On PE 0's record only: 1 + the PE that reports a hang, 0 while none does (the election).
  std::uint64_t reporter;
  Fields fields;
};
static_assert(sizeof(Record) <= kCpuSlotOffset, "the record outgrew its part of the area");
static_assert(std::is_trivially_copyable_v<Fields>, "records are copied between processes");

// Copies a consistent snapshot of *r (which another process may be writing) into out; false when
// none was seen after a few tries.
bool read_record(const Record *r, Fields &out) noexcept;

}  // namespace shoal::observe
