#include <shmem.h>

#include <algorithm>

#include "soak_check.hpp"
#include "soak_rounds.hpp"
#include "soak_world.hpp"

namespace soak {
namespace {

constexpr std::size_t kMaxSlots = 7;  // world included; well under SMA_TEAMS_MAX
constexpr int kMaxWorldCtxs = 2;

int smallest_group(const TeamSlot& s) {
  std::size_t m = s.groups.front().size();
  for (const auto& g : s.groups) m = std::min(m, g.size());
  return static_cast<int>(m);
}

// What a split must give this PE: the handle matches `group` (members) or is INVALID.
void check_team(shmem_team_t team, const std::vector<int>* group, const std::string& what) {
  if (group == nullptr) {
    expect_true(
        team == SHMEM_TEAM_INVALID, [&] { return what + ": handle of a non-member"; },
        "SHMEM_TEAM_INVALID", "a team");
    return;
  }
  expect_true(
      team != SHMEM_TEAM_INVALID, [&] { return what + ": handle of a member"; }, "a team",
      "SHMEM_TEAM_INVALID");
  const int size = static_cast<int>(group->size());
  expect_eq(index_in(*group, g_run.me), shmem_team_my_pe(team),
            [&] { return what + ": shmem_team_my_pe"; });
  expect_eq(size, shmem_team_n_pes(team), [&] { return what + ": shmem_team_n_pes"; });
  for (int i = 0; i < size; ++i) {
    expect_eq((*group)[static_cast<std::size_t>(i)],
              shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD),
              [&] { return what + strf(": translate_pe(team PE %d -> world)", i); });
  }
  expect_eq(index_in(*group, g_run.me), shmem_team_translate_pe(SHMEM_TEAM_WORLD, g_run.me, team),
            [&] { return what + ": translate_pe(world -> team) of this PE"; });
  expect_eq(0, shmem_team_sync(team), [&] { return what + ": shmem_team_sync return code"; });
}

// Registers a split result: groups known everywhere, the handle held here.
void add_slot(std::string how, std::vector<std::vector<int>> groups, shmem_team_t team) {
  TeamSlot s;
  s.id = g_world.next_team_id++;
  s.how = std::move(how);
  s.groups = std::move(groups);
  s.has_ctx.assign(static_cast<std::size_t>(g_run.n), 0);
  for (std::size_t i = 0; i < s.groups.size(); ++i)
    if (index_in(s.groups[i], g_run.me) >= 0) s.my_group = static_cast<int>(i);
  s.team = team;
  trace("  new team #%d %s %zu group(s), first %s", s.id, s.how.c_str(), s.groups.size(),
        list_str(s.groups.front()).c_str());
  check_team(team, s.mine(), s.describe());
  g_world.slots.push_back(std::move(s));
}

// The parent of a split: the world more often than not, so teams do not shrink to one PE.
const TeamSlot& pick_parent(Rng& r) {
  return g_world.slots[r.percent(50) ? 0 : r.below(g_world.slots.size())];
}

void split_strided(Rng& r) {
  const TeamSlot& parent = pick_parent(r);
  const int m = smallest_group(parent);
  // A triplet valid in every group of the parent: mostly dense (stride 1 or 2, from the low
  // end, or from the high end downwards), now and then any stride, or a zero stride.
  int stride = 1;
  switch (r.weighted({45, 20, 15, 12, 8})) {
    case 0:
      stride = 1;
      break;
    case 1:
      stride = 2;
      break;
    case 2:
      stride = -static_cast<int>(r.between(1, 2));
      break;
    case 3:
      stride = static_cast<int>(r.between(1, std::max(1, m - 1)));
      break;
    default:
      stride = 0;
      break;
  }
  const int half = std::max(1, m / 2);
  const int start = stride >= 0
                        ? static_cast<int>(r.below(static_cast<std::uint64_t>(half)))
                        : m - 1 - static_cast<int>(r.below(static_cast<std::uint64_t>(half)));
  const int most = stride > 0 ? (m - 1 - start) / stride + 1 : stride < 0 ? start / -stride + 1 : 1;
  const int size = r.percent(50) ? most : static_cast<int>(r.between(1, most));
  shmem_team_config_t config{static_cast<int>(r.between(0, 2))};
  const long mask = r.percent(50) ? SHMEM_TEAM_NUM_CONTEXTS : 0;

  std::vector<std::vector<int>> groups;
  for (const auto& g : parent.groups) {
    std::vector<int> child;
    for (int i = 0; i < size; ++i) child.push_back(g[static_cast<std::size_t>(start + stride * i)]);
    groups.push_back(child);
  }
  const std::string how = strf("strided(%d,%d,%d) of #%d", start, stride, size, parent.id);
  shmem_team_t team = SHMEM_TEAM_INVALID;
  if (parent.team != SHMEM_TEAM_INVALID) {
    set_kind("team.split_strided");
    const int rc = shmem_team_split_strided(parent.team, start, stride, size, &config, mask, &team);
    expect_eq(0, rc, [&] { return "shmem_team_split_strided " + how + " return code"; });
  }
  add_slot(how, std::move(groups), team);
}

void split_2d(Rng& r) {
  const TeamSlot& parent = pick_parent(r);
  const int xrange = static_cast<int>(r.between(1, smallest_group(parent)));
  std::vector<std::vector<int>> rows, columns;
  for (const auto& g : parent.groups) {
    const int n = static_cast<int>(g.size());
    for (int x0 = 0; x0 < n; x0 += xrange)
      rows.emplace_back(g.begin() + x0, g.begin() + std::min(n, x0 + xrange));
    for (int y = 0; y < xrange; ++y) {
      std::vector<int> column;
      for (int i = y; i < n; i += xrange) column.push_back(g[static_cast<std::size_t>(i)]);
      columns.push_back(column);
    }
  }
  shmem_team_t x = SHMEM_TEAM_INVALID, y = SHMEM_TEAM_INVALID;
  const int parent_id = parent.id;
  if (parent.team != SHMEM_TEAM_INVALID) {
    set_kind("team.split_2d");
    const int rc = shmem_team_split_2d(parent.team, xrange, nullptr, 0, &x, nullptr, 0, &y);
    expect_eq(0, rc, [&] {
      return strf("shmem_team_split_2d(xrange %d) of #%d return code", xrange, parent_id);
    });
  }
  add_slot(strf("2d-x(%d) of #%d", xrange, parent_id), std::move(rows), x);
  add_slot(strf("2d-y(%d) of #%d", xrange, parent_id), std::move(columns), y);
}

void destroy_team(Rng& r) {
  const std::size_t i = 1 + r.below(g_world.slots.size() - 1);
  TeamSlot& s = g_world.slots[i];
  set_kind("team.destroy");
  trace("  destroy team #%d %s", s.id, s.how.c_str());
  if (s.ctx != SHMEM_CTX_INVALID) shmem_ctx_destroy(s.ctx);
  if (s.team != SHMEM_TEAM_INVALID) shmem_team_destroy(s.team);
  g_world.slots.erase(g_world.slots.begin() + static_cast<std::ptrdiff_t>(i));
}

// Every member of one team flips a coin: make a context on its team or destroy the one it has.
void toggle_team_ctxs(Rng& r) {
  TeamSlot& s = g_world.slots[r.below(g_world.slots.size())];
  set_kind("team.create_ctx");
  trace("  toggle contexts on team #%d %s", s.id, s.how.c_str());
  for (int pe = 0; pe < g_run.n; ++pe) {
    const bool member = std::any_of(s.groups.begin(), s.groups.end(),
                                    [&](const auto& g) { return index_in(g, pe) >= 0; });
    if (!member || !pe_rng("team.ctx", pe).percent(60)) continue;
    char& has = s.has_ctx[static_cast<std::size_t>(pe)];
    if (pe == g_run.me) {
      if (has) {
        shmem_ctx_destroy(s.ctx);
        s.ctx = SHMEM_CTX_INVALID;
      } else {
        const long options = pe_rng("team.ctx.options", pe).percent(50) ? SHMEM_CTX_PRIVATE : 0;
        const int rc = shmem_team_create_ctx(s.team, options, &s.ctx);
        expect_eq(0, rc,
                  [&] { return "shmem_team_create_ctx on " + s.describe() + " return code"; });
      }
    }
    has = !has;
  }
}

// This PE alone makes or destroys a context on the world team (not collective).
void toggle_world_ctx() {
  Rng r = pe_rng("world.ctx", g_run.me);
  set_kind("ctx_create");
  auto& ctxs = g_world.ctxs;
  if (!ctxs.empty() && (ctxs.size() == kMaxWorldCtxs || r.percent(50))) {
    const std::size_t i = r.below(ctxs.size());
    shmem_ctx_destroy(ctxs[i]);
    ctxs.erase(ctxs.begin() + static_cast<std::ptrdiff_t>(i));
    return;
  }
  static const long kOptions[] = {0, SHMEM_CTX_PRIVATE, SHMEM_CTX_SERIALIZED};
  shmem_ctx_t ctx = SHMEM_CTX_INVALID;
  const long options = kOptions[r.below(3)];
  const int rc = shmem_ctx_create(options, &ctx);
  expect_eq(0, rc, [&] { return strf("shmem_ctx_create(options %ld) return code", options); });
  ctxs.push_back(ctx);
}

}  // namespace

void team_round() {
  Rng r = shared_rng("team");
  const int actions = static_cast<int>(r.between(1, 2));
  trace("team: %d action(s), %zu teams live", actions, g_world.slots.size());
  for (int a = 0; a < actions; ++a) {
    const std::size_t live = g_world.slots.size();
    // 0: strided split, 1: 2D split, 2: destroy, 3: team contexts, 4: world contexts
    const int weights[] = {live < kMaxSlots ? 30 : 0, live + 1 < kMaxSlots ? 15 : 0,
                           live > 1 ? (live + 2 >= kMaxSlots ? 60 : 25) : 0, 20, 10};
    switch (r.weighted(weights)) {
      case 0:
        split_strided(r);
        break;
      case 1:
        split_2d(r);
        break;
      case 2:
        destroy_team(r);
        break;
      case 3:
        toggle_team_ctxs(r);
        break;
      default:
        toggle_world_ctx();
        break;
    }
  }
}

}  // namespace soak
