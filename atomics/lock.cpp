// Distributed locks as an MCS queue lock (Mellor-Crummey and Scott, 1991) built on the AMOs.
//
// Why MCS: the spec promises first-come, first-served, and a queue gives exactly that; and each
// waiter spins on a word in its own memory, so waiting costs no network traffic and the lock is
// handed over with a single AMO to the next PE.
//
// The word layout. The user's symmetric `long` (8-byte aligned, 0 before first use) is read as
// two aligned 32-bit halves, each only ever touched through 32-bit AMOs (amo::execute), so the
// two halves never interfere:
//   tail  (the lower address)  meaningful on the lock's home PE only: pe+1 of the last PE in
//                              the queue, or 0 when no PE holds or waits for the lock.
//   node  (the higher address) meaningful on every PE: this PE's queue node.
//            bit 31 kQueued   this PE holds the lock or waits for it (set and cleared by itself)
//            bit 30 kWaiting  this PE waits: set by itself, cleared by its predecessor
//            bits 0-29        pe+1 of its successor in the queue, 0 while it has none; written
//                             once (OR) by the successor
// An idle node is 0, so the spec's initial 0 is a valid state, and "holds" is kQueued without
// kWaiting, which lets clear_lock reject a PE that does not hold the lock and set_lock reject
// a PE that asks twice, without any other state in the process.
//
// The home PE is a hash of the lock's offset in its symmetric segment (not its address, which
// PIE and the heap mappings make differ between PEs), so programs with many locks spread the
// tail traffic over the PEs instead of piling it on PE 0.
//
// The protocol (all AMOs sequentially consistent; "me" is this PE):
//   set:   node |= kQueued|kWaiting; pred = swap(tail@home, me+1);
//          no pred: node &= ~kWaiting, the lock is ours.
//          else:    node@pred |= me+1 (link behind it), then spin locally until kWaiting clears.
//   test:  node |= kQueued; compare_swap(tail@home, 0 -> me+1): if it was 0 we hold the lock,
//          else node = 0 again (nobody can have seen our node: we never entered the queue).
//   clear: quiet (the critical section's puts are complete before anyone else enters), then
//          compare_swap(tail@home, me+1 -> 0). If the tail was still us, nobody waits and we
//          are done. Otherwise a successor has swapped itself in and will link itself into our
//          node shortly: wait for its pe+1 to appear, then node@succ &= ~kWaiting to hand over.
//          Our node is reset to 0 before the hand-over, when no PE can write it any more.
// set and test progress UCX once before enqueuing. Without the progress thread
// (SMA_PROGRESS_THREAD=0) other PEs' AMOs on this PE run only while it progresses, and a PE
// looping on a lock homed here (set, clear, set, ...) with local AMOs only would keep
// enqueuing ahead of requests that have long arrived, and starve them.
// Fetching AMOs are used for the hand-over so that it has reached the successor when
// clear_lock returns, whatever this PE does next; the link needs no such care because the
// linking PE keeps progressing UCX while it waits.
#include "atomics/lock.hpp"

#include <cstdint>

#include <fmt/format.h>

#include "atomics/amo.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"
#include "status.hpp"
#include "wait.hpp"

namespace shoal::lock {
namespace {

using amo::Op;
using Word = std::uint32_t;

constexpr Word kQueued = Word{1} << 31;
constexpr Word kWaiting = Word{1} << 30;
constexpr Word kNextMask = kWaiting - 1;

// The lock as seen by one call: its two halves, this PE and the routine to name in errors.
struct Lock {
  Word *tail;
  Word *node;
  int me;
  const char *routine;
};

Word amo_on(const Lock &l, Op op, Word *word, Word value, Word compare, int pe) noexcept {
  Word old = 0;
  amo::execute<Word>(&shoal_ctx_default, op, word, value, compare, pe, &old, l.routine);
  return old;
}

Word load_acquire(const Word *word) noexcept { return __atomic_load_n(word, __ATOMIC_ACQUIRE); }

template <typename Condition>
void wait_for(Condition &&done) noexcept {
  wait_until(*shoal_ctx_default.worker, done);
}

void progress_once() noexcept { shoal::progress_once(*shoal_ctx_default.worker); }

// The checks every routine starts with; the AMO layer adds "not symmetric" on first use.
Lock prologue(long *lock, const char *routine) noexcept {
  rma::check_ctx(&shoal_ctx_default, routine);
  if (reinterpret_cast<std::uintptr_t>(lock) % alignof(long) != 0)
    fatal(fmt::format("{}: the lock {} is not aligned to its {}-byte type (long)", routine,
                      static_cast<void *>(lock), alignof(long)));
  if (static_cast<Word>(g_runtime->n_pes) > kNextMask)  // pe+1 must fit the successor field
    fatal(fmt::format("{}: locks support at most {} PEs", routine, kNextMask));
  auto *halves = reinterpret_cast<Word *>(lock);
  return {halves, halves + 1, g_runtime->my_pe, routine};
}

// Valid only once an AMO on the lock has checked that it is symmetric.
int home_pe(const Lock &l) noexcept {
  const Runtime &rt = *g_runtime;
  const auto a = reinterpret_cast<std::uintptr_t>(l.tail);
  const std::uint64_t key = a - rt.heap_base < rt.heap_size
                                ? a - rt.heap_base
                                : (a - rt.data_base) | (std::uint64_t{1} << 63);
  const std::uint64_t mixed = (key >> 3) * 0x9E3779B97F4A7C15u;  // Fibonacci hashing
  return static_cast<int>((mixed >> 32) % static_cast<std::uint64_t>(rt.n_pes));
}

// Marks this PE's node as queued (plus `extra`); returns the node's previous value, after
// reporting a lock whose node was not idle for any reason other than this PE being queued.
Word enter(const Lock &l, Word extra) noexcept {
  const Word before = amo_on(l, Op::fetch_or, l.node, kQueued | extra, 0, l.me);
  if (before != 0 && (before & kQueued) == 0)
    fatal(
        fmt::format("{}: the lock {} on PE {} holds {:#x}: it was not 0 before first use or "
                    "was changed by other means than the lock routines",
                    l.routine, static_cast<void *>(l.tail), l.me, before));
  return before;
}

}  // namespace

void set(long *lock, const char *routine) noexcept {
  const Lock l = prologue(lock, routine);
  if (enter(l, kWaiting) & kQueued)
    fatal(
        fmt::format("{}: PE {} already holds or waits for the lock {} (a PE cannot take a "
                    "lock twice), or the lock was not 0 before first use",
                    routine, l.me, static_cast<void *>(lock)));
  progress_once();
  const Word pred = amo_on(l, Op::swap, l.tail, static_cast<Word>(l.me + 1), 0, home_pe(l));
  if (pred == 0) {
    amo_on(l, Op::bit_and, l.node, ~kWaiting, 0, l.me);
    return;
  }
  amo_on(l, Op::bit_or, l.node, static_cast<Word>(l.me + 1), 0, static_cast<int>(pred - 1));
  wait_for([&] { return (load_acquire(l.node) & kWaiting) == 0; });
}

int test(long *lock, const char *routine) noexcept {
  const Lock l = prologue(lock, routine);
  if (enter(l, 0) & kQueued) return 1;  // this PE already holds or waits for it: it is set
  progress_once();
  const Word tail = amo_on(l, Op::compare_swap, l.tail, static_cast<Word>(l.me + 1), 0, home_pe(l));
  if (tail == 0) return 0;
  amo_on(l, Op::set, l.node, 0, 0, l.me);
  return 1;
}

void clear(long *lock, const char *routine) noexcept {
  const Lock l = prologue(lock, routine);
  const Word state = amo_on(l, Op::fetch, l.node, 0, 0, l.me);
  if ((state & (kQueued | kWaiting)) != kQueued)
    fatal(fmt::format("{}: PE {} does not hold the lock {}", routine, l.me,
                      static_cast<void *>(lock)));
  rma::quiet(&shoal_ctx_default, routine);
  const Word me1 = static_cast<Word>(l.me + 1);
  if (amo_on(l, Op::compare_swap, l.tail, 0, me1, home_pe(l)) == me1) {
    amo_on(l, Op::set, l.node, 0, 0, l.me);  // nobody queued behind us
    return;
  }
  wait_for([&] { return (load_acquire(l.node) & kNextMask) != 0; });
  const Word next = load_acquire(l.node) & kNextMask;
  amo_on(l, Op::set, l.node, 0, 0, l.me);
  amo_on(l, Op::fetch_and, l.node, ~kWaiting, 0, static_cast<int>(next - 1));
}

}  // namespace shoal::lock
