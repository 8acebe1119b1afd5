#include "wait.hpp"

#include <poll.h>
#include <sched.h>

#include <atomic>
#include <string>

#include "runtime.hpp"

namespace shoal {

namespace {

// A fact about the job that holds once the library knows it: `learn` returns it (0 or 1), or -1
// while it cannot tell yet; the answer is kept. Any thread may ask; two that learn at once
// store the same answer.
template <typename Learn>
bool learned_once(std::atomic<int> &known, Learn &&learn) noexcept {
  int k = known.load(std::memory_order_relaxed);
  if (k < 0) {
    k = learn();
    if (k >= 0) known.store(k, std::memory_order_relaxed);
  }
  return k > 0;
}

}  // namespace

bool oversubscribed() noexcept {
  static std::atomic<int> known{-1};
  return learned_once(known, [] {
    // Known once every PE has published its CPUs (Runtime::exchange_and_connect).
    if (!g_runtime || !g_runtime->cpu_share.known()) return -1;
    return int{g_runtime->cpu_share.crowded()};
  });
}

std::string waiting_summary() {
  if (!g_runtime || !g_runtime->cpu_share.known()) return "not started";
  const auto count = [](int n, const char *what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  const boot::CpuShare &share = g_runtime->cpu_share;
  return count(g_runtime->pes_on_machine, "PE") + " of the job on this machine, on " +
         count(g_runtime->machine_cpus, "CPU") + "; " + std::to_string(share.pes) +
         " of them (this one included) may run on this PE's CPUs, " + count(share.cpus, "CPU") +
         " between them: " +
         (oversubscribed() ? "more PEs than CPUs, waits yield from the start"
                           : "waits spin, then yield");
}

bool spans_nodes() noexcept {
  static std::atomic<int> known{-1};
  return learned_once(known, [] {
    // Before the bootstrap, a job is taken to be on one node.
    if (!g_runtime || !g_runtime->bootstrap) return -1;
    const boot::Bootstrap &b = *g_runtime->bootstrap;
    return int{static_cast<int>(b.local_peers().size()) < b.size()};
  });
}

bool machine_crowded() noexcept {
  static std::atomic<int> known{-1};
  return learned_once(known, [] {
    if (!g_runtime || !g_runtime->cpu_share.known()) return -1;  // not exchanged yet
    return int{g_runtime->pes_on_machine > g_runtime->machine_cpus};
  });
}

void nap_until_arrival(ucx::UcxWorker &worker, ucx::InboundLease &inbound) noexcept {
  if (!spans_nodes()) return Backoff::timed_nap();
  // Arm each worker (ask it to signal its descriptor at the next arrival) and sleep on both
  // descriptors. A worker that has events already says busy: then the wait goes on at once.
  pollfd fds[2];
  nfds_t watched = 0;
  for (ucx::UcxWorker *w : {&worker, inbound.held_worker()}) {
    if (w == nullptr || (watched == 1 && w == &worker)) continue;
    const ucs_status_t armed = w->arm();
    if (armed == UCS_ERR_BUSY) return;
    if (armed != UCS_OK) return Backoff::timed_nap();
    fds[watched++] = {w->event_fd(), POLLIN, 0};
  }
  ppoll(fds, watched, &Backoff::kNap, nullptr);
}

int quick_polls() noexcept { return spans_nodes() || oversubscribed() ? 0 : kQuickPolls; }

}  // namespace shoal
