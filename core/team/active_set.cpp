// The teams behind the deprecated active-set collectives (PE_start, logPE_stride, PE_size, pSync).
// An active set becomes a team on its first use and stays one until shmem_finalize, so later
// calls on the same set cost nothing extra. On that first use the members agree on a free slot
// through the caller's pSync, which is back to SHMEM_SYNC_VALUE on return as the specification
// requires:
//   1. every member but the first ORs the slots it has in use into the first member's
//      pSync[0..kMaskWords) and then adds 1 to its pSync[kArrived];
//   2. the first member waits for all, chooses, restores those words, and sets every member's
//      pSync[kChoice] to slot + 2 (1: no slot free);
//   3. every member clears its slot and adds 1 to the first member's pSync[kCleared];
//   4. the first member waits for all, restores it, and sets every member's pSync[kGo] to 1.
#include <spdlog/fmt/fmt.h>

#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "atomics/amo.hpp"
#include "collectives/slots.hpp"
#include "log/log.hpp"
#include "runtime.hpp"
#include "team/registry.hpp"
#include "team/team.hpp"
#include "wait.hpp"

namespace shoal::team {
namespace {

constexpr int kArrived = coll::kMaskWords, kChoice = kArrived + 1, kCleared = kArrived + 2,
              kGo = kArrived + 3;
static_assert(kGo < SHMEM_BARRIER_SYNC_SIZE, "pSync is too small for the slot agreement");

using Key = std::tuple<int, int, int>;  // PE_start, stride, PE_size
std::mutex g_mutex;
std::map<Key, shoal_team *> g_sets;

void amo(amo::Op op, long *word, std::uint64_t value, int pe, const char *routine) {
  amo::execute<std::uint64_t>(&shoal_ctx_default, op, word, value, 0, pe, nullptr, false, routine);
}

long wait_nonzero(long *word) {
  wait_until(g_runtime->worker, [&] { return __atomic_load_n(word, __ATOMIC_ACQUIRE) != 0; });
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

void wait_count(long *word, long count) {
  wait_until(g_runtime->worker, [&] { return __atomic_load_n(word, __ATOMIC_ACQUIRE) >= count; });
}

// Steps 1-4 above; returns the slot or -1 when none is free.
int agree_on_slot(const std::vector<int> &members, long *pSync, const char *routine) {
  const int me = g_runtime->my_pe, first = members.front();
  const long others = static_cast<long>(members.size()) - 1;
  std::vector<std::uint64_t> used = coll::slots::in_use();
  int slot;
  if (me != first) {
    for (int w = 0; w < coll::kMaskWords; ++w)
      if (used[static_cast<std::size_t>(w)] != 0)
        amo(amo::Op::bit_or, &pSync[w], used[static_cast<std::size_t>(w)], first, routine);
    amo(amo::Op::add, &pSync[kArrived], 1, first, routine);
    slot = static_cast<int>(wait_nonzero(&pSync[kChoice])) - 2;
    pSync[kChoice] = SHMEM_SYNC_VALUE;
  } else {
    wait_count(&pSync[kArrived], others);
    for (int w = 0; w < coll::kMaskWords; ++w) {
      used[static_cast<std::size_t>(w)] |= static_cast<std::uint64_t>(pSync[w]);
      pSync[w] = SHMEM_SYNC_VALUE;
    }
    pSync[kArrived] = SHMEM_SYNC_VALUE;
    slot = coll::slots::first_free(used);
    for (int pe : members)
      if (pe != me) amo(amo::Op::set, &pSync[kChoice], static_cast<std::uint64_t>(slot + 2), pe, routine);
  }
  return slot;
}

}  // namespace

shoal_team *active_set(int PE_start, int logPE_stride, int PE_size, long *pSync,
                       const char *routine) noexcept {
  const Runtime *rt = g_runtime;
  if (rt == nullptr) return lookup(nullptr, routine);  // reports the misuse
  const long long stride = logPE_stride >= 0 && logPE_stride < 31 ? 1LL << logPE_stride : -1;
  const long long last = PE_start + (PE_size - 1) * stride;
  if (PE_start < 0 || PE_size < 1 || stride < 1 || last >= rt->n_pes) {
    SMA_LOG_ERROR("team", "{}: the active set PE_start {}, logPE_stride {}, PE_size {} names PEs "
                  "outside 0 to {}", routine, PE_start, logPE_stride, PE_size, rt->n_pes - 1);
    return nullptr;
  }
  if ((rt->my_pe - PE_start) % stride != 0 || rt->my_pe < PE_start || rt->my_pe > last) {
    SMA_LOG_ERROR("team", "{}: PE {} is not in the active set PE_start {}, logPE_stride {}, "
                  "PE_size {}", routine, rt->my_pe, PE_start, logPE_stride, PE_size);
    return nullptr;
  }
  const Key key{PE_start, static_cast<int>(stride), PE_size};
  std::lock_guard lock(g_mutex);
  if (auto it = g_sets.find(key); it != g_sets.end()) return it->second;
  if (PE_size > 1 && pSync == nullptr) {
    SMA_LOG_ERROR("team", "{}: pSync is NULL", routine);
    return nullptr;
  }

  std::vector<int> members;
  for (int i = 0; i < PE_size; ++i) members.push_back(PE_start + static_cast<int>(i * stride));
  const int slot = PE_size == 1 ? coll::slots::first_free(coll::slots::in_use())
                                : agree_on_slot(members, pSync, routine);
  if (slot < 0) {
    SMA_LOG_ERROR("team", "{}: no free team slot for a new active set: at most SMA_TEAMS_MAX={} "
                  "teams and distinct active sets can be alive at once", routine,
                  coll::slots::count());
    return nullptr;
  }
  auto *team = new shoal_team;
  team->members = members;
  team->n_pes = PE_size;
  team->my_pe = team->team_pe(rt->my_pe);
  coll::slots::bind(team->slot, slot, PE_size, true);
  if (PE_size > 1) {
    const int first = members.front();
    if (rt->my_pe != first) {
      amo(amo::Op::add, &pSync[kCleared], 1, first, routine);
      (void)wait_nonzero(&pSync[kGo]);
      pSync[kGo] = SHMEM_SYNC_VALUE;
    } else {
      wait_count(&pSync[kCleared], PE_size - 1);
      pSync[kCleared] = SHMEM_SYNC_VALUE;
      for (int pe : members)
        if (pe != first) amo(amo::Op::set, &pSync[kGo], 1, pe, routine);
    }
  }
  add_live(team);
  g_sets.emplace(key, team);
  return team;
}

void forget_active_sets() noexcept {
  std::lock_guard lock(g_mutex);
  g_sets.clear();  // the teams themselves are freed with every other team
}

}  // namespace shoal::team
