#include "collectives/collect/counted.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

namespace shoal::coll {

namespace {

// A message: a flag (1: the blocks follow the counts), the count of each PE it holds, blocks.
using Word = std::uint64_t;

constexpr std::size_t header_bytes(int pes) noexcept {
  return sizeof(Word) * (1 + static_cast<std::size_t>(pes));
}

// The bytes of the blocks of PEs first .. first + pes - 1; the largest size_t on overflow.
std::size_t run_bytes(const std::size_t *counts, int first, int pes,
                      std::size_t elem_size) noexcept {
  std::size_t sum = 0;
  for (int p = first; p < first + pes; ++p) {
    std::size_t bytes = 0;
    if (__builtin_mul_overflow(counts[p], elem_size, &bytes) ||
        __builtin_add_overflow(sum, bytes, &sum))
      return std::numeric_limits<std::size_t>::max();
  }
  return sum;
}

// Whether the message holding the blocks of PEs first .. first + pes - 1 carries them, in an
// exchange whose longest messages hold `longest` PEs: when they, scaled to `longest` PEs, fit one
// message with its counts. So a PE sends its block in the doubling's first round only if blocks
// like it would fit the last round's messages, and does not send it for nothing where they
// would not (4 PEs on 4 hosts, 64 KiB blocks: 183 us where the counts alone and then
// node_leaders take 161).
bool carries(const std::size_t *counts, int first, int pes, int longest,
             std::size_t elem_size) noexcept {
  std::size_t scaled = 0;
  if (__builtin_mul_overflow(run_bytes(counts, first, pes, elem_size),
                             static_cast<std::size_t>(longest / pes), &scaled))
    return false;
  return scaled <= kCountedMessageMaxBytes - header_bytes(longest);
}

bool is_power_of_two(int v) noexcept { return (v & (v - 1)) == 0; }

}  // namespace

bool CountedExchange::applies(const Channel &ch) noexcept {
  const int n = ch.size();
  if (n < 2 || n > kCountedMaxPes || !ch.has_mailboxes()) return false;
  for (int p = 0; p < n; ++p)
    for (int q = p + 1; q < n; ++q)
      if (ch.memory_group(p) == ch.memory_group(q)) return false;
  return true;
}

void CountedExchange::send(Channel &ch, int peer, const Run &run, bool with_blocks,
                           std::size_t elem_size, const std::size_t *counts) {
  const std::size_t header = header_bytes(run.pes);
  const std::size_t bytes = with_blocks ? run_bytes(counts, run.first, run.pes, elem_size) : 0;
  message_.resize(header + bytes);
  std::byte *at = message_.data();
  const Word flag = with_blocks ? 1 : 0;
  std::memcpy(at, &flag, sizeof flag);
  for (int i = 0; i < run.pes; ++i) {
    const Word count = counts[run.first + i];
    std::memcpy(at + sizeof(Word) * (1 + static_cast<std::size_t>(i)), &count, sizeof count);
  }
  if (bytes != 0) std::memcpy(at + header, run.at, bytes);
  ch.send_stashed(ch.next_outbox(peer), message_.data(), message_.size(), peer);
}

CountedExchange::Run CountedExchange::receive(Channel &ch, int peer, int first, int pes,
                                              std::size_t *counts) {
  ch.await(peer);
  const std::byte *message = ch.stashed(ch.next_inbox(peer));
  Word flag = 0;
  std::memcpy(&flag, message, sizeof flag);
  for (int i = 0; i < pes; ++i) {
    Word count = 0;
    std::memcpy(&count, message + sizeof(Word) * (1 + static_cast<std::size_t>(i)), sizeof count);
    counts[first + i] = static_cast<std::size_t>(count);
  }
  return {first, pes, flag != 0 ? message + header_bytes(pes) : nullptr};
}

// In the round of distance d, PE i holds PEs [i & ~(d-1), + d) and exchanges them with i ^ d;
// the runs are merged in held_ for the next round, and the last round's two are placed.
void CountedExchange::exchange_doubling(Channel &ch, const Run &own, std::size_t elem_size,
                                        std::size_t *counts) {
  const int n = ch.size(), me = ch.rank();
  Run mine = own;
  for (int d = 1; d < n; d *= 2) {
    const int partner = me ^ d;
    send(ch, partner, mine, mine.at != nullptr && carries(counts, mine.first, d, n / 2, elem_size),
         elem_size, counts);
    const Run theirs = receive(ch, partner, partner & ~(d - 1), d, counts);
    if (2 * d == n) {
      runs_ = {mine, theirs};
      return;
    }
    const Run &low = mine.first < theirs.first ? mine : theirs;
    const Run &high = mine.first < theirs.first ? theirs : mine;
    if (mine.at == nullptr || theirs.at == nullptr) {
      mine = {low.first, 2 * d, nullptr};
      continue;
    }
    const std::size_t low_bytes = run_bytes(counts, low.first, d, elem_size);
    const std::size_t high_bytes = run_bytes(counts, high.first, d, elem_size);
    merged_.resize(low_bytes + high_bytes);
    if (low_bytes != 0) std::memcpy(merged_.data(), low.at, low_bytes);
    if (high_bytes != 0) std::memcpy(merged_.data() + low_bytes, high.at, high_bytes);
    std::swap(held_, merged_);  // mine.at may point into the old held_
    mine = {low.first, 2 * d, held_.data()};
  }
}

void CountedExchange::exchange_direct(Channel &ch, const Run &own, std::size_t elem_size,
                                      std::size_t *counts) {
  const int n = ch.size(), me = ch.rank();
  const bool with_block = carries(counts, me, 1, 1, elem_size);
  // Starting after this PE, so that not every PE sends to team PE 0 first.
  for (int d = 1; d < n; ++d) send(ch, (me + d) % n, own, with_block, elem_size, counts);
  runs_ = {own};
  for (int d = 1; d < n; ++d) {
    const int peer = (me + n - d) % n;
    runs_.push_back(receive(ch, peer, peer, 1, counts));
  }
}

bool CountedExchange::exchange(Channel &ch, const void *source, std::size_t nelems,
                               std::size_t elem_size, std::size_t *counts) {
  const int n = ch.size(), me = ch.rank();
  counts[me] = nelems;
  const Run own{me, 1, static_cast<const std::byte *>(source)};
  if (is_power_of_two(n))
    exchange_doubling(ch, own, elem_size, counts);
  else
    exchange_direct(ch, own, elem_size, counts);
  // Every PE knows every count now, so each tells alike whether every message carried its
  // blocks: those of the doubling hold runs of 1, 2, 4... PEs from multiples of their length.
  const int longest = is_power_of_two(n) ? n / 2 : 1;
  for (int d = 1; d <= longest; d *= 2)
    for (int first = 0; first < n; first += d)
      if (!carries(counts, first, d, longest, elem_size)) return false;
  return true;
}

void CountedExchange::place(void *dest, std::size_t elem_size,
                            const std::size_t *counts) const noexcept {
  for (const Run &run : runs_) {
    std::size_t before = 0;
    for (int p = 0; p < run.first; ++p) before += counts[p];
    const std::size_t bytes = run_bytes(counts, run.first, run.pes, elem_size);
    // memmove: this PE's own block comes from source, which a program may have placed in dest.
    if (bytes != 0)
      std::memmove(static_cast<std::byte *>(dest) + before * elem_size, run.at, bytes);
  }
}

}  // namespace shoal::coll
