// The bookkeeping of raises that ride in the next store message to their PE
// (core/rma/pending_raises.hpp): when one waits, when it must go alone, which message takes it;
// and what a raise does to its word (core/rma/raised_word.hpp).
#include "rma/pending_raises.hpp"
#include "rma/raised_word.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace shoal::rma {
namespace {

constexpr std::uint64_t kSlack = 4;

TEST(PendingRaises, WaitsForTheNextMessageToItsPe) {
  PendingRaises raises;
  std::uint64_t word = 0;
  EXPECT_FALSE(raises.note(&word, 1, 3, kSlack));
  EXPECT_FALSE(raises.take(2)) << "a message to another PE takes nothing";
  const auto rider = raises.take(3);
  ASSERT_TRUE(rider);
  EXPECT_EQ(rider->pe, 3);
  EXPECT_EQ(rider->word, &word);
  EXPECT_EQ(rider->value, 1u);
  EXPECT_FALSE(raises.take(3)) << "a raise rides once";
}

TEST(PendingRaises, GoesAloneSlackPastTheLastSent) {
  PendingRaises raises;
  std::uint64_t word = 0;
  for (std::uint64_t v = 1; v < kSlack; ++v) EXPECT_FALSE(raises.note(&word, v, 1, kSlack)) << v;
  const auto alone = raises.note(&word, kSlack, 1, kSlack);
  ASSERT_TRUE(alone);
  EXPECT_EQ(alone->value, kSlack);
  EXPECT_FALSE(raises.take(1)) << "what went alone does not ride again";
  // Counting restarts from what went: one that rode resets it too.
  EXPECT_FALSE(raises.note(&word, kSlack + 1, 1, kSlack));
  ASSERT_TRUE(raises.take(1));
  for (std::uint64_t v = kSlack + 2; v < 2 * kSlack + 1; ++v)
    EXPECT_FALSE(raises.note(&word, v, 1, kSlack)) << v;
  EXPECT_TRUE(raises.note(&word, 2 * kSlack + 1, 1, kSlack));
}

TEST(PendingRaises, RidesTheLatestValue) {
  PendingRaises raises;
  std::uint64_t word = 0;
  EXPECT_FALSE(raises.note(&word, 1, 0, kSlack));
  EXPECT_FALSE(raises.note(&word, 2, 0, kSlack));
  EXPECT_FALSE(raises.note(&word, 1, 0, kSlack)) << "an older value changes nothing";
  const auto rider = raises.take(0);
  ASSERT_TRUE(rider);
  EXPECT_EQ(rider->value, 2u);
}

TEST(PendingRaises, WordsBeyondRoomGoAlone) {
  PendingRaises raises;
  std::uint64_t words[PendingRaises::kWords + 1] = {};
  for (std::size_t i = 0; i < PendingRaises::kWords; ++i)
    EXPECT_FALSE(raises.note(&words[i], 1, static_cast<int>(i), kSlack)) << i;
  const auto alone = raises.note(&words[PendingRaises::kWords], 1, 9, kSlack);
  ASSERT_TRUE(alone);
  EXPECT_EQ(alone->word, &words[PendingRaises::kWords]);
  // Once one has ridden, its place takes a new word.
  ASSERT_TRUE(raises.take(0));
  EXPECT_FALSE(raises.note(&words[PendingRaises::kWords], 2, 9, kSlack));
  EXPECT_TRUE(raises.take(9));
}

TEST(PendingRaises, ForgetsWordsOfMemoryGivenBack) {
  PendingRaises raises;
  std::uint64_t slot[8] = {}, other = 0;
  EXPECT_FALSE(raises.note(&slot[2], 1, 5, kSlack));
  EXPECT_FALSE(raises.note(&other, 1, 5, kSlack));
  raises.forget(slot, sizeof slot);
  const auto rider = raises.take(5);
  ASSERT_TRUE(rider);
  EXPECT_EQ(rider->word, &other) << "the forgotten word must not ride";
  EXPECT_FALSE(raises.take(5));
}

// A word that changed hands (its team's slot given to the next team) counts from the new
// user's zero: the new user's first values wait to ride like any first ones.
TEST(PendingRaises, ANewUserCountsFromItsZero) {
  PendingRaises raises;
  std::uint64_t word = 0;
  for (std::uint64_t v = 1; v < kSlack; ++v)
    EXPECT_FALSE(raises.note(&word, raised_value(1, v), 2, kSlack)) << v;
  EXPECT_FALSE(raises.note(&word, raised_value(2, 1), 2, kSlack))
      << "not kSlack past the old user's last one sent: a new count";
  const auto rider = raises.take(2);
  ASSERT_TRUE(rider);
  EXPECT_EQ(rider->value, raised_value(2, 1)) << "only the new user's value rides";
  EXPECT_FALSE(raises.take(2));
  for (std::uint64_t v = 2; v <= kSlack; ++v)
    EXPECT_FALSE(raises.note(&word, raised_value(2, v), 2, kSlack)) << v;
  EXPECT_TRUE(raises.note(&word, raised_value(2, kSlack + 1), 2, kSlack));
}

// What a message's raise does to the word it names (raised_word.hpp).
TEST(RaisedWord, RaisesOnlyItsUsersCount) {
  std::uint64_t word = raised_value(7, 0);
  EXPECT_TRUE(raise_word(&word, raised_value(7, 3)));
  EXPECT_FALSE(raise_word(&word, raised_value(7, 2))) << "an older raise that arrives late";
  EXPECT_EQ(word, raised_value(7, 3));
  EXPECT_FALSE(raise_word(&word, raised_value(6, 9))) << "the previous user's raise";
  EXPECT_FALSE(raise_word(&word, raised_value(8, 1))) << "a user the word does not have yet";
  EXPECT_EQ(word, raised_value(7, 3));
  EXPECT_EQ(raise_user(word), 7u);
  EXPECT_EQ(raise_count(word), 3u);
  // Users wrap at kRaiseUserBits bits; counts keep their own bits.
  EXPECT_EQ(raise_user(raised_value(kRaiseUserMask + 2, 5)), 1u);
  EXPECT_EQ(raise_count(raised_value(kRaiseUserMask, kRaiseCountMask)), kRaiseCountMask);
}

}  // namespace
}  // namespace shoal::rma
