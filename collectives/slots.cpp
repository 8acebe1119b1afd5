#include "collectives/slots.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <string>

#include "config/config.hpp"

namespace shoal::coll::slots {
namespace {

constexpr std::size_t kAlign = 64;  // cache line: counters of different slots never share one
std::size_t align_up(std::size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }
constexpr std::size_t kMaskBytes = kMaskWords * sizeof(std::uint64_t);
// Two mailboxes per sending PE, for the first kBoxPeers PEs.
std::size_t box_area(int world_pes) {
  return static_cast<std::size_t>(std::min(world_pes, kBoxPeers)) * 2 * kBoxBytes;
}

// Cache lines of the on-node algorithms, for the same senders as the mailboxes.
std::size_t line_area(int world_pes) {
  return static_cast<std::size_t>(std::min(world_pes, kBoxPeers)) * kLinesPerPeer * kLineBytes;
}

// The plug-in algorithms' scratch per slot: as large as the built-in one, none without plug-ins.
std::size_t plugin_scratch(const Config &config) {
  if (config.coll_plugins.find_first_not_of(" \t:") == std::string::npos) return 0;
  return align_up(std::max<std::size_t>(config.coll_scratch_size, 1024));
}

struct Area {
  std::byte *base = nullptr;
  int count = 0;
  int world_pes = 0;
  std::size_t flags_bytes = 0;  // one array of a counter per world PE (3 per slot)
  std::size_t scratch_bytes = 0;
  std::size_t plugin_scratch_bytes = 0;
  std::size_t slot_bytes = 0;
  std::array<std::uint64_t, kMaskWords> used{};  // bit per slot
};
// Trivially destructible, so a slot destroyed at exit (a program that never called
// shmem_finalize) still finds it.
Area g_area;
// The active sets' slot: bound at start-up, no team owns it (nothing to give back).
Slot g_active_sets_slot;

}  // namespace

std::size_t area_bytes(const Config &config, int world_pes) noexcept {
  const std::size_t flags = align_up(sizeof(std::uint64_t) * static_cast<std::size_t>(world_pes));
  const std::size_t scratch = align_up(std::max<std::size_t>(config.coll_scratch_size, 1024));
  return (config.teams_max + kReservedSlots) *
         (3 * flags + kMaskBytes + box_area(world_pes) + line_area(world_pes) + scratch +
          kCheckBytes + plugin_scratch(config));
}

void attach(std::byte *area, const Config &config, int world_pes) noexcept {
  g_area.base = area;
  g_area.count = static_cast<int>(config.teams_max) + kReservedSlots;
  g_area.world_pes = world_pes;
  g_area.flags_bytes = align_up(sizeof(std::uint64_t) * static_cast<std::size_t>(world_pes));
  g_area.scratch_bytes = align_up(std::max<std::size_t>(config.coll_scratch_size, 1024));
  g_area.plugin_scratch_bytes = plugin_scratch(config);
  g_area.slot_bytes = 3 * g_area.flags_bytes + kMaskBytes + box_area(world_pes) +
                      line_area(world_pes) + g_area.scratch_bytes + kCheckBytes +
                      g_area.plugin_scratch_bytes;
  g_area.used.fill(0);
}

void detach() noexcept { g_area = Area{}; }

int count() noexcept { return g_area.count; }
int split_capacity() noexcept { return g_area.count - kReservedSlots; }

std::vector<std::uint64_t> in_use() noexcept {
  return std::vector<std::uint64_t>(g_area.used.begin(), g_area.used.end());
}

int first_free(const std::vector<std::uint64_t> &used) noexcept {
  // `used` has kMaskWords words.
  for (int i = 0; i < g_area.count; ++i)
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

void bind(Slot &slot, int index, int team_pes, bool clear) noexcept {
  std::byte *base = g_area.base + static_cast<std::size_t>(index) * g_area.slot_bytes;
  slot.index = index;
  slot.arrived = reinterpret_cast<std::uint64_t *>(base);
  slot.granted = reinterpret_cast<std::uint64_t *>(base + g_area.flags_bytes);
  slot.counts = reinterpret_cast<std::uint64_t *>(base + 2 * g_area.flags_bytes);
  slot.masks = reinterpret_cast<std::uint64_t *>(base + 3 * g_area.flags_bytes);
  slot.boxes = base + 3 * g_area.flags_bytes + kMaskBytes;
  slot.box_peers = std::min(g_area.world_pes, kBoxPeers);
  slot.lines = slot.boxes + box_area(g_area.world_pes);  // 64-byte aligned
  slot.line_peers = std::min(g_area.world_pes, kBoxPeers);
  slot.scratch = slot.lines + line_area(g_area.world_pes);
  slot.scratch_bytes = g_area.scratch_bytes;
  slot.check = reinterpret_cast<std::uint64_t *>(slot.scratch + slot.scratch_bytes);
  slot.check_record = slot.scratch + slot.scratch_bytes + 2 * kLineBytes;
  slot.plugin_scratch =
      g_area.plugin_scratch_bytes == 0 ? nullptr : slot.scratch + slot.scratch_bytes + kCheckBytes;
  slot.plugin_scratch_bytes = g_area.plugin_scratch_bytes;
  if (clear) {
    clear_words(base, 2 * g_area.flags_bytes);
    // The lines' sequence words count from zero again, like the counters, and so do the
    // mismatch check's words and whatever flags plug-ins keep in their scratch.
    clear_words(slot.lines, line_area(g_area.world_pes));
    clear_words(reinterpret_cast<std::byte *>(slot.check), 2 * kLineBytes);
    if (slot.plugin_scratch != nullptr) clear_words(slot.plugin_scratch, slot.plugin_scratch_bytes);
  }
  slot.reset_local(static_cast<std::size_t>(team_pes));
  g_area.used[static_cast<std::size_t>(index) / 64] |= std::uint64_t{1} << (index % 64);
}

void assign(shoal_team &team, int index, bool clear) {
  auto state = std::make_unique<TeamSlot>();
  bind(state->slot, index, team.n_pes, clear);
  team.collective = std::move(state);
}

}  // namespace shoal::coll::slots

namespace shoal::coll {

TeamSlot::~TeamSlot() {
  const int index = slot.index;
  if (index >= 0 && slots::g_area.base != nullptr)
    slots::g_area.used[static_cast<std::size_t>(index) / 64] &= ~(std::uint64_t{1} << (index % 64));
}

Slot &active_sets_slot() noexcept { return slots::g_active_sets_slot; }

}  // namespace shoal::coll
