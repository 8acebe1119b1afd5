// A raised word: a symmetric 64-bit word that messages only ever raise (pending_raises.hpp,
// store_message.cpp), such as a broadcast reader's acknowledgements in its writer's slot. Its
// top kRaiseUserBits bits name the word's user (a team's generation on its collective slot),
// the rest count. A raise takes effect only while the word names the raise's user: a raise
// still in flight when the memory changed hands (its team destroyed, the slot bound to the next
// team, which set the word to its own user's zero) is dropped, and cannot move the count of the
// word's next user. Raises of one user may arrive out of order (they travel on different
// connections), so the word keeps the largest.
#pragma once

#include <cstdint>

namespace shoal::rma {

constexpr int kRaiseCountBits = 48;
constexpr int kRaiseUserBits = 64 - kRaiseCountBits;
constexpr std::uint64_t kRaiseCountMask = (std::uint64_t{1} << kRaiseCountBits) - 1;
constexpr std::uint64_t kRaiseUserMask = (std::uint64_t{1} << kRaiseUserBits) - 1;

// The value of a raised word: `count` for `user` (its low kRaiseUserBits bits).
constexpr std::uint64_t raised_value(std::uint64_t user, std::uint64_t count) noexcept {
  return (user & kRaiseUserMask) << kRaiseCountBits | (count & kRaiseCountMask);
}
constexpr std::uint64_t raise_user(std::uint64_t value) noexcept {
  return value >> kRaiseCountBits;
}
constexpr std::uint64_t raise_count(std::uint64_t value) noexcept {
  return value & kRaiseCountMask;
}

// Sets *word to value if the word names the same user and counts less; returns whether it did.
// Atomic against the word's other raises and against a store of a new user's zero.
inline bool raise_word(std::uint64_t *word, std::uint64_t value) noexcept {
  std::uint64_t now = __atomic_load_n(word, __ATOMIC_RELAXED);
  while (raise_user(now) == raise_user(value) && now < value)
    if (__atomic_compare_exchange_n(word, &now, value, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
      return true;
  return false;
}

}  // namespace shoal::rma
