// Collective steps on a random live team. Each step's plan (team, routine, type, size, root,
// strides, in place or not) is shared by all PEs; every input element is a function of (step,
// world PE, index), so each member computes the exact result it must receive. After each call
// the return code, the whole used part of dest, a guard after it and the untouched source are
// checked. Members of a 2D split's rows (or columns) run their teams' collectives concurrently.
#include <shmem.h>

#include <algorithm>
#include <cstring>

#include "soak_check.hpp"
#include "soak_rounds.hpp"
#include "soak_world.hpp"

namespace soak {
namespace {

constexpr std::size_t kRegion = 96 * 1024;  // src and dst of one step: above the 64 KiB mark
constexpr std::size_t kGuard = 64;

enum Kind {
  bcast_long,
  bcast_mem,
  reduce,
  collect_long,
  collect_mem,
  fcollect_long,
  fcollect_mem,
  alltoall_long,
  alltoall_mem,
  alltoalls_long,
  inscan,
  exscan,
  sync,
  kKinds
};
const char* const kKindNames[] = {"shmem_long_broadcast",
                                  "shmem_broadcastmem",
                                  "reduce",
                                  "shmem_long_collect",
                                  "shmem_collectmem",
                                  "shmem_long_fcollect",
                                  "shmem_fcollectmem",
                                  "shmem_long_alltoall",
                                  "shmem_alltoallmem",
                                  "shmem_long_alltoalls",
                                  "shmem_long_sum_inscan",
                                  "shmem_long_sum_exscan",
                                  "sync"};
// What the watchdog names if a step hangs (string literals).
const char* const kStepKinds[] = {
    "coll.broadcast", "coll.broadcastmem", "coll.reduce",   "coll.collect",     "coll.collectmem",
    "coll.fcollect",  "coll.fcollectmem",  "coll.alltoall", "coll.alltoallmem", "coll.alltoalls",
    "coll.inscan",    "coll.exscan",       "coll.sync"};
enum RedOp {
  sum_long,
  sum_int,
  sum_double,
  max_long,
  min_long,
  and_ulong,
  or_ulong,
  xor_ulong,
  kRedOps
};
const char* const kRedNames[] = {"shmem_long_sum_reduce",   "shmem_int_sum_reduce",
                                 "shmem_double_sum_reduce", "shmem_long_max_reduce",
                                 "shmem_long_min_reduce",   "shmem_ulong_and_reduce",
                                 "shmem_ulong_or_reduce",   "shmem_ulong_xor_reduce"};

struct Plan {
  int step = 0;
  std::size_t slot = 0;
  Kind kind = sync;
  RedOp op = sum_long;
  std::size_t elem = 8, nelems = 0;
  int root = 0;
  bool in_place = false;
  std::ptrdiff_t dst = 1, sst = 1;
  int sync_how = 0;
};

std::vector<Plan> g_plans;

// Members of this PE's team in the plan's slot (nullptr: not a member).
const std::vector<int>* my_group(const Plan& p) { return g_world.slots[p.slot].mine(); }

bool is_mem(Kind k) {
  return k == bcast_mem || k == collect_mem || k == fcollect_mem || k == alltoall_mem;
}

std::size_t collect_count(const Plan& p, int pe) {
  return static_cast<std::size_t>(
      Rng(round_key("coll.count", p.step, pe)).between(0, static_cast<long>(p.nelems)));
}

// The bits of input element i of world PE pe (the low `elem` bytes count).
std::uint64_t input(const Plan& p, int pe, std::size_t i) {
  const std::uint64_t raw =
      mix64(round_key("coll.data", p.step) ^ (static_cast<std::uint64_t>(pe) << 40) ^ i);
  const bool small_sum = (p.kind == reduce && (p.op == sum_long || p.op == sum_double)) ||
                         p.kind == inscan || p.kind == exscan;
  if (small_sum) {
    const std::int64_t v = static_cast<std::int64_t>(raw % (1u << 21)) - (1 << 20);
    if (p.kind == reduce && p.op == sum_double) {
      const double d = static_cast<double>(v);
      std::uint64_t bits;
      std::memcpy(&bits, &d, 8);
      return bits;
    }
    return static_cast<std::uint64_t>(v);
  }
  if (p.kind == reduce && p.op == sum_int)
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(raw % (1u << 17)) - (1 << 16));
  return raw;
}

std::uint64_t combine(const Plan& p, std::uint64_t a, std::uint64_t b) {
  switch (p.op) {
    case sum_long:
      return a + b;
    case sum_int:
      return static_cast<std::uint32_t>(static_cast<std::uint32_t>(a) +
                                        static_cast<std::uint32_t>(b));
    case sum_double: {
      double x, y;
      std::memcpy(&x, &a, 8);
      std::memcpy(&y, &b, 8);
      x += y;
      std::memcpy(&a, &x, 8);
      return a;
    }
    case max_long:
      return static_cast<std::int64_t>(a) > static_cast<std::int64_t>(b) ? a : b;
    case min_long:
      return static_cast<std::int64_t>(a) < static_cast<std::int64_t>(b) ? a : b;
    case and_ulong:
      return a & b;
    case or_ulong:
      return a | b;
    default:
      return a ^ b;
  }
}

void put_elem(unsigned char* base, std::size_t index, std::size_t elem, std::uint64_t bits) {
  std::memcpy(base + index * elem, &bits, elem);  // little-endian: the low bytes
}

// For mem kinds the element is one byte: byte i of the PE's input stream.
std::uint64_t input_elem(const Plan& p, int pe, std::size_t i) {
  if (is_mem(p.kind)) return static_cast<std::uint8_t>(input(p, pe, i / 8) >> (8 * (i % 8)));
  return input(p, pe, i);
}

unsigned char* src_of(unsigned char* arena, int step) {
  return arena + static_cast<std::size_t>(step) *
                     (2 * (kRegion + kGuard) + 8 * static_cast<std::size_t>(g_run.n));
}
unsigned char* dst_of(unsigned char* arena, int step) {
  return src_of(arena, step) + kRegion + kGuard;
}
std::uint64_t* tokens_of(unsigned char* arena, int step) {
  return reinterpret_cast<std::uint64_t*>(dst_of(arena, step) + kRegion + kGuard);
}

std::size_t src_elems(const Plan& p, std::size_t team_size) {
  if (p.nelems == 0) return 0;
  switch (p.kind) {
    case collect_long:
    case collect_mem:
      return collect_count(p, g_run.me);
    case alltoall_long:
    case alltoall_mem:
    case alltoalls_long:
      return (team_size * p.nelems - 1) * static_cast<std::size_t>(p.sst) + 1;
    default:
      return p.nelems;
  }
}

std::uint64_t background_key(const Plan& p) {
  return round_key("coll.background", p.step, g_run.me);
}

Plan make_plan(int step) {
  Rng r(round_key("coll", step));
  Plan p;
  p.step = step;
  p.slot = r.below(g_world.slots.size());
  const TeamSlot& s = g_world.slots[p.slot];
  std::size_t most = 0, least = static_cast<std::size_t>(g_run.n);
  for (const auto& g : s.groups) {
    most = std::max(most, g.size());
    least = std::min(least, g.size());
  }
  p.kind = static_cast<Kind>(r.below(kKinds));
  p.op = static_cast<RedOp>(r.below(kRedOps));
  p.elem = is_mem(p.kind) ? 1 : (p.kind == reduce && p.op == sum_int) ? 4 : 8;
  p.root = static_cast<int>(r.below(least));
  p.in_place = (p.kind == reduce || p.kind == inscan || p.kind == exscan) && r.percent(25);
  if (p.kind == alltoalls_long) {
    p.dst = r.between(1, 3);
    p.sst = r.between(1, 3);
  }
  p.sync_how = static_cast<int>(r.below(4));
  // Elements per PE: the largest that fits the region for the biggest team of the slot.
  std::size_t limit = kRegion / p.elem;
  switch (p.kind) {
    case collect_long:
    case collect_mem:
    case fcollect_long:
    case fcollect_mem:
    case alltoall_long:
    case alltoall_mem:
      limit /= most;
      break;
    case alltoalls_long:
      limit /= most * static_cast<std::size_t>(std::max(p.dst, p.sst));
      break;
    default:
      break;
  }
  switch (r.weighted({25, 55, 20})) {
    case 0:
      p.nelems = r.below(5);
      break;
    case 1:
      p.nelems = r.log_uniform(1, std::min<std::size_t>(limit, 300));
      break;
    default:
      p.nelems = r.log_uniform(1, limit);
      break;
  }
  return p;
}

std::string describe(const Plan& p) {
  const TeamSlot& s = g_world.slots[p.slot];
  const char* name = p.kind == reduce ? kRedNames[p.op] : kKindNames[p.kind];
  std::string extra;
  if (p.kind == bcast_long || p.kind == bcast_mem) extra = strf(", root %d", p.root);
  if (p.kind == alltoalls_long) extra = strf(", dst %td sst %td", p.dst, p.sst);
  if (p.kind == collect_long || p.kind == collect_mem) extra = " (at most; varying per PE)";
  return strf("step %d %s%s of %zu elements%s on %s", p.step, p.kind == sync ? "sync" : name,
              p.in_place ? " in place" : "", p.kind == sync ? 0 : p.nelems, extra.c_str(),
              s.describe().c_str());
}

// The result dest must hold on this PE: (bytes used, image of used bytes + guard).
std::vector<unsigned char> expected_dest(const Plan& p, const std::vector<int>& g,
                                         std::size_t& used) {
  const std::size_t n = g.size(), e = p.elem;
  const std::size_t me = static_cast<std::size_t>(index_in(g, g_run.me));
  std::vector<std::pair<std::size_t, std::uint64_t>> elems;  // (dest element index, bits)
  switch (p.kind) {
    case bcast_long:
    case bcast_mem:
      for (std::size_t i = 0; i < p.nelems; ++i)
        elems.emplace_back(i, input_elem(p, g[static_cast<std::size_t>(p.root)], i));
      break;
    case reduce:
      for (std::size_t i = 0; i < p.nelems; ++i) {
        std::uint64_t acc = input(p, g[0], i);
        for (std::size_t k = 1; k < n; ++k) acc = combine(p, acc, input(p, g[k], i));
        elems.emplace_back(i, acc);
      }
      break;
    case inscan:
    case exscan:
      for (std::size_t i = 0; i < p.nelems; ++i) {
        std::uint64_t acc = 0;
        for (std::size_t k = 0; k < (p.kind == inscan ? me + 1 : me); ++k) acc += input(p, g[k], i);
        elems.emplace_back(i, acc);
      }
      break;
    case collect_long:
    case collect_mem:
    case fcollect_long:
    case fcollect_mem: {
      std::size_t at = 0;
      const bool varying = p.kind == collect_long || p.kind == collect_mem;
      for (std::size_t k = 0; k < n; ++k) {
        const std::size_t count = varying ? collect_count(p, g[k]) : p.nelems;
        for (std::size_t i = 0; i < count; ++i) elems.emplace_back(at + i, input_elem(p, g[k], i));
        at += count;
      }
      break;
    }
    default:  // alltoall(s): block me of PE k's source lands in block k
      for (std::size_t k = 0; k < n; ++k)
        for (std::size_t i = 0; i < p.nelems; ++i)
          elems.emplace_back(
              (k * p.nelems + i) * static_cast<std::size_t>(p.dst),
              input_elem(p, g[k], (me * p.nelems + i) * static_cast<std::size_t>(p.sst)));
      break;
  }
  used = 0;
  for (const auto& [index, bits] : elems) used = std::max(used, (index + 1) * e);
  std::vector<unsigned char> image(used + kGuard);
  if (p.in_place) {
    // dest started as the source: inputs, then background
    for (std::size_t i = 0; i < p.nelems; ++i) put_elem(image.data(), i, e, input(p, g_run.me, i));
    Pattern(background_key(p))
        .fill(image.data() + p.nelems * e, p.nelems * e, image.size() - p.nelems * e);
  } else {
    Pattern(background_key(p)).fill(image.data(), 0, image.size());
  }
  for (const auto& [index, bits] : elems) put_elem(image.data(), index, e, bits);
  return image;
}

int call(const Plan& p, shmem_team_t team, void* dst, const void* src) {
  auto* ld = static_cast<long*>(dst);
  const auto* ls = static_cast<const long*>(src);
  auto* ud = static_cast<unsigned long*>(dst);
  const auto* us = static_cast<const unsigned long*>(src);
  const std::size_t n = p.nelems;
  switch (p.kind) {
    case bcast_long:
      return shmem_long_broadcast(team, ld, ls, n, p.root);
    case bcast_mem:
      return shmem_broadcastmem(team, dst, src, n, p.root);
    case collect_long:
      return shmem_long_collect(team, ld, ls, collect_count(p, g_run.me));
    case collect_mem:
      return shmem_collectmem(team, dst, src, collect_count(p, g_run.me));
    case fcollect_long:
      return shmem_long_fcollect(team, ld, ls, n);
    case fcollect_mem:
      return shmem_fcollectmem(team, dst, src, n);
    case alltoall_long:
      return shmem_long_alltoall(team, ld, ls, n);
    case alltoall_mem:
      return shmem_alltoallmem(team, dst, src, n);
    case alltoalls_long:
      return shmem_long_alltoalls(team, ld, ls, p.dst, p.sst, n);
    case inscan:
      return shmem_long_sum_inscan(team, ld, ls, n);
    case exscan:
      return shmem_long_sum_exscan(team, ld, ls, n);
    case reduce:
      switch (p.op) {
        case sum_long:
          return shmem_long_sum_reduce(team, ld, ls, n);
        case sum_int:
          return shmem_int_sum_reduce(team, static_cast<int*>(dst), static_cast<const int*>(src),
                                      n);
        case sum_double:
          return shmem_double_sum_reduce(team, static_cast<double*>(dst),
                                         static_cast<const double*>(src), n);
        case max_long:
          return shmem_long_max_reduce(team, ld, ls, n);
        case min_long:
          return shmem_long_min_reduce(team, ld, ls, n);
        case and_ulong:
          return shmem_ulong_and_reduce(team, ud, us, n);
        case or_ulong:
          return shmem_ulong_or_reduce(team, ud, us, n);
        default:
          return shmem_ulong_xor_reduce(team, ud, us, n);
      }
    default:
      return 0;
  }
}

// A sync proves that it waits: each member puts a token into its right neighbour, quiets and
// syncs; the token from the left must then be there. A second sync keeps the left neighbour from
// overwriting the token (in a later round) before it was read.
void run_sync(const Plan& p, const std::vector<int>& g, shmem_team_t team, std::uint64_t* tokens) {
  const std::size_t n = g.size();
  const std::size_t me = static_cast<std::size_t>(index_in(g, g_run.me));
  const int right = g[(me + 1) % n], left = g[(me + n - 1) % n];
  const std::uint64_t tag = round_key("coll.token", p.step, g_run.me);
  shmem_uint64_p(&tokens[g_run.me], tag, right);
  set_kind("coll.sync.quiet");
  shmem_quiet();
  set_kind("coll.sync");
  const bool world = team == SHMEM_TEAM_WORLD;
  const char* how = "shmem_team_sync";
  if (world && p.sync_how == 1) {
    how = "shmem_sync_all";
    shmem_sync_all();
  } else if (world && p.sync_how == 2) {
    how = "shmem_barrier_all";
    shmem_barrier_all();
  } else {
    expect_eq(0, shmem_team_sync(team),
              [&] { return describe(p) + ": shmem_team_sync return code"; });
  }
  expect_eq(
      round_key("coll.token", p.step, left), *static_cast<volatile std::uint64_t*>(&tokens[left]),
      [&] { return describe(p) + strf(": token of left neighbour pe %d after %s", left, how); });
  set_kind("coll.sync.second");
  expect_eq(0, shmem_team_sync(team),
            [&] { return describe(p) + ": second shmem_team_sync return code"; });
}

// Runs step s on this PE (a member of its team) and checks the result.
void run_step(int s, unsigned char* arena) {
  const Plan& p = g_plans[static_cast<std::size_t>(s)];
  const std::vector<int>& group = *my_group(p);
  const shmem_team_t team = g_world.slots[p.slot].team;
  if (p.kind == sync) {
    run_sync(p, group, team, tokens_of(arena, s));
    return;
  }
  unsigned char* dst = dst_of(arena, s);
  const unsigned char* src = p.in_place ? dst : src_of(arena, s);
  const int rc = call(p, team, dst, src);
  expect_eq(0, rc, [&] { return describe(p) + ": return code"; });
  std::size_t used = 0;
  const std::vector<unsigned char> want = expected_dest(p, group, used);
  expect_bytes(want.data(), dst, want.size(), [&] {
    return describe(p) + strf(": dest (%zu bytes of result, then %zu guard bytes)", used, kGuard);
  });
  if (!p.in_place) {
    const std::size_t n_src = src_elems(p, group.size());
    std::vector<unsigned char> inputs(n_src * p.elem);
    for (std::size_t i = 0; i < n_src; ++i)
      put_elem(inputs.data(), i, p.elem, input_elem(p, g_run.me, i));
    expect_bytes(inputs.data(), src, inputs.size(),
                 [&] { return describe(p) + ": source after the call"; });
  }
}

}  // namespace

CollSteps::CollSteps()
    : arena_(static_cast<unsigned char*>(shmem_align(
          64, kMaxSteps * (2 * (kRegion + kGuard) + 8 * static_cast<std::size_t>(g_run.n))))) {}

void CollSteps::prepare(int count) {
  count_ = count;
  g_plans.clear();
  for (int s = 0; s < count; ++s) {
    const Plan p = make_plan(s);
    g_plans.push_back(p);
    trace("  %s", describe(p).c_str());
    const std::vector<int>* g = my_group(p);
    if (g == nullptr || p.kind == sync) continue;
    unsigned char* src = src_of(arena_, s);
    unsigned char* dst = dst_of(arena_, s);
    Pattern(background_key(p)).fill(dst, 0, kRegion + kGuard);
    unsigned char* inputs = p.in_place ? dst : src;
    for (std::size_t i = 0; i < src_elems(p, g->size()); ++i)
      put_elem(inputs, i, p.elem, input_elem(p, g_run.me, i));
  }
}

void CollSteps::ops(std::vector<Op>& out) {
  for (int s = 0; s < count_; ++s) {
    const Plan& p = g_plans[static_cast<std::size_t>(s)];
    if (my_group(p) == nullptr) continue;
    unsigned char* arena = arena_;
    out.push_back({kStepKinds[p.kind], [s, arena] { run_step(s, arena); }});
  }
}

}  // namespace soak
