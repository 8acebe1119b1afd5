#include "collectives/slots.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <string>

#include "collectives/cache_lines.hpp"
#include "collectives/state.hpp"
#include "config/config.hpp"
#include "rma/pending_raises.hpp"

namespace shoal::coll::slots {
namespace {

constexpr std::size_t kAlign = 64;  // cache line: counters of different slots never share one
std::size_t align_up(std::size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }
constexpr std::size_t kMaskBytes = kMaskWords * sizeof(std::uint64_t);
// Two mailboxes per sending PE, for the first kBoxPeers PEs.
std::size_t box_area(int world_pes) {
  return static_cast<std::size_t>(std::min(world_pes, kBoxPeers)) * 2 * box_bytes_for(world_pes);
}

// Cache lines of the on-node algorithms, for the same senders as the mailboxes.
std::size_t line_area(int world_pes) {
  return static_cast<std::size_t>(std::min(world_pes, kBoxPeers)) * kLinesPerPeer * kLineBytes;
}

// Broadcast entries (slot_state.hpp) for every PE of a job of at most 64 PEs, else none.
std::size_t bcast_entry_area(int world_pes) {
  const std::size_t entry = bcast_entry_bytes_for(world_pes);
  if (entry == 0) return 0;
  return static_cast<std::size_t>(world_pes) * kBcastLines * (entry + kLineBytes);
}

// collect's records, for the first kBoxPeers team PEs.
std::size_t record_area(int world_pes) {
  return static_cast<std::size_t>(std::min(world_pes, kBoxPeers)) * kRecordBytes;
}

// One counter per world PE, in whole lines.
std::size_t flags_bytes(int world_pes) {
  return align_up(sizeof(std::uint64_t) * static_cast<std::size_t>(world_pes));
}

// The built-in algorithms' scratch per slot (SMA_COLL_SCRATCH_SIZE, at least 1 KiB).
std::size_t scratch_bytes(const Config &config) {
  return align_up(std::max<std::size_t>(config.coll_scratch_size, 1024));
}

// The plug-in algorithms' scratch per slot: as large as the built-in one, none without plug-ins.
std::size_t plugin_scratch(const Config &config) {
  if (config.coll_plugins.find_first_not_of(" \t:") == std::string::npos) return 0;
  return scratch_bytes(config);
}

// One slot, in the order bind() lays it out.
std::size_t slot_bytes(const Config &config, int world_pes) {
  return 3 * flags_bytes(world_pes) + kMaskBytes + box_area(world_pes) + line_area(world_pes) +
         record_area(world_pes) + bcast_entry_area(world_pes) + scratch_bytes(config) +
         kCheckBytes + plugin_scratch(config);
}

// The area's layout in the bound state (collectives/state.hpp).
Area &area() noexcept { return state().area; }

}  // namespace

std::size_t area_bytes(const Config &config, int world_pes) noexcept {
  return (config.teams_max + kReservedSlots) * slot_bytes(config, world_pes);
}

std::size_t committed_at_start(const Config &config, int world_pes) noexcept {
  return kReservedSlots * slot_bytes(config, world_pes);
}

Range range_of(int index) noexcept {
  const Area &a = area();
  return Range{static_cast<std::size_t>(index) * a.slot_bytes, a.slot_bytes};
}

void attach(std::byte *base, const Config &config, int world_pes) noexcept {
  Area &a = area();
  a.base = base;
  a.count = static_cast<int>(config.teams_max) + kReservedSlots;
  a.world_pes = world_pes;
  a.flags_bytes = flags_bytes(world_pes);
  a.scratch_bytes = scratch_bytes(config);
  a.plugin_scratch_bytes = plugin_scratch(config);
  a.slot_bytes = slot_bytes(config, world_pes);
  a.used.fill(0);
  a.generations.assign(static_cast<std::size_t>(a.count), 0);
}

void detach() noexcept { area() = Area{}; }

int count() noexcept { return area().count; }
int split_capacity() noexcept { return area().count - kReservedSlots; }

std::vector<std::uint64_t> in_use() noexcept {
  const Area &a = area();
  return std::vector<std::uint64_t>(a.used.begin(), a.used.end());
}

int first_free(const std::vector<std::uint64_t> &used) noexcept {
  // `used` has kMaskWords words.
  const Area &a = area();
  for (int i = 0; i < a.count; ++i)
    if ((used[static_cast<std::size_t>(i) / 64] >> (i % 64) & 1) == 0) return i;
  return -1;
}

namespace {

// Zeroes counters and line words that the receiving worker's message handler stores to
// atomically (rma/store_message.cpp): atomic stores too, so a message that arrives after the
// team is bound (ordered only through the network, which ThreadSanitizer cannot see) is no
// data race. `bytes` is a multiple of 8.
void clear_words(std::byte *start, std::size_t bytes) noexcept {
  auto *word = reinterpret_cast<std::uint64_t *>(start);
  for (std::size_t i = 0; i < bytes / sizeof(std::uint64_t); ++i)
    __atomic_store_n(&word[i], 0, __ATOMIC_RELAXED);
}

}  // namespace

std::uint64_t generation(int index) noexcept {
  return area().generations[static_cast<std::size_t>(index)];
}

void bind(Slot &slot, int index, int team_pes, bool clear, std::uint64_t generation) noexcept {
  Area &a = area();
  std::byte *base = a.base + static_cast<std::size_t>(index) * a.slot_bytes;
  slot.index = index;
  slot.generation = generation;
  a.generations[static_cast<std::size_t>(index)] = generation;
  slot.arrived = reinterpret_cast<std::uint64_t *>(base);
  slot.granted = reinterpret_cast<std::uint64_t *>(base + a.flags_bytes);
  slot.counts = reinterpret_cast<std::uint64_t *>(base + 2 * a.flags_bytes);
  slot.masks = reinterpret_cast<std::uint64_t *>(base + 3 * a.flags_bytes);
  slot.boxes = base + 3 * a.flags_bytes + kMaskBytes;
  slot.box_peers = std::min(a.world_pes, kBoxPeers);
  slot.box_bytes = box_bytes_for(a.world_pes);
  slot.lines = slot.boxes + box_area(a.world_pes);  // 64-byte aligned
  slot.line_peers = std::min(a.world_pes, kBoxPeers);
  slot.records = slot.lines + line_area(a.world_pes);  // 64-byte aligned
  slot.record_peers = std::min(a.world_pes, kBoxPeers);
  slot.bcast_entries = slot.records + record_area(a.world_pes);  // 64-byte aligned
  slot.bcast_entry_bytes = bcast_entry_bytes_for(a.world_pes);
  slot.scratch = slot.bcast_entries + bcast_entry_area(a.world_pes);
  slot.scratch_bytes = a.scratch_bytes;
  slot.check = reinterpret_cast<std::uint64_t *>(slot.scratch + slot.scratch_bytes);
  slot.check_record = slot.scratch + slot.scratch_bytes + 2 * kLineBytes;
  slot.plugin_scratch =
      a.plugin_scratch_bytes == 0 ? nullptr : slot.scratch + slot.scratch_bytes + kCheckBytes;
  slot.plugin_scratch_bytes = a.plugin_scratch_bytes;
  if (clear) {
    clear_words(base, 2 * a.flags_bytes);
    // The lines' sequence words count from zero again, like the counters, and so do the
    // mismatch check's words and whatever flags plug-ins keep in their scratch. The words that
    // other PEs raise start at the new generation's zero: a raise for the previous team still
    // in flight finds another generation there and is dropped (cache_lines.hpp).
    clear_words(slot.lines, line_area(a.world_pes));
    if (slot.bcast_entry_bytes != 0)
      for (int from = 0; from < a.world_pes; ++from)
        for (int e = 0; e < kBcastLines; ++e)
          __atomic_store_n(lines::entry_seq(slot, lines::bcast_entry(slot, from, e)), 0,
                           __ATOMIC_RELAXED);
    for (int from = 0; from < slot.line_peers; ++from)
      __atomic_store_n(lines::ack_word(slot, from), lines::ack_value(slot, 0), __ATOMIC_RELAXED);
    clear_words(reinterpret_cast<std::byte *>(slot.check), 2 * kLineBytes);
    __atomic_store_n(&slot.check[kCheckAck], lines::ack_value(slot, 0), __ATOMIC_RELAXED);
    if (slot.plugin_scratch != nullptr) clear_words(slot.plugin_scratch, slot.plugin_scratch_bytes);
  }
  slot.reset_local(static_cast<std::size_t>(team_pes));
  a.used[static_cast<std::size_t>(index) / 64] |= std::uint64_t{1} << (index % 64);
}

void assign(shoal_team &team, int index, bool clear, std::uint64_t generation) {
  auto state = std::make_unique<TeamSlot>();
  bind(state->slot, index, team.n_pes, clear, generation);
  team.collective = std::move(state);
}

}  // namespace shoal::coll::slots

namespace shoal::coll {

TeamSlot::~TeamSlot() {
  // After the library stopped (the state unbound) there is nothing to give back.
  const int index = slot.index;
  if (index < 0 || !bound()) return;
  slots::Area &area = state().area;
  if (area.base == nullptr) return;
  area.used[static_cast<std::size_t>(index) / 64] &= ~(std::uint64_t{1} << (index % 64));
  // Acknowledgements for the team's broadcasts still waiting to ride to a peer would move a
  // word of the slot's next team there.
  rma::forget_raises(area.base + static_cast<std::size_t>(index) * area.slot_bytes,
                     area.slot_bytes);
}

Slot &active_sets_slot() noexcept { return state().active_sets_slot; }

}  // namespace shoal::coll
