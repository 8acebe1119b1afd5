#include "soak_round.hpp"

#include <shmem.h>

#include "soak_check.hpp"
#include "soak_components.hpp"
#include "soak_world.hpp"

namespace soak {

Rounds::Rounds() {
  // Every factory allocates symmetric memory: the same order on every PE.
  components_.push_back(make_put_component());
  components_.push_back(make_get_component());
  components_.push_back(make_strided_component());
  components_.push_back(make_amo_component());
  components_.push_back(make_signal_component());
  components_.push_back(make_flag_component());
  components_.push_back(make_team_ctx_component());
}

Rounds::~Rounds() = default;

const char* Rounds::run(long round) {
  enter_round(round);
  set_kind("round");
  Rng r = shared_rng("round");
  switch (r.weighted({70, 15, 8, 7})) {
    case 0:
      mixed_round();
      return "mixed";
    case 1:
      coll_round();
      return "coll";
    case 2:
      team_round();
      return "team";
    default:
      heap_round();
      return "heap";
  }
}

// Interleaves the operation lists in a per-PE random order, keeping each list's own order.
static std::vector<Op> interleave(std::vector<std::vector<Op>>& lists, Rng& r) {
  std::vector<Op> out;
  std::size_t left = 0;
  for (const auto& l : lists) left += l.size();
  std::vector<std::size_t> next(lists.size(), 0);
  while (left > 0) {
    std::size_t pick = r.below(left);
    for (std::size_t i = 0; i < lists.size(); ++i) {
      const std::size_t remaining = lists[i].size() - next[i];
      if (pick < remaining) {
        out.push_back(std::move(lists[i][next[i]++]));
        break;
      }
      pick -= remaining;
    }
    --left;
  }
  return out;
}

void Rounds::mixed_round() {
  Rng r = shared_rng("round.mixed");
  std::vector<Component*> chosen;
  for (auto& c : components_)
    if (r.percent(45) && c->usable()) chosen.push_back(c.get());
  if (chosen.empty()) chosen.push_back(components_[r.below(components_.size() - 1)].get());
  const int steps = r.weighted({55, 35, 10});
  std::string names;
  for (Component* c : chosen) names += std::string(" ") + c->name();
  trace("mixed:%s, %d collectives", names.c_str(), steps);

  for (Component* c : chosen) {
    set_kind(c->name());
    c->prepare();
    ++uses_[c->name()];
  }
  set_kind("coll");
  coll_.prepare(steps);
  set_kind("barrier");
  shmem_barrier_all();

  std::vector<std::vector<Op>> lists(chosen.size() + 1);
  for (std::size_t i = 0; i < chosen.size(); ++i) chosen[i]->ops(lists[i]);
  coll_.ops(lists.back());
  Rng order = pe_rng("round.order", g_run.me);
  for (Op& op : interleave(lists, order)) {
    set_kind(op.kind);
    op.run();
  }

  set_kind("quiet");
  g_world.quiet_all();
  for (Component* c : chosen) {
    set_kind(c->name());
    c->await();
  }
  set_kind("barrier");
  shmem_barrier_all();
  for (Component* c : chosen) {
    set_kind(c->name());
    c->verify();
  }
}

// Collectives back to back. Half of these rounds start without a barrier: a collective must
// not depend on its members having left the previous one at the same time.
void Rounds::coll_round() {
  Rng r = shared_rng("round.coll");
  const int steps = static_cast<int>(r.between(1, CollSteps::kMaxSteps));
  set_kind("coll");
  coll_.prepare(steps);
  const bool barrier = r.percent(50);
  trace("coll: %d collectives%s", steps, barrier ? " after a barrier" : "");
  if (barrier) {
    set_kind("barrier");
    shmem_barrier_all();
  }
  std::vector<Op> ops;
  coll_.ops(ops);
  for (Op& op : ops) {
    set_kind(op.kind);
    op.run();
  }
}

}  // namespace soak
