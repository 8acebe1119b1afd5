// The value parsers of the environment variables (core/config/parsers): every spelling each
// accepts and what it makes of it, and the values each must refuse (shmem_init then stops with
// "invalid value", tests/unit/config_load_test.cpp).
#include "config/parsers.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

namespace {

using namespace shoal::cfg;
using shoal::log::Level;
using shoal::ucx::AmoRoute;

constexpr std::size_t kKiB = std::size_t{1} << 10, kMiB = kKiB << 10, kGiB = kMiB << 10;

std::size_t size_of(const std::string &text) {
  std::size_t out = 12345;
  EXPECT_TRUE(parse_size(text, out)) << "'" << text << "'";
  return out;
}

TEST(ConfigParsers, SizeUnitsArePowersOf1024InEitherCase) {
  EXPECT_EQ(size_of("0"), 0u);
  EXPECT_EQ(size_of("1"), 1u);
  EXPECT_EQ(size_of("4096"), 4096u);
  EXPECT_EQ(size_of("4k"), 4 * kKiB);
  EXPECT_EQ(size_of("4K"), 4 * kKiB);
  EXPECT_EQ(size_of("8M"), 8 * kMiB);
  EXPECT_EQ(size_of("8m"), 8 * kMiB);
  EXPECT_EQ(size_of("256M"), 256 * kMiB);  // the default SHMEM_SYMMETRIC_SIZE
  EXPECT_EQ(size_of("1G"), kGiB);
  EXPECT_EQ(size_of("3g"), 3 * kGiB);
  EXPECT_EQ(size_of("2T"), 2 * (kGiB << 10));
  EXPECT_EQ(size_of("2t"), 2 * (kGiB << 10));
}

TEST(ConfigParsers, SizeFractionsRoundUpToWholeBytes) {
  EXPECT_EQ(size_of("1.5k"), 1536u);
  EXPECT_EQ(size_of(".5k"), 512u);
  EXPECT_EQ(size_of("0.5"), 1u);
  EXPECT_EQ(size_of("1.0001k"), 1025u);
  EXPECT_EQ(size_of("0.25G"), 256 * kMiB);
  EXPECT_EQ(size_of("1e3"), 1000u);
}

TEST(ConfigParsers, SizeIgnoresLeadingSpaceAndWhatFollowsTheSuffix) {
  EXPECT_EQ(size_of("  64k"), 64 * kKiB);
  EXPECT_EQ(size_of("64kB"), 64 * kKiB);
  EXPECT_EQ(size_of("2MiB"), 2 * kMiB);
  EXPECT_EQ(size_of("64 bytes"), 64u);  // a space ends the number, as a suffix would
}

TEST(ConfigParsers, SizeUpToButNotIncluding2To63) {
  EXPECT_EQ(size_of("8388607t"), (std::size_t{1} << 63) - (std::size_t{1} << 40));
  std::size_t out = 0;
  EXPECT_FALSE(parse_size("8388608t", out));  // 2^63
  EXPECT_FALSE(parse_size("16e18", out));
}

TEST(ConfigParsers, SizeRefusals) {
  for (const char *text : {"", "   ", "abc", "k", "-4M", "-0", "- 4", "64x", "64q", "8E", "1e400",
                           "nan", "inf", "-inf", "=4", "<=4"}) {
    std::size_t out = 0;
    EXPECT_FALSE(parse_size(text, out)) << "'" << text << "' gave " << out;
  }
}

TEST(ConfigParsers, ScratchSizeIsAtLeastOneKiB) {
  std::size_t out = 0;
  EXPECT_TRUE(parse_scratch_size("1k", out));
  EXPECT_EQ(out, kKiB);
  EXPECT_TRUE(parse_scratch_size("1024", out));
  EXPECT_TRUE(parse_scratch_size("128k", out));  // the default
  EXPECT_EQ(out, 128 * kKiB);
  EXPECT_FALSE(parse_scratch_size("1023", out));
  EXPECT_FALSE(parse_scratch_size("12", out));
  EXPECT_FALSE(parse_scratch_size("0.99k", out));
  EXPECT_FALSE(parse_scratch_size("big", out));
  EXPECT_FALSE(parse_scratch_size("", out));
}

TEST(ConfigParsers, BooleanSpellingsInAnyCase) {
  for (const char *on : {"1", "y", "Y", "yes", "YES", "true", "True", "on", "ON"}) {
    bool out = false;
    EXPECT_TRUE(parse_bool(on, out)) << on;
    EXPECT_TRUE(out) << on;
  }
  for (const char *off : {"0", "n", "N", "no", "No", "false", "FALSE", "off", "Off"}) {
    bool out = true;
    EXPECT_TRUE(parse_bool(off, out)) << off;
    EXPECT_FALSE(out) << off;
  }
}

TEST(ConfigParsers, BooleanRefusals) {
  for (const char *text : {"", "2", "-1", "maybe", "x", "yess", "enable", " 1", "1 ", "00"}) {
    bool out = false;
    EXPECT_FALSE(parse_bool(text, out)) << "'" << text << "'";
  }
}

TEST(ConfigParsers, PresenceIsOnForAnyValueButTheSpellingsOfOff) {
  for (const char *on : {"", "1", "yes", "2", "anything", "verbose"}) {
    bool out = false;
    EXPECT_TRUE(parse_presence(on, out)) << "'" << on << "'";
    EXPECT_TRUE(out) << "'" << on << "'";
  }
  for (const char *off : {"0", "no", "false", "OFF", "n"}) {
    bool out = true;
    EXPECT_TRUE(parse_presence(off, out)) << off;
    EXPECT_FALSE(out) << off;
  }
}

TEST(ConfigParsers, CountFrom1To1024) {
  for (const auto &[text, value] :
       {std::pair<const char *, std::size_t>{"1", 1}, {"64", 64}, {"1024", 1024}, {"007", 7}}) {
    std::size_t out = 0;
    EXPECT_TRUE(parse_count(text, out)) << text;
    EXPECT_EQ(out, value) << text;
  }
  for (const char *text : {"0", "1025", "5000", "", "-1", "+1", "1k", " 1", "1 ", "1.0", "x",
                           "18446744073709551617", "99999999999999999999999"}) {
    std::size_t out = 0;
    EXPECT_FALSE(parse_count(text, out)) << "'" << text << "'";
  }
}

TEST(ConfigParsers, TextIsTakenAsIs) {
  std::string out = "old";
  EXPECT_TRUE(parse_text("  binomial:bytes<=64k , linear ", out));
  EXPECT_EQ(out, "  binomial:bytes<=64k , linear ");
  EXPECT_TRUE(parse_text("", out));
  EXPECT_EQ(out, "");
}

TEST(ConfigParsers, LogLevels) {
  const std::pair<const char *, Level> names[] = {{"trace", Level::trace}, {"debug", Level::debug},
                                                  {"info", Level::info},   {"warn", Level::warn},
                                                  {"error", Level::error}, {"DEBUG", Level::debug},
                                                  {"Warn", Level::warn}};
  for (const auto &[text, level] : names) {
    Level out = level == Level::trace ? Level::error : Level::trace;
    EXPECT_TRUE(parse_log_level(text, out)) << text;
    EXPECT_EQ(out, level) << text;
  }
  for (const char *text : {"", "loud", "warning", "err", "fatal", "0", " info"}) {
    Level out = Level::warn;
    EXPECT_FALSE(parse_log_level(text, out)) << "'" << text << "'";
  }
}

TEST(ConfigParsers, AmoRoutes) {
  const std::pair<const char *, AmoRoute> names[] = {{"auto", AmoRoute::automatic},
                                                     {"cpu", AmoRoute::cpu},
                                                     {"ucx", AmoRoute::ucx},
                                                     {"AUTO", AmoRoute::automatic},
                                                     {"Ucx", AmoRoute::ucx}};
  for (const auto &[text, route] : names) {
    AmoRoute out = route == AmoRoute::cpu ? AmoRoute::ucx : AmoRoute::cpu;
    EXPECT_TRUE(parse_amo_route(text, out)) << text;
    EXPECT_EQ(out, route) << text;
  }
  for (const char *text : {"", "gpu", "automatic", "nic", "1"}) {
    AmoRoute out = AmoRoute::automatic;
    EXPECT_FALSE(parse_amo_route(text, out)) << "'" << text << "'";
  }
}

// SMA_PROFILE: off, a table, json:PATH, or both; the text is kept for the observer to read.
TEST(ConfigParsers, Profile) {
  for (const char *text : {"", "0", "1", "table", "json:/tmp/p.json", "1,json:p.json"}) {
    std::string out = "unchanged";
    EXPECT_TRUE(parse_profile(text, out)) << "'" << text << "'";
    EXPECT_EQ(out, text);
  }
  for (const char *text : {"2", "json:", "csv:/tmp/p", "table,xml"}) {
    std::string out;
    EXPECT_FALSE(parse_profile(text, out)) << "'" << text << "'";
  }
}

// SMA_HANG_TIMEOUT: whole seconds, 0 for off.
TEST(ConfigParsers, Seconds) {
  std::size_t out = 7;
  EXPECT_TRUE(parse_seconds("0", out));
  EXPECT_EQ(out, 0u);
  EXPECT_TRUE(parse_seconds("30", out));
  EXPECT_EQ(out, 30u);
  EXPECT_TRUE(parse_seconds("1000000", out));
  for (const char *text : {"", "-1", "1.5", "2s", "1000001", "99999999999"})
    EXPECT_FALSE(parse_seconds(text, out)) << "'" << text << "'";
}

}  // namespace
