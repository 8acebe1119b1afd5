// RMA and AMOs on contexts made with shmem_team_create_ctx: PE numbers are team numbers, so a
// put to team PE k of a split team must land on the world PE the team maps k to. Each PE that
// holds a team context puts into (or adds to a counter on) random members of that team.
#include <shmem.h>

#include "soak_amo_api.hpp"
#include "soak_area.hpp"
#include "soak_check.hpp"
#include "soak_components.hpp"
#include "soak_world.hpp"

namespace soak {
namespace {

constexpr int kOps = 3;
constexpr std::size_t kMaxLen = 2048;

enum Method { ctx_putmem, ctx_putmem_nbi, ctx_uint64_put, ctx_atomic_add, kMethods };
const char* const kMethodNames[] = {"shmem_ctx_putmem", "shmem_ctx_putmem_nbi",
                                    "shmem_ctx_uint64_put", "shmem_ctx_uint64_atomic_add"};

const char* const kMethodKinds[] = {"team_ctx.putmem", "team_ctx.putmem_nbi", "team_ctx.uint64_put",
                                    "team_ctx.atomic_add"};

struct TeamOp {
  std::size_t slot;         // index into g_world.slots
  int team_target, target;  // team PE number and the world PE it must reach
  Method method;
  std::size_t off, len;
  std::uint64_t amount;
};

// Slots where `pe` holds a context on its team.
std::vector<std::size_t> ctx_slots_of(int pe) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < g_world.slots.size(); ++i)
    if (g_world.slots[i].has_ctx[static_cast<std::size_t>(pe)]) out.push_back(i);
  return out;
}

const std::vector<int>& group_of(const TeamSlot& s, int pe) {
  for (const auto& g : s.groups)
    if (index_in(g, pe) >= 0) return g;
  fail("team context of pe " + std::to_string(pe), "a team holding it", "none (test bug)");
}

class TeamCtxComponent final : public Component {
 public:
  TeamCtxComponent()
      : area_bytes_(static_cast<std::size_t>(g_run.n * kOps) * (kMaxLen + 64)),
        area_(shmem_align(64, area_bytes_), area_bytes_, kOps),
        counter_(static_cast<std::uint64_t*>(shmem_align(64, 8))) {}

  const char* name() const override { return "team_ctx"; }

  bool usable() const override {
    for (int pe = 0; pe < g_run.n; ++pe)
      if (!ctx_slots_of(pe).empty()) return true;
    return false;
  }

  void prepare() override {
    area_.begin_round(kMaxLen + 64, "team_ctx");
    *counter_ = 0;
    sources_.clear();
  }

  static std::vector<TeamOp> plan_of(int pe) {
    Rng r = pe_rng("team_ctx", pe);
    const std::vector<std::size_t> slots = ctx_slots_of(pe);
    if (slots.empty()) return {};
    std::vector<TeamOp> plan(static_cast<std::size_t>(r.between(0, kOps)));
    for (TeamOp& t : plan) {
      t.slot = slots[r.below(slots.size())];
      const std::vector<int>& group = group_of(g_world.slots[t.slot], pe);
      t.team_target = static_cast<int>(r.below(group.size()));
      t.target = group[static_cast<std::size_t>(t.team_target)];
      t.method = static_cast<Method>(r.below(kMethods));
      const std::size_t elem = t.method == ctx_uint64_put ? 8 : 1;
      t.len = std::max(elem, r.log_uniform(1, kMaxLen) / elem * elem);
      t.off = r.below(kMaxLen + 64 - t.len + 1) / elem * elem;
      t.amount = static_cast<std::uint64_t>(r.between(1, 1 << 16));
    }
    return plan;
  }

  void ops(std::vector<Op>& out) override {
    const std::vector<TeamOp> plan = plan_of(g_run.me);
    for (std::size_t j = 0; j < plan.size(); ++j) {
      const TeamOp t = plan[j];
      const TeamSlot& slot = g_world.slots[t.slot];
      shmem_team_t team = SHMEM_TEAM_INVALID;
      expect_true(
          shmem_ctx_get_team(slot.ctx, &team) == 0 && team == slot.team,
          [&] { return "shmem_ctx_get_team of the context on " + slot.describe(); },
          "the team the context was made on", "another handle or an error");
      sources_.emplace_back(t.len);
      Pattern(payload(g_run.me, static_cast<int>(j))).fill(sources_.back().data(), 0, t.len);
      const void* src = sources_.back().data();
      void* dest = area_.slot(g_run.me, static_cast<int>(j)) + t.off;
      std::uint64_t* counter = counter_;
      const shmem_ctx_t ctx = slot.ctx;
      out.push_back({kMethodKinds[t.method], [t, ctx, src, dest, counter] {
                       switch (t.method) {
                         case ctx_putmem:
                           shmem_ctx_putmem(ctx, dest, src, t.len, t.team_target);
                           break;
                         case ctx_putmem_nbi:
                           shmem_ctx_putmem_nbi(ctx, dest, src, t.len, t.team_target);
                           break;
                         case ctx_uint64_put:
                           shmem_ctx_uint64_put(ctx, static_cast<std::uint64_t*>(dest),
                                                static_cast<const std::uint64_t*>(src), t.len / 8,
                                                t.team_target);
                           break;
                         default:
                           amo_api::add(ctx, counter, t.amount, t.team_target);
                           break;
                       }
                     }});
    }
  }

  void verify() override {
    std::vector<SlotArea::Write> writes;
    std::uint64_t sum = 0;
    for (int pe = 0; pe < g_run.n; ++pe) {
      const std::vector<TeamOp> plan = plan_of(pe);
      for (std::size_t j = 0; j < plan.size(); ++j) {
        const TeamOp& t = plan[j];
        if (t.target != g_run.me) continue;
        if (t.method == ctx_atomic_add)
          sum += t.amount;
        else
          writes.push_back(
              {pe, static_cast<int>(j), t.off, t.len, payload(pe, static_cast<int>(j)), 0});
      }
    }
    expect_eq(sum, *counter_,
              [&] { return std::string("sum of the atomic adds through team contexts"); });
    area_.verify(writes, [&](int src, int op) {
      const std::vector<TeamOp> plan = plan_of(src);
      if (op >= static_cast<int>(plan.size()) ||
          plan[static_cast<std::size_t>(op)].target != g_run.me ||
          plan[static_cast<std::size_t>(op)].method == ctx_atomic_add)
        return std::string("untouched slot");
      const TeamOp& t = plan[static_cast<std::size_t>(op)];
      return strf("%s of %zu bytes at offset %zu to team PE %d of %s", kMethodNames[t.method],
                  t.len, t.off, t.team_target, g_world.slots[t.slot].describe().c_str());
    });
  }

 private:
  static std::uint64_t payload(int pe, int op) { return round_key("team_ctx.payload", pe, op); }

  std::size_t area_bytes_;
  SlotArea area_;
  std::uint64_t* counter_;
  std::vector<std::vector<std::uint8_t>> sources_;
};

}  // namespace

std::unique_ptr<Component> make_team_ctx_component() {
  return std::make_unique<TeamCtxComponent>();
}

}  // namespace soak
