// Waiting for a condition that another PE will make true: keep UCX progressing (the transfer we
// wait for may need it, and so may other PEs' operations on this PE: see InboundLease), and give
// the core away while nothing happens, because with more PEs than cores the PE we wait for may be
// waiting for this core.
//
// Three stages: spin briefly (the answer is usually a few hundred nanoseconds away when every
// PE has a core), then yield (a runnable peer on this core gets to run; while yields come straight
// back, nobody wants the core and the wait spins between them), then sleep in short naps, which
// leave the core to whoever computes. The yield stage lasts 10 ms where nobody else wants the
// core, so that the naps' wake-ups only delay waits that were long (yield_stage.hpp). A yield
// that a task which computes kept for its time slice makes the thread's waits skip the yields
// for a while, and nap after a few hundred rounds (lost_yields.hpp).
//
// When more PEs may run on this PE's CPUs than those PEs have CPUs between them (counting the
// PEs of other nodes on the same kernel, and only those whose CPUs overlap this PE's:
// boot/machine.hpp), the PE we wait for is likely waiting for this very core: then the wait
// skips the spinning, yields from the start, and naps only after a long wait (yield_stage.hpp).
#pragma once

#include <sched.h>
#include <time.h>

#include <cstdint>
#include <string>

#include "cpu_spread.hpp"
#include "ctx/context.hpp"
#include "lost_yields.hpp"
#include "yield_stage.hpp"
#include "rma/put_batch.hpp"
#include "transport/progress_thread.hpp"
#include "transport/ucx_worker.hpp"

namespace shoal {

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// Whether more of the machine's PEs may run on this PE's CPUs than they have CPUs between them
// (boot::CpuShare; false until the PEs have exchanged their CPUs).
bool oversubscribed() noexcept;

// How this PE waits, in words for SMA_INFO: the PEs of the machine, those that may run on this
// PE's CPUs and the CPUs they have, and whether that is more PEs than CPUs.
std::string waiting_summary();

// Whether the job has PEs on other nodes (false until the bootstrap knows).
bool spans_nodes() noexcept;

// Whether this machine runs more of the job's PEs than the CPUs they may run on between them.
// Unlike oversubscribed(), which counts the PEs that may run on this PE's CPUs, every PE of the
// machine gets the same answer, so the collectives may choose an algorithm by it
// (barrier/node_leaders).
bool machine_crowded() noexcept;

class Backoff {
 public:
  Backoff() noexcept : rounds_(first_round()) {}

  // Call after a round in which nothing happened.
  void idle() noexcept { idle(timed_nap); }
  // The same, with the wait's own way to nap (nap_until_arrival).
  template <typename Nap>
  void idle(Nap &&nap) noexcept {
    ++rounds_;
    if (rounds_ <= kSpinRounds) {
      cpu_relax();
    } else if (yield_stage_.goes_on(rounds_ - kSpinRounds, oversubscribed(), !lost_yields_.any())) {
      // A yield that comes straight back found no other task waiting for this CPU: then it
      // only costs the wait a system call per round (across nodes, half a microsecond of a
      // ten-microsecond round trip), so spin and look again every kProbeEvery rounds, and where
      // every PE has a CPU no sooner than YieldStage::kProbeNs after that yield. One that
      // took long gave the CPU to someone: keep yielding every round.
      // A thread that lost a yield to a task that computes spins instead (lost_yields.hpp).
      if ((free_cpu_ &&
           (rounds_ % kProbeEvery != 0 || !yield_stage_.probe_due(oversubscribed(), now_ns()))) ||
          (lost_yields_.any() && !lost_yields_.may_yield(now_ns()))) {
        cpu_relax();
        return;
      }
      if (oversubscribed()) spread_crowded_pes();
      const std::uint64_t before = now_ns();
      sched_yield();
      const std::uint64_t after = now_ns();
      free_cpu_ = after - before < kBusyYieldNs;
      lost_yields_.yielded(after - before, after, oversubscribed());
      yield_stage_.yielded(after);
    } else {
      nap();
    }
  }
  // The nap of a wait that nothing can wake earlier.
  static void timed_nap() noexcept { nanosleep(&kNap, nullptr); }
  static constexpr timespec kNap{0, 20'000};  // 20 us (the kernel's timer slack adds ~50 us)
  void reset() noexcept {
    rounds_ = first_round();
    yield_stage_.reset();
  }

 private:
  // Across nodes a round passes over a TCP worker (a system call), so the spin lasts about
  // 30 us there, a network round trip: a yield sooner lands as the answer does and delays it by
  // the system call. Where another PE needs the CPU, the machine runs more PEs than CPUs, and
  // the wait yields from the start.
  static constexpr unsigned kSpinRounds = 64;
  // Where the count starts: past the spin when this machine runs more PEs than CPUs (yield
  // from the start).
  static unsigned first_round() noexcept { return oversubscribed() ? kSpinRounds : 0; }
  static std::uint64_t now_ns() noexcept {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<std::uint64_t>(t.tv_sec) * 1'000'000'000u +
           static_cast<std::uint64_t>(t.tv_nsec);
  }
  static constexpr unsigned kProbeEvery = 16;
  static constexpr std::uint64_t kBusyYieldNs = 5'000;
  unsigned rounds_ = 0;
  bool free_cpu_ = false;  // the last yield came straight back
  YieldStage yield_stage_;
  static inline thread_local LostYields lost_yields_;
};

// The nap of a wait in a job that spans nodes: sleeps for Backoff::kNap, or until something
// arrives at `worker` or at the receiving worker this thread holds through `inbound`, whichever
// comes first. A timed nap made a wait late by up to the nap and the timer slack when what it
// waited for arrived meanwhile, which happened to most waits that napped: a PE naps when its
// peer is slow to answer, typically because that peer lost its CPU to another task. In a job
// on one node it is a timed nap: what a wait there waits for is a store no descriptor reports.
void nap_until_arrival(ucx::UcxWorker &worker, ucx::InboundLease &inbound) noexcept;

// Polls of the condition alone before the first pass of UCX progress: a PE on this node usually
// answers within a few hundred nanoseconds, less than one pass of progress costs. None when the
// job spans nodes: an answer from another node lands only when this PE progresses its receiving
// worker (the thread is off duty while the PE waits), and 256 polls are 10-15 us, more than a
// network round trip.
inline constexpr int kQuickPolls = 256;
// A wait progresses the worker that what it waits for arrives on every round and, when the PE
// has two (a progress thread owns the receiving one), the other every kOtherWorkerEvery.
inline constexpr unsigned kOtherWorkerEvery = 4;
// A wait for replies skips the receiving worker between its first round and this one, about a
// network round trip over TCP (see wait_for_replies), unless the machine runs more PEs than
// CPUs: there a round yields the CPU and lasts as long as another PE keeps it.
inline constexpr unsigned kReplyRounds = 32;
// kQuickPolls when every PE of the job is on this node and it has a CPU for each, otherwise 0.
int quick_polls() noexcept;

// Sends the puts this thread combined on any context its waits drive (ctx::send_own_batches):
// the answer a wait or a poll looks for may depend on them.
inline void send_batches_before_waiting(const char *routine) noexcept {
  rma::send_default_batches(routine);
  ctx::send_own_batches(routine);
}

// One pass for a program that polls (shmem_test, shmem_signal_fetch, a lock): like a wait, it
// first sends the puts this thread combined, which the answer it polls for may depend on, and
// progresses its contexts' workers as well.
inline void progress_once(ucx::UcxWorker &worker) noexcept {
  send_batches_before_waiting("polling");
  worker.progress();
  ctx::progress_own_workers();
}

template <typename Condition>
void wait_until(ucx::UcxWorker &worker, Condition &&done) noexcept {
  // The answer may depend on the puts this PE combined and has not sent (rma/put_batch.hpp).
  send_batches_before_waiting("waiting");
  for (int i = quick_polls(); i > 0; --i) {
    if (done()) return;
    cpu_relax();
  }
  Backoff backoff;
  ucx::InboundLease inbound;  // serve other PEs' operations on this PE while waiting
  // What we wait for arrives at the receiving worker; with a progress thread that is a worker
  // of its own, and this PE's sending worker (which only completes what it sent) is
  // progressed every kOtherWorkerEvery rounds, the first time at the end of the first
  // kOtherWorkerEvery: each pass over a TCP worker is a system call, and an answer that lands
  // during the one over the sending worker waits for the next round. (From the first round,
  // a 2-PE barrier across namespace hosts took 0.2 us more.) The workers of this thread's
  // contexts with operations in UCX go with it (ctx::progress_own_workers).
  const unsigned every = ucx::ProgressThread::running() ? kOtherWorkerEvery : 1;
  for (unsigned round = 0; !done(); ++round) {
    unsigned events = inbound.progress();
    if (round % every == every - 1) events += worker.progress() + ctx::progress_own_workers();
    if (events != 0)
      backoff.reset();
    else
      backoff.idle([&] { nap_until_arrival(worker, inbound); });
  }
}

// Waits for what completes on `worker`, the one this PE sends on (replies to its own
// operations, a request in UcxWorker::wait): that worker every round, other PEs' operations on
// this PE in the first round (what arrived since this PE's last wait is served while its own
// request travels) and, once the wait has lasted kReplyRounds, every kOtherWorkerEvery. A pass
// over the receiving worker is a system call over TCP, and a reply that lands during one waits
// for it: with passes every kOtherWorkerEvery from the start, a blocking get across namespace
// hosts took 0.1-0.2 us longer than OSHMEM's, which has one worker. Two PEs that get from each
// other at once serve each other's request by kReplyRounds at the latest: 14.4 us per get
// either way (OSHMEM 16.5).
template <typename Condition>
void wait_for_replies(ucx::UcxWorker &worker, Condition &&done) noexcept {
  if (done()) return;  // no lease: the progress thread would take this PE for a waiting one
  Backoff backoff;
  ucx::InboundLease inbound;
  const unsigned serve_from = oversubscribed() ? 0 : kReplyRounds;
  for (unsigned round = 1; !done(); ++round) {
    unsigned events = worker.progress();
    if (round == 1 || (round > serve_from && round % kOtherWorkerEvery == 1))
      events += inbound.progress();
    if (events != 0)
      backoff.reset();
    else
      backoff.idle([&] { nap_until_arrival(worker, inbound); });
  }
}

}  // namespace shoal
