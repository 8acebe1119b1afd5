// The collectives' process state (collectives/state.hpp): the slot area lives in a LayerState
// that the library binds at start and unbinds at stop. Here on plain buffers, without PEs: a
// state attaches an area, binds and gives back slots, a recycled slot is cleared only when
// asked, a second life starts from a fresh state, and a team destroyed once the state is
// detached or unbound (a program that skipped shmem_finalize, teams destroyed at exit) touches
// nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "collectives/cache_lines.hpp"
#include "collectives/slots.hpp"
#include "collectives/state.hpp"
#include "config/config.hpp"
#include "rma/raised_word.hpp"

namespace {

using namespace shoal;
using namespace shoal::coll;

constexpr int kWorldPes = 4;

Config small_config() {
  Config config;
  config.teams_max = 5;
  config.coll_scratch_size = 1024;
  return config;
}

// A zeroed, 64-byte aligned buffer of the area's size, as the heap would give it.
struct Buffer {
  explicit Buffer(std::size_t bytes) : words(bytes / 8 + 8, 0) {}
  std::byte *base() {
    auto p = reinterpret_cast<std::uintptr_t>(words.data());
    return reinterpret_cast<std::byte *>((p + 63) / 64 * 64);
  }
  std::vector<std::uint64_t> words;
};

// Binds a state for one test and unbinds it at the end, as the library does for one life.
struct Bound {
  explicit Bound(LayerState &s) { bind_state(&s); }
  ~Bound() { bind_state(nullptr); }
};

shoal_team team_of(int n_pes) {
  shoal_team team;
  team.my_pe = 0;
  team.n_pes = n_pes;
  for (int i = 0; i < n_pes; ++i) team.members.push_back(i);
  return team;
}

bool in_use(int index) {
  const std::vector<std::uint64_t> used = slots::in_use();
  return (used[static_cast<std::size_t>(index) / 64] >> (index % 64) & 1) != 0;
}

// Small jobs share out the mailbox area of a kBoxPeers-PE job: bigger boxes, in cache lines.
TEST(CollState, BoxesGrowInSmallJobs) {
  EXPECT_EQ(box_bytes_for(2), 16384u);
  EXPECT_EQ(box_bytes_for(3), 10880u);  // 65536 / 6, down to a whole line
  EXPECT_EQ(box_bytes_for(4), 8192u);
  EXPECT_EQ(box_bytes_for(8), 4096u);
  EXPECT_EQ(box_bytes_for(200), 128u);  // 163.8, down to a whole line
  EXPECT_EQ(box_bytes_for(kBoxPeers), kBoxBytes);
  EXPECT_EQ(box_bytes_for(100000), kBoxBytes);
  for (int pes = 1; pes <= 2 * kBoxPeers; ++pes) {
    EXPECT_EQ(box_bytes_for(pes) % kLineBytes, 0u) << pes;
    EXPECT_GE(box_bytes_for(pes), kBoxBytes) << pes;
    EXPECT_LE(static_cast<std::size_t>(std::min(pes, kBoxPeers)) * 2 * box_bytes_for(pes), kBoxArea)
        << pes;
  }
}

// Jobs of up to 64 PEs share 128 KiB of broadcast entries, in whole lines; larger ones have none.
TEST(CollState, BroadcastEntriesInSmallJobs) {
  EXPECT_EQ(bcast_entry_bytes_for(1), 16384u);
  EXPECT_EQ(bcast_entry_bytes_for(2), 8192u);
  EXPECT_EQ(bcast_entry_bytes_for(4), 4096u);
  EXPECT_EQ(bcast_entry_bytes_for(8), 2048u);
  EXPECT_EQ(bcast_entry_bytes_for(3), 5440u);  // 5461.3, down to a whole line
  EXPECT_EQ(bcast_entry_bytes_for(64), 256u);
  EXPECT_EQ(bcast_entry_bytes_for(65), 0u);
  EXPECT_EQ(bcast_entry_bytes_for(100000), 0u);
}

TEST(CollState, UnboundBeforeStart) {
  EXPECT_FALSE(bound());
  // A team's slot destroyed with no state bound gives nothing back and does not crash.
  auto slot = std::make_unique<TeamSlot>();
  slot->slot.index = 2;
  slot.reset();
  EXPECT_FALSE(bound());
}

TEST(CollState, AttachBindAndGiveBack) {
  const Config config = small_config();
  const std::size_t bytes = slots::area_bytes(config, kWorldPes);
  Buffer buffer(bytes);
  LayerState state;
  Bound bound_here(state);
  slots::attach(buffer.base(), config, kWorldPes);
  EXPECT_EQ(slots::count(), 5 + slots::kReservedSlots);
  EXPECT_EQ(slots::split_capacity(), 5);
  EXPECT_EQ(slots::first_free(slots::in_use()), 0);

  slots::bind(active_sets_slot(), 2, kWorldPes, false, 0);
  EXPECT_EQ(&active_sets_slot(), &state.active_sets_slot);
  EXPECT_TRUE(in_use(2));
  EXPECT_EQ(slots::first_free(slots::in_use()), 0);

  shoal_team world = team_of(kWorldPes), shared = team_of(2);
  slots::assign(world, 0, false, 0);
  slots::assign(shared, 1, false, 0);
  EXPECT_EQ(slots::first_free(slots::in_use()), 3);

  // Every slot's memory lies inside the area, one after another, in index order.
  const Slot &w = channel_slot(world);
  const Slot &s = channel_slot(shared);
  EXPECT_EQ(reinterpret_cast<std::byte *>(w.arrived), buffer.base());
  EXPECT_GT(reinterpret_cast<std::byte *>(s.arrived), reinterpret_cast<std::byte *>(w.arrived));
  EXPECT_LE(s.check_record + kCheckRecordBytes, buffer.base() + bytes);
  EXPECT_EQ(w.sent.size(), static_cast<std::size_t>(kWorldPes));
  // The boxes of every sender fill the mailbox area a job of kBoxPeers PEs has; every sender
  // has a ring of broadcast entries, each with its number's line after the data.
  EXPECT_EQ(w.box_bytes, box_bytes_for(kWorldPes));
  EXPECT_EQ(w.lines - w.boxes, static_cast<std::ptrdiff_t>(kWorldPes * 2 * w.box_bytes));
  EXPECT_EQ(w.bcast_entry_bytes, bcast_entry_bytes_for(kWorldPes));
  EXPECT_EQ(w.scratch - w.bcast_entries,
            static_cast<std::ptrdiff_t>(kWorldPes * kBcastLines * (w.bcast_entry_bytes + 64)));
  EXPECT_EQ(lines::bcast_entry(w, 1, 9) - w.bcast_entries,
            static_cast<std::ptrdiff_t>((kBcastLines + 1) * (w.bcast_entry_bytes + 64)));

  // A split team takes slot 3; destroyed, it gives the slot back here.
  shoal_team split = team_of(2);
  slots::assign(split, 3, true, 1);
  EXPECT_TRUE(in_use(3));
  EXPECT_EQ(slots::first_free(slots::in_use()), 4);
  split.collective.reset();
  EXPECT_FALSE(in_use(3));
  EXPECT_EQ(slots::first_free(slots::in_use()), 3);

  world.collective.reset();
  shared.collective.reset();
  slots::detach();
  EXPECT_EQ(slots::count(), 0);
}

TEST(CollState, RecycledSlotClearedOnlyWhenAsked) {
  const Config config = small_config();
  Buffer buffer(slots::area_bytes(config, kWorldPes));
  LayerState state;
  Bound bound_here(state);
  slots::attach(buffer.base(), config, kWorldPes);

  shoal_team first = team_of(2);
  slots::assign(first, 4, true, 1);
  channel_slot(first).arrived[1] = 7;  // counts the team left behind
  std::byte *entry = lines::bcast_entry(channel_slot(first), 3, 13);
  *lines::entry_seq(channel_slot(first), entry) = 13;
  first.collective.reset();

  shoal_team kept = team_of(2);  // fresh memory: a peer may have signalled already
  slots::assign(kept, 4, false, 1);
  EXPECT_EQ(channel_slot(kept).arrived[1], 7u);
  EXPECT_EQ(*lines::entry_seq(channel_slot(kept), entry), 13u);
  kept.collective.reset();

  shoal_team cleared = team_of(2);  // a recycled slot starts from zero
  slots::assign(cleared, 4, true, 2);
  EXPECT_EQ(channel_slot(cleared).arrived[1], 0u);
  EXPECT_EQ(*lines::entry_seq(channel_slot(cleared), entry), 0u) << "a broadcast entry's number";
  cleared.collective.reset();

  // A recycled slot's acknowledgement words start at the new generation's zero, so a raise
  // still in flight for the slot's previous team is dropped (rma/raised_word.hpp).
  shoal_team older = team_of(2);
  slots::assign(older, 4, true, 3);
  std::uint64_t *ack = lines::ack_word(channel_slot(older), 1);
  EXPECT_TRUE(rma::raise_word(ack, lines::ack_value(channel_slot(older), 5)));
  older.collective.reset();
  shoal_team newer = team_of(2);
  slots::assign(newer, 4, true, 4);
  EXPECT_EQ(slots::generation(4), 4u);
  EXPECT_EQ(channel_slot(newer).generation, 4u);
  EXPECT_EQ(*ack, lines::ack_value(channel_slot(newer), 0));
  EXPECT_FALSE(rma::raise_word(ack, rma::raised_value(3, 7))) << "the old team's raise";
  EXPECT_EQ(lines::ack_count(*ack), 0u);
  EXPECT_TRUE(rma::raise_word(ack, lines::ack_value(channel_slot(newer), 2)));
  EXPECT_EQ(lines::ack_count(*ack), 2u);
  newer.collective.reset();
  slots::detach();
}

TEST(CollState, SecondLifeStartsFresh) {
  const Config config = small_config();
  const std::size_t bytes = slots::area_bytes(config, kWorldPes);
  Buffer first_buffer(bytes), second_buffer(bytes);
  shoal_team leftover = team_of(2);  // outlives its life's state
  {
    LayerState first;
    bind_state(&first);
    slots::attach(first_buffer.base(), config, kWorldPes);
    slots::assign(leftover, 5, true, 1);
    shoal_team detached = team_of(2);
    slots::assign(detached, 6, true, 1);
    EXPECT_TRUE(in_use(5));
    EXPECT_TRUE(in_use(6));
    slots::detach();
    EXPECT_EQ(first.area.base, nullptr);
    detached.collective.reset();  // after the detach: nothing to give back, no crash
    bind_state(nullptr);
  }
  leftover.collective.reset();  // unbound and its state gone: touches nothing
  EXPECT_FALSE(bound());

  LayerState second;
  Bound bound_here(second);
  slots::attach(second_buffer.base(), config, kWorldPes);
  EXPECT_FALSE(in_use(5));
  EXPECT_EQ(slots::first_free(slots::in_use()), 0);
  shoal_team again = team_of(2);
  slots::assign(again, 5, true, 1);
  const auto *arrived = reinterpret_cast<std::byte *>(channel_slot(again).arrived);
  EXPECT_GT(arrived, second_buffer.base());
  EXPECT_LT(arrived, second_buffer.base() + bytes);
  again.collective.reset();
  EXPECT_FALSE(in_use(5));
  slots::detach();
}

}  // namespace
