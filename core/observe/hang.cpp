#include "observe/hang.hpp"

#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "ctx/context.hpp"
#include "log/log.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"
#include "transport/ucx_worker.hpp"

namespace shoal::observe::hang {
namespace {

// Never destroyed: a program that ends in exit() with the library running (shmem_global_exit,
// no shmem_finalize) must not run a joinable thread's destructor, which calls std::terminate,
// nor destroy the condition variable the thread waits on.
struct Watchdog {
  std::mutex mutex;
  std::condition_variable wake;
  bool stop = false;
  std::thread *thread = nullptr;
  // The watchdog's own UCX worker, connected to every PE, for the records it cannot map (PEs
  // of other nodes, SMA_SHARED_MEMORY=0); null when it maps them all. Only the watchdog thread
  // uses it once started. Taken from, and given back to, the runtime's spare workers, which
  // the runtime closes in its order at finalize.
  std::unique_ptr<ucx::UcxWorker> remote;
  Runtime *runtime = nullptr;
};
Watchdog &dog() {
  static Watchdog *d = new Watchdog;
  return *d;
}

std::uint64_t now_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

// PE pe's record as this process sees it (area_of), or null.
const Record *record_of(const Runtime &rt, int pe) noexcept {
  return reinterpret_cast<const Record *>(area_of(rt, pe));
}

// Where PE pe's record lies in its heap (the same offset on every PE).
std::uintptr_t remote_record(const Runtime &rt, int pe) noexcept {
  return rt.peers[static_cast<std::size_t>(pe)].base[kHeapSegment] +
         (reinterpret_cast<std::uintptr_t>(rt.observe_area) - rt.heap_base);
}

// How long the reporter waits for another node to answer: a PE that neither runs a progress
// thread nor waits inside the library does not (its line then says "unknown").
constexpr unsigned kRemoteLimitMs = 2000;

// PE pe's record read through UCX into `copy` (twice, until two reads agree on an even seq: the
// PE may be writing it meanwhile).
bool fetch_record(const Runtime &rt, ucx::UcxWorker &w, int pe, Record &copy) noexcept {
  std::uint64_t last_seq = 1;
  for (int attempt = 0; attempt < 4; ++attempt) {
    ucp_request_param_t param{};
    const ucs_status_ptr_t request = ucp_get_nbx(
        w.ep(pe), &copy, sizeof copy, remote_record(rt, pe), w.rkey(pe, kHeapSegment), &param);
    if (w.wait(request, "reading a PE's record for a hang report", kRemoteLimitMs) != Status::ok)
      return false;
    if (copy.seq % 2 == 0 && copy.seq == last_seq) return true;
    last_seq = copy.seq;
  }
  return false;
}

// The election on PE 0's record through UCX: true when this PE is the first.
bool elected_remotely(const Runtime &rt, ucx::UcxWorker &w) noexcept {
  std::uint64_t compare = 0, swap_in = static_cast<std::uint64_t>(rt.my_pe) + 1;
  ucp_request_param_t param{};
  param.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE | UCP_OP_ATTR_FIELD_REPLY_BUFFER;
  param.datatype = ucp_dt_make_contig(sizeof compare);
  param.reply_buffer = &swap_in;  // the value to swap in; on completion the old value
  const ucs_status_ptr_t request = ucp_atomic_op_nbx(
      w.ep(0), UCP_ATOMIC_OP_CSWAP, &compare, 1, remote_record(rt, 0) + offsetof(Record, reporter),
      w.rkey(0, kHeapSegment), &param);
  // Unanswered: report anyway (better twice than not at all).
  if (w.wait(request, "the hang report's election", kRemoteLimitMs) != Status::ok) return true;
  return swap_in == 0;
}

// Reads the value the variable awaited by PE pe holds now, through this process's mapping.
bool current_value(const Runtime &rt, int pe, const Fields &f, std::uint64_t &out) noexcept {
  if (f.addr == 0 || f.value_size == 0 || f.value_size > 8) return false;
  const void *addr = reinterpret_cast<const void *>(f.addr);
  const std::byte *p = pe == rt.my_pe
                           ? static_cast<const std::byte *>(addr)
                           : rma::mapped_memory(&shoal_ctx_default, addr, f.value_size, pe);
  if (p == nullptr) return false;
  out = 0;
  switch (f.value_size) {  // one atomic load of the variable's size
    case 1:
      out = __atomic_load_n(reinterpret_cast<const std::uint8_t *>(p), __ATOMIC_RELAXED);
      break;
    case 2:
      out = __atomic_load_n(reinterpret_cast<const std::uint16_t *>(p), __ATOMIC_RELAXED);
      break;
    case 4:
      out = __atomic_load_n(reinterpret_cast<const std::uint32_t *>(p), __ATOMIC_RELAXED);
      break;
    case 8:
      out = __atomic_load_n(reinterpret_cast<const std::uint64_t *>(p), __ATOMIC_RELAXED);
      break;
    default:
      return false;
  }
  return true;
}

// Prints where every PE is and ends the job. Only the first PE to get here (the election on
// PE 0's record, or on the lowest PE of the node whose record is readable) reports; the others
// return and leave the ending to it.
void report(Runtime &rt, const Fields &mine, std::uint64_t now, std::size_t timeout) {
  ucx::UcxWorker *remote = dog().remote.get();
  auto *ballot = const_cast<Record *>(record_of(rt, 0));
  std::uint64_t nobody = 0;
  const bool elected = ballot != nullptr
                           ? __atomic_compare_exchange_n(&ballot->reporter, &nobody,
                                                         static_cast<std::uint64_t>(rt.my_pe) + 1,
                                                         false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
                           : remote == nullptr || elected_remotely(rt, *remote);
  if (!elected) return;
  char head[256];
  std::snprintf(head, sizeof head,
                "shoal: hang: PE %d has waited %.1f s inside %s (SMA_HANG_TIMEOUT=%zu); where "
                "every PE is:\n",
                rt.my_pe, static_cast<double>(now - mine.entered_ns) / 1e9, mine.routine, timeout);
  std::string text = head;
  for (int pe = 0; pe < rt.n_pes; ++pe) {
    const Record *r = record_of(rt, pe);
    Record copy;
    if (r == nullptr && remote != nullptr && fetch_record(rt, *remote, pe, copy)) r = &copy;
    Fields f;
    const bool read = r != nullptr && read_record(r, f);
    std::uint64_t current = 0;
    const bool has_current = read && f.inside && current_value(rt, pe, f, current);
    text += "shoal: hang: " + describe(pe, read ? &f : nullptr, now, has_current, current) + "\n";
  }
  text += "shoal: hang: ending the job with status " + std::to_string(kExitStatus) + "\n";
  std::fflush(stdout);
  // One write: the lines of the report stay together among the other PEs' output.
  (void)!write(STDERR_FILENO, text.data(), text.size());
  note_job_ending();
  // PEs of other nodes lose their connections to this one as the launcher ends the job; told
  // first, they wait for it quietly instead of ending the job themselves with another status.
  if (remote != nullptr) remote->announce_job_end();
  const std::string why = "hang report: PE " + std::to_string(rt.my_pe) + " waited " +
                          std::to_string(timeout) + " s inside " + mine.routine;
  if (rt.bootstrap) rt.bootstrap->abort(kExitStatus, why.c_str());
  std::_Exit(kExitStatus);
}

void watch(Runtime *rt, std::size_t timeout) {
  pthread_setname_np(pthread_self(), kWatchdogThreadName);
  const std::uint64_t limit_ns = static_cast<std::uint64_t>(timeout) * 1'000'000'000u;
  const auto *own = reinterpret_cast<const Record *>(rt->observe_area);
  Watchdog &d = dog();
  std::unique_lock lock(d.mutex);
  while (!d.wake.wait_for(lock, std::chrono::milliseconds(250), [&d] { return d.stop; })) {
    Fields f;
    if (!read_record(own, f) || !f.inside) continue;
    const std::uint64_t now = now_ns();
    if (now - f.entered_ns < limit_ns) continue;
    lock.unlock();
    report(*rt, f, now, timeout);
    return;  // another PE reports: the launcher ends this one
  }
}

}  // namespace

void start_watchdog(Runtime &rt, std::size_t timeout_seconds) {
  stop_watchdog();
  Watchdog &d = dog();
  bool all_mapped = true;
  for (int pe = 0; pe < rt.n_pes; ++pe) all_mapped = all_mapped && record_of(rt, pe) != nullptr;
  if (!all_mapped) {
    auto &pool = rt.spare_workers[0];
    if (!pool.empty()) {
      d.remote = std::move(pool.back());
      pool.pop_back();
    } else {
      d.remote = std::make_unique<ucx::UcxWorker>();
      if (d.remote->init(rt.ucx, ucx::UcxWorker::Threads::single, rt.n_pes) != Status::ok ||
          rt.connect_worker(*d.remote) != Status::ok) {
        SMA_LOG_WARN("core",
                     "SMA_HANG_TIMEOUT: no UCX worker for the watchdog: hang reports show PEs "
                     "of other nodes as unknown");
        d.remote.reset();
      }
    }
    d.runtime = d.remote ? &rt : nullptr;
  }
  {
    std::lock_guard lock(d.mutex);
    d.stop = false;
  }
  try {
    d.thread = new std::thread(watch, &rt, timeout_seconds);
  } catch (const std::exception &e) {
    SMA_LOG_WARN("core", "SMA_HANG_TIMEOUT: no watchdog thread ({}): hangs are not reported",
                 e.what());
  }
}

void stop_watchdog() noexcept {
  Watchdog &d = dog();
  {
    std::lock_guard lock(d.mutex);
    d.stop = true;
  }
  d.wake.notify_all();
  if (d.thread != nullptr) {
    if (d.thread->joinable()) d.thread->join();
    delete d.thread;
    d.thread = nullptr;
  }
  if (d.remote) d.runtime->spare_workers[0].push_back(std::move(d.remote));
  d.runtime = nullptr;
}

}  // namespace shoal::observe::hang
