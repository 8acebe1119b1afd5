// Dissemination barrier: in round r each PE signals PE (me + 2^r) mod n and waits for the signal
// of PE (me - 2^r) mod n; after ceil(log2 n) rounds every PE has heard, indirectly, from all.
// Signals are barrier sequence numbers written into a symmetric flag per round; they only grow,
// so the flags never need resetting and back-to-back barriers cannot confuse each other.
#include <spdlog/fmt/fmt.h>

#include <atomic>
#include <cstdint>

#include "collectives/barrier.hpp"
#include "ctx/context.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"
#include "wait.hpp"

namespace shoal::coll {
namespace {

constexpr int kMaxRounds = 32;  // enough for 2^32 PEs

std::int64_t *g_flags = nullptr;  // symmetric, kMaxRounds entries
std::int64_t g_sequence = 0;      // barriers this PE has entered

}  // namespace

Status init_barrier(Runtime &rt) {
  const auto offset = rt.allocator.allocate(kMaxRounds * sizeof(std::int64_t));
  if (!offset) return Status::no_memory;
  // Fresh heap memory is zero. Not clearing it here matters: a faster PE may already have
  // signalled this one's first barrier.
  g_flags = reinterpret_cast<std::int64_t *>(rt.heap_base + *offset);
  g_sequence = 0;
  return Status::ok;
}

void finalize_barrier() noexcept { g_flags = nullptr; }

void sync_all(const char *routine) noexcept {
  Runtime *rt = g_runtime;
  if (rt == nullptr || g_flags == nullptr) rma::check_ctx(nullptr, routine);  // reports the misuse
  const std::int64_t sequence = ++g_sequence;
  const int n = rt->n_pes, me = rt->my_pe;
  for (int r = 0, distance = 1; distance < n; ++r, distance <<= 1) {
    const int peer = (me + distance) % n;
    const rma::Target t = rma::resolve(&g_flags[r], sizeof(std::int64_t), peer, routine);
    if (t.direct) {
      __atomic_store_n(reinterpret_cast<std::int64_t *>(t.direct), sequence, __ATOMIC_RELEASE);
    } else {
      rma::put(&shoal_ctx_default, &g_flags[r], &sequence, sizeof sequence, peer, routine);
    }
    wait_until(rt->worker, [&] { return __atomic_load_n(&g_flags[r], __ATOMIC_ACQUIRE) >= sequence; });
  }
}

void barrier_all(const char *routine) noexcept {
  rma::quiet(&shoal_ctx_default, routine);
  sync_all(routine);
}

}  // namespace shoal::coll
