// Target-side progress. Transports that emulate RMA or atomics in software (TCP between hosts,
// atomics on memory UCX did not allocate) complete an operation only when the *target*
// progresses its worker. Every PE therefore receives remote operations on a worker of its own,
// driven by whoever is free to:
//   * while an application thread waits inside the library (quiet, wait_until, a barrier, a
//     blocking get or AMO) it drives the receiving worker itself, in the same loop as its own
//     worker: an operation that arrives meanwhile is served at once, without waking a thread;
//   * otherwise (the PE computes) a background thread serves it. It sleeps on the worker's event
//     descriptor while nothing arrives (looking anyway every kWatchdogMs), so it costs next to
//     no CPU when idle. A waiting application thread hands the worker back drained.
// One mutex says who drives: the thread holds it only while it progresses and arms the worker,
// never while it sleeps; a waiting application thread holds it for its whole wait, so the thread,
// woken by an arrival, finds it taken and naps instead of competing for the worker and the core
// (it never queues for the mutex: the PE's every unlock would then wake it).
// While the PE keeps waiting inside the library (a communication phase), the thread does not even
// arm the worker: it naps, kLeaseNapMs at first and twice as long after each nap in which the PE
// waited, up to kLongestLeaseNapMs, and arms again once a whole nap passed in which the PE did
// not wait. A PE that starts computing is served again within two naps.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>

#include "status.hpp"
#include "transport/ucx_worker.hpp"

namespace shoal::ucx {

class ProgressThread {
 public:
  ProgressThread() = default;
  ProgressThread(const ProgressThread &) = delete;
  ProgressThread &operator=(const ProgressThread &) = delete;
  ~ProgressThread() { stop(); }

  // pe names this PE in the fatal error that ends the job should the thread fail.
  Status start(UcxWorker &worker, int pe);
  void stop() noexcept;

  // The progress thread of this process while one runs, otherwise null.
  static ProgressThread *running() noexcept { return running_.load(std::memory_order_acquire); }

  // The thread's name, as /proc/PID/task/*/comm, top -H and gdb show it.
  static constexpr const char *kThreadName = "shoal-progress";

 private:
  friend class InboundLease;
  void run() noexcept;

  static constexpr int kLeaseNapMs = 1;
  static constexpr int kLongestLeaseNapMs = 4;
  // Even armed, the thread looks at the worker this often: should UCX ever signal no event for
  // an arrival, a peer waits for it this long instead of forever.
  static constexpr int kWatchdogMs = 100;

  UcxWorker *worker_ = nullptr;
  int pe_ = -1;
  int wake_fd_ = -1;  // eventfd written by stop()
  std::mutex drive_;  // held by whoever progresses the receiving worker
  // Bumped by application threads as they wait inside the library (InboundLease).
  std::atomic<std::uint64_t> pe_waits_{0};
  // The thread armed the worker and sleeps until it signals an arrival (true from the arming,
  // under drive_, until the thread wakes), rather than napping blind.
  std::atomic<bool> asleep_on_worker_{false};
  std::thread thread_;
  static std::atomic<ProgressThread *> running_;
};

// Held by an application thread for the length of one wait inside the library: progress()
// also drives the receiving worker once this thread has it (it tries again on every call while
// the progress thread holds it). Nested waits on one thread share the outer lease.
class InboundLease {
 public:
  // Tells the progress thread that this PE is inside the library (see ProgressThread::run),
  // even when what it waits for turns out to have arrived already.
  InboundLease() noexcept {
    if (ProgressThread *p = ProgressThread::running())
      p->pe_waits_.fetch_add(1, std::memory_order_relaxed);
  }
  InboundLease(const InboundLease &) = delete;
  InboundLease &operator=(const InboundLease &) = delete;
  ~InboundLease() {
    if (owner_) {
      // Hand the worker back drained when the thread sleeps on its descriptor: an arrival the
      // last pass read from a socket but did not dispatch would leave the socket quiet, and
      // the thread would not learn of it until its watchdog (a peer's flush waits that long
      // for an operation this PE holds). A thread that naps blind progresses the worker
      // before it arms it again. Otherwise what arrived since the last pass waits for the
      // next wait inside the library, which serves the worker first (a PE that keeps calling
      // the library serves other PEs at the start of its waits, where the drain added a
      // pass over a TCP worker to the end of each: 0.4 us of a 2-PE barrier across hosts).
      // Taken to send only, and nothing progressed it meanwhile: nothing to drain either.
      const bool drain = owner_->asleep_on_worker_.load(std::memory_order_relaxed) &&
                         !(sent_only_ && owner_->worker_->passes() == passes_at_hold_);
      for (int pass = 0; drain && pass < kDrainPasses && owner_->worker_->progress() != 0; ++pass) {
      }
      owner_->drive_.unlock();
      held_here_ = false;
    }
  }
  // Takes the receiving worker (waiting while the progress thread passes over it), to send on
  // it; true when this thread now has it (it may then use the worker until the lease ends).
  bool hold() noexcept {
    if (owner_ != nullptr || held_here_) return true;
    ProgressThread *p = ProgressThread::running();
    if (p == nullptr) return false;
    p->drive_.lock();
    owner_ = p;
    held_here_ = true;
    sent_only_ = true;
    passes_at_hold_ = p->worker_->passes();
    return true;
  }
  // The receiving worker while this thread has it, otherwise null.
  UcxWorker *held_worker() const noexcept {
    if (owner_ != nullptr) return owner_->worker_;
    ProgressThread *p = held_here_ ? ProgressThread::running() : nullptr;
    return p != nullptr ? p->worker_ : nullptr;
  }
  // Progresses the receiving worker if this thread may; returns the events handled.
  unsigned progress() noexcept {
    if (owner_ == nullptr) {
      ProgressThread *p = ProgressThread::running();
      if (p == nullptr) return 0;
      if (held_here_) return p->worker_->progress();  // an outer wait on this thread has it
      if (!p->drive_.try_lock()) return 0;
      owner_ = p;
      held_here_ = true;
    }
    return owner_->worker_->progress();
  }

 private:
  static constexpr int kDrainPasses = 64;
  ProgressThread *owner_ = nullptr;
  bool sent_only_ = false;  // taken by hold(), not by progress()
  std::uint64_t passes_at_hold_ = 0;
  static thread_local bool held_here_;
};

}  // namespace shoal::ucx
