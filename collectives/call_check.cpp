#include "collectives/call_check.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "collectives/cache_lines.hpp"
#include "collectives/registry.hpp"
#include "collectives/runtime_channel.hpp"
#include "collectives/slot_state.hpp"
#include "config/config.hpp"
#include "rma/raised_word.hpp"
#include "runtime.hpp"
#include "team/team.hpp"

namespace shoal::coll {
namespace {

// A call as it travels to the successor: one put with the sequence word after it.
struct Wire {
  std::uint64_t call;  // the team's checked-call number
  std::int32_t collective;
  std::int32_t root;
  std::uint64_t nelems;
  std::uint64_t elem_size;
  std::int64_t dst_stride, sst_stride;
  char routine[kCheckRecordBytes - 48];
};
static_assert(sizeof(Wire) == kCheckRecordBytes);

Wire to_wire(const CallRecord &r, std::uint64_t call) noexcept {
  Wire w{};
  w.call = call;
  w.collective = static_cast<std::int32_t>(r.collective);
  w.root = r.collective == Collective::broadcast ? r.root : -1;
  w.nelems = r.nelems;
  w.elem_size = r.elem_size;
  w.dst_stride = r.dst_stride;
  w.sst_stride = r.sst_stride;
  std::strncpy(w.routine, r.routine ? r.routine : "?", sizeof w.routine - 1);
  return w;
}

bool same(const Wire &a, const Wire &b) noexcept {
  if (a.collective != b.collective || a.root != b.root || a.elem_size != b.elem_size ||
      a.dst_stride != b.dst_stride || a.sst_stride != b.sst_stride ||
      std::strncmp(a.routine, b.routine, sizeof a.routine) != 0)
    return false;
  return a.collective == static_cast<std::int32_t>(Collective::collect) || a.nelems == b.nelems;
}

std::string team_name(const shoal_team &team) {
  if (&team == &shoal_team_world) return "team WORLD";
  if (&team == &shoal_team_shared) return "team SHARED";
  return fmt::format("team {} of {} PEs", static_cast<const void *>(&team), team.n_pes);
}

// "shmem_broadcastmem (call 7, 8 bytes, root 0)"
std::string describe(const Wire &w, const std::string &team) {
  std::string out =
      fmt::format("{} ({}call {}", w.routine, team.empty() ? "" : team + ", ", w.call);
  if (w.collective != static_cast<std::int32_t>(Collective::barrier)) {
    out += fmt::format(", {} bytes", w.nelems * w.elem_size);
    if (w.collective == static_cast<std::int32_t>(Collective::collect)) out += " from this PE";
  }
  if (w.root >= 0) out += fmt::format(", root {}", w.root);
  if (w.dst_stride != 1 || w.sst_stride != 1)
    out += fmt::format(", strides {} and {}", w.dst_stride, w.sst_stride);
  return out + ")";
}

// Tells the predecessor that its record `number` is read, in a raised word of the team's
// generation (cache_lines.hpp): nothing waits for the last one before the team is destroyed, so
// it may land after the predecessor gave the slot to another team, and must not move that
// team's word.
void acknowledge_record(RuntimeChannel &channel, Slot &slot, int prev, std::uint64_t number) {
  std::uint64_t *word = &slot.check[kCheckAck];
  const std::uint64_t value = lines::ack_value(slot, number);
  if (std::byte *mapped = channel.mapped(word, prev))
    rma::raise_word(reinterpret_cast<std::uint64_t *>(mapped), value);
  else
    channel.acknowledge(word, value, prev, /*slack=*/1);  // goes at once
}

}  // namespace

void check_same_call(shoal_team &team, const CallRecord &call) noexcept {
  if (!g_runtime->config.debug || team.active_set || team.n_pes < 2 || !team.collective) return;
  RuntimeChannel channel(team, call.routine);
  Slot &slot = channel.slot();
  const int n = team.n_pes, me = team.my_pe;
  const int next = (me + 1) % n, prev = (me + n - 1) % n;
  const std::uint64_t number = ++slot.checks;
  const Wire mine = to_wire(call, number);
  // The successor has read the previous record before this one overwrites it.
  if (number > 1) channel.wait(&slot.check[kCheckAck], lines::ack_value(slot, number - 1));
  channel.signal(&slot.check[kCheckSequence], number, next, slot.check_record, &mine, sizeof mine);
  channel.wait(&slot.check[kCheckSequence], number);
  Wire theirs;
  std::memcpy(&theirs, slot.check_record, sizeof theirs);
  theirs.routine[sizeof theirs.routine - 1] = '\0';
  acknowledge_record(channel, slot, prev, number);
  if (same(mine, theirs)) return;
  fatal(fmt::format("{}: collective mismatch: PE {} entered {} while PE {} entered {}",
                    call.routine, g_runtime->my_pe, describe(mine, team_name(team)),
                    team.world_pe(prev), describe(theirs, "")));
}

}  // namespace shoal::coll
