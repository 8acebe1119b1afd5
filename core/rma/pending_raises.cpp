#include "rma/pending_raises.hpp"

#include "rma/raised_word.hpp"

namespace shoal::rma {

PendingRaises &pending_raises() noexcept {
  static PendingRaises raises;
  return raises;
}

std::optional<PendingRaises::Raise> PendingRaises::note(std::uint64_t *word, std::uint64_t value,
                                                        int pe, std::uint64_t slack) noexcept {
  const std::lock_guard<std::mutex> lock(mutex_);
  Entry *entry = nullptr, *idle = nullptr;
  for (Entry &e : entries_) {
    if (e.pe == pe && e.word == word) {
      entry = &e;
      break;
    }
    if (idle == nullptr && (e.pe < 0 || !e.waiting())) idle = &e;
  }
  if (entry == nullptr) {
    if (idle == nullptr) return Raise{pe, word, value};  // no room: send it alone
    *idle = Entry{pe, word, 0, 0};
    entry = idle;
  }
  if (raise_user(entry->value) != raise_user(value)) {
    // A new user of the word (or a fresh entry): its count starts at its zero, none sent.
    if (entry->waiting()) waiting_.fetch_sub(1, std::memory_order_relaxed);
    entry->value = entry->sent = raised_value(raise_user(value), 0);
  }
  if (value <= entry->value) return std::nullopt;  // nothing new
  const bool was_waiting = entry->waiting();
  entry->value = value;
  if (value - entry->sent >= slack) {
    entry->sent = value;
    if (was_waiting) waiting_.fetch_sub(1, std::memory_order_relaxed);
    return Raise{pe, word, value};
  }
  if (!was_waiting) waiting_.fetch_add(1, std::memory_order_relaxed);
  return std::nullopt;
}

std::optional<PendingRaises::Raise> PendingRaises::take(int pe) noexcept {
  if (waiting_.load(std::memory_order_relaxed) == 0) return std::nullopt;
  const std::lock_guard<std::mutex> lock(mutex_);
  for (Entry &e : entries_)
    if (e.pe == pe && e.waiting()) {
      e.sent = e.value;
      waiting_.fetch_sub(1, std::memory_order_relaxed);
      return Raise{pe, e.word, e.value};
    }
  return std::nullopt;
}

void PendingRaises::forget(const void *begin, std::size_t bytes) noexcept {
  const auto from = reinterpret_cast<std::uintptr_t>(begin);
  const std::lock_guard<std::mutex> lock(mutex_);
  for (Entry &e : entries_)
    if (e.pe >= 0 && reinterpret_cast<std::uintptr_t>(e.word) - from < bytes) {
      if (e.waiting()) waiting_.fetch_sub(1, std::memory_order_relaxed);
      e = Entry{};
    }
}

void PendingRaises::clear() noexcept {
  const std::lock_guard<std::mutex> lock(mutex_);
  entries_.fill(Entry{});
  waiting_.store(0, std::memory_order_relaxed);
}

}  // namespace shoal::rma
