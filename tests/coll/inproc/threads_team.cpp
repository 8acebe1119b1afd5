#include "threads_team.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace shoal::coll::inproc {
namespace {

constexpr std::size_t kAlign = 64;
std::size_t align_up(std::size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// How long a wait may take before the test gives up on the algorithm (a lost notification).
constexpr auto kWaitLimit = std::chrono::seconds(10);

// A waiting PE yields, so that the PE it waits for gets the core (16 PEs on 2 cores). A yield
// beside a process that computes (another job) hands that process a whole time slice, though:
// the tests of broadcast and reduce, 2 s alone, took over 150 s beside two busy loops (scan 49
// s, barrier and collect 30). So a yield that took longer than kLostYield, longer than the PEs
// of these tests compute at a time, makes the thread's waits sleep on a futex instead for
// kNoYield: a sleeping PE leaves the core to whoever has work, and the PE that stores to the
// word through the channel wakes it (on the word's low half: the words only ever grow, by far
// less than 2^32 in one wait). Beside two busy loops the tests now take 1-17 s. On an idle
// machine futexes alone made them 3-7x slower, and a threshold of 0.5 ms reduce's 1.5x.
// Algorithms also store some words themselves (the cache lines of broadcast/cache_line): a sleep
// ends after kFutexNap anyway and looks again.
constexpr auto kLostYield = std::chrono::milliseconds(1);
constexpr auto kNoYield = std::chrono::milliseconds(100);
constexpr long kFutexNapNs = 50'000;
thread_local std::chrono::steady_clock::time_point no_yield_until{};
// Threads asleep in wait(): a store wakes sleepers only if there are any.
std::atomic<int> sleepers{0};

int *futex_word(const std::uint64_t *word) noexcept {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the low half is at the word's address");
  return reinterpret_cast<int *>(const_cast<std::uint64_t *>(word));
}

// Stores value into word and wakes the threads asleep on it. Both sides order their store before
// their load (seq_cst): a waiter that counted itself after this load read the new value, one that
// counted itself before is found here.
void store_and_wake(std::uint64_t *word, std::uint64_t value) noexcept {
  __atomic_store_n(word, value, __ATOMIC_SEQ_CST);
  if (sleepers.load(std::memory_order_seq_cst) != 0)
    syscall(SYS_futex, futex_word(word), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
}

}  // namespace

const char *mode_name(Mode mode) noexcept {
  switch (mode) {
    case Mode::mapped:
      return "mapped";
    case Mode::remote:
      return "remote";
    case Mode::nodes:
      return "nodes";
    case Mode::nodes3:
      return "nodes3";
    case Mode::nodes4:
      return "nodes4";
  }
  return "?";
}

// ---- the team ---------------------------------------------------------------------------------

Team::Team(int n, Mode mode, std::size_t scratch_bytes, std::size_t heap_bytes, int job_pes)
    : n_(n), mode_(mode), heap_bytes_(align_up(heap_bytes)) {
  const auto pes = static_cast<std::size_t>(n);
  const std::size_t box_bytes = box_bytes_for(job_pes == 0 ? n : job_pes);
  const std::size_t words = align_up(pes * sizeof(std::uint64_t));
  const std::size_t masks = align_up(kMaskWords * sizeof(std::uint64_t));
  const std::size_t boxes = pes * 2 * box_bytes, lines = pes * kLinesPerPeer * kLineBytes;
  const std::size_t entry = bcast_entry_bytes_for(n);
  const std::size_t entries = entry == 0 ? 0 : pes * kBcastLines * (entry + kLineBytes);
  const std::size_t scratch = align_up(scratch_bytes);
  heap_offset_ = 3 * words + masks + boxes + lines + entries + scratch;
  region_bytes_ = heap_offset_ + heap_bytes_;
  for (int pe = 0; pe < n; ++pe) {
    auto *base = static_cast<std::byte *>(std::aligned_alloc(kAlign, region_bytes_));
    std::memset(base, 0, region_bytes_);
    regions_.push_back(base);
    auto slot = std::make_unique<Slot>();
    slot->index = 0;
    slot->arrived = reinterpret_cast<std::uint64_t *>(base);
    slot->granted = reinterpret_cast<std::uint64_t *>(base + words);
    slot->counts = reinterpret_cast<std::uint64_t *>(base + 2 * words);
    slot->masks = reinterpret_cast<std::uint64_t *>(base + 3 * words);
    slot->boxes = base + 3 * words + masks;
    slot->box_peers = n;
    slot->box_bytes = box_bytes;
    slot->lines = slot->boxes + boxes;
    slot->line_peers = n;
    slot->bcast_entries = slot->lines + lines;
    slot->bcast_entry_bytes = entry;
    slot->scratch = slot->bcast_entries + entries;
    slot->scratch_bytes = scratch_bytes;
    slot->reset_local(pes);
    channels_.push_back(std::make_unique<ThreadsChannel>(*this, pe, *slot));
    slots_.push_back(std::move(slot));
    stashes_.push_back(std::make_unique<Stash>());
  }
}

Team::~Team() {
  channels_.clear();
  for (std::byte *region : regions_) std::free(region);
}

std::byte *Team::heap(int pe) const noexcept {
  return regions_[static_cast<std::size_t>(pe)] + heap_offset_;
}

std::size_t Team::offset(const void *p, int pe) const noexcept {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  const auto base = reinterpret_cast<std::uintptr_t>(regions_[static_cast<std::size_t>(pe)]);
  if (at - base >= region_bytes_) {
    std::fprintf(stderr, "PE %d: %p is not a symmetric address of this PE\n", pe, p);
    std::abort();
  }
  return at - base;
}

std::byte *Team::translate(const void *p, int from, int to) const noexcept {
  return regions_[static_cast<std::size_t>(to)] + offset(p, from);
}

void Team::run(const std::function<void(int pe)> &body) {
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(n_));
  for (int pe = 0; pe < n_; ++pe) threads.emplace_back(body, pe);
  for (std::thread &t : threads) t.join();
}

// ---- the channel ------------------------------------------------------------------------------

ThreadsChannel::ThreadsChannel(Team &team, int rank, Slot &slot) noexcept
    : Channel(rank, team.size(), slot, nullptr),
      team_(team),
      acknowledgements_(static_cast<std::size_t>(team.size())) {}

std::byte *ThreadsChannel::mapped(const void *symmetric, int peer) const noexcept {
  if (peer == rank()) return static_cast<std::byte *>(const_cast<void *>(symmetric));
  if (team_.node_of(peer) != team_.node_of(rank())) return nullptr;
  return team_.translate(symmetric, rank(), peer);
}

int ThreadsChannel::memory_group(int peer) const noexcept { return team_.node_of(peer); }

bool ThreadsChannel::crowded() const noexcept {
  return static_cast<unsigned>(team_.size()) > std::thread::hardware_concurrency();
}

void ThreadsChannel::put(void *dest, const void *source, std::size_t bytes, int peer) noexcept {
  if (bytes == 0) return;
  if (peer == rank()) {
    if (dest != source) std::memmove(dest, source, bytes);
    return;
  }
  std::byte *at = team_.translate(dest, rank(), peer);
  const auto *from = static_cast<const std::byte *>(source);
  if (team_.node_of(peer) == team_.node_of(rank()))
    std::memcpy(at, from, bytes);
  else  // the source may change once put returns: keep a copy
    pending_.push_back({at, std::vector<std::byte>(from, from + bytes)});
}

void ThreadsChannel::put_strided(void *dest, const void *source, std::ptrdiff_t dest_stride,
                                 std::ptrdiff_t source_stride, std::size_t nelems,
                                 std::size_t elem_size, int peer) noexcept {
  auto *d = static_cast<std::byte *>(dest);
  const auto *s = static_cast<const std::byte *>(source);
  for (std::size_t i = 0; i < nelems; ++i)
    put(d + i * static_cast<std::size_t>(dest_stride) * elem_size,
        s + i * static_cast<std::size_t>(source_stride) * elem_size, elem_size, peer);
}

void ThreadsChannel::flush() noexcept {
  for (Pending &p : pending_) std::memcpy(p.at, p.data.data(), p.data.size());
  pending_.clear();
}

void ThreadsChannel::signal(std::uint64_t *word_here, std::uint64_t value, int peer, void *dest,
                            const void *source, std::size_t bytes, bool) noexcept {
  put(dest, source, bytes, peer);
  flush();  // everything put before, to any PE, is visible before the word moves
  send_acknowledgement(peer);
  auto *word = reinterpret_cast<std::uint64_t *>(team_.translate(word_here, rank(), peer));
  store_and_wake(word, value);
}

void ThreadsChannel::signal_stashed(std::uint64_t *word_here, std::uint64_t value, int peer,
                                    const void *place, const void *source, std::size_t bytes,
                                    bool) noexcept {
  if (bytes > kStashMaxBytes) {
    std::fprintf(stderr, "PE %d: signal_stashed of %zu bytes (the limit is %zu)\n", rank(), bytes,
                 kStashMaxBytes);
    std::abort();
  }
  flush();
  {
    Team::Stash &stash = team_.stash(peer);
    const std::lock_guard<std::mutex> lock(stash.mutex);
    std::vector<std::byte> &buffer = stash.buffers[team_.offset(place, rank())];
    // The protocol keeps the reader out of the buffer until the word moves: growing it is safe.
    if (buffer.size() < bytes) buffer.resize(bytes);
    if (bytes != 0) std::memcpy(buffer.data(), source, bytes);
  }
  send_acknowledgement(peer);
  auto *word = reinterpret_cast<std::uint64_t *>(team_.translate(word_here, rank(), peer));
  store_and_wake(word, value);
}

void ThreadsChannel::acknowledge(std::uint64_t *word_here, std::uint64_t value, int peer,
                                 std::uint64_t slack) noexcept {
  auto *word = reinterpret_cast<std::uint64_t *>(team_.translate(word_here, rank(), peer));
  Acknowledgement &held = acknowledgements_[static_cast<std::size_t>(peer)];
  if (mapped(word_here, peer) != nullptr || value - held.sent >= slack) {
    store_and_wake(word, value);
    held = {nullptr, value, value};
    return;
  }
  held.word = word;
  held.value = value;
}

void ThreadsChannel::send_acknowledgement(int peer) noexcept {
  Acknowledgement &held = acknowledgements_[static_cast<std::size_t>(peer)];
  if (held.word == nullptr) return;
  store_and_wake(held.word, held.value);
  held.sent = held.value;
  held.word = nullptr;
}

const std::byte *ThreadsChannel::stashed(const void *place) const noexcept {
  Team::Stash &stash = team_.stash(rank());
  const std::lock_guard<std::mutex> lock(stash.mutex);
  const auto found = stash.buffers.find(team_.offset(place, rank()));
  return found == stash.buffers.end() ? nullptr : found->second.data();
}

void ThreadsChannel::wait(const std::uint64_t *word, std::uint64_t value) noexcept {
  for (int spin = 0; spin < 64; ++spin)
    if (__atomic_load_n(word, __ATOMIC_ACQUIRE) >= value) return;
  const auto start = std::chrono::steady_clock::now();
  const timespec nap{0, kFutexNapNs};
  for (unsigned round = 1;; ++round) {
    const auto now = std::chrono::steady_clock::now();
    if (round < 256 && now >= no_yield_until) {
      std::this_thread::yield();
      if (std::chrono::steady_clock::now() - now > kLostYield)
        no_yield_until = std::chrono::steady_clock::now() + kNoYield;
    } else {
      sleepers.fetch_add(1, std::memory_order_seq_cst);
      // Read after counting this sleeper (store_and_wake): a store not seen here finds it.
      const std::uint64_t seen = __atomic_load_n(word, __ATOMIC_SEQ_CST);
      if (seen < value)
        syscall(SYS_futex, futex_word(word), FUTEX_WAIT_PRIVATE, static_cast<int>(seen), &nap,
                nullptr, 0);
      sleepers.fetch_sub(1, std::memory_order_relaxed);
    }
    if (__atomic_load_n(word, __ATOMIC_ACQUIRE) >= value) return;
    if (round % 64 == 0 && std::chrono::steady_clock::now() - start > kWaitLimit) {
      std::fprintf(stderr,
                   "PE %d of %d: waited %lld s for the word at offset %zu of its region to reach "
                   "%llu (it holds %llu): a notification or credit was lost\n",
                   rank(), size(), static_cast<long long>(kWaitLimit.count()),
                   team_.offset(word, rank()), static_cast<unsigned long long>(value),
                   static_cast<unsigned long long>(__atomic_load_n(word, __ATOMIC_ACQUIRE)));
      std::abort();
    }
  }
}

}  // namespace shoal::coll::inproc
