// Reading the environment into a Config (core/config/config.cpp): the defaults, which spelling
// of a variable wins, where a value came from, and the message for a bad value, which
// shmem_init prints before the job stops (tests/errors checks it through a whole job).
#include "config/config.hpp"

#include <gtest/gtest.h>
#include <stdio.h>
#include <stdlib.h>

#include <cstddef>
#include <string>
#include <vector>

extern char **environ;

namespace {

using shoal::Config;
using shoal::log::Level;

constexpr std::size_t kMiB = std::size_t{1} << 20;

// Every test starts from an environment without SMA_* and SHMEM_* variables, whatever the
// shell that started ctest had set.
class ConfigLoad : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<std::string> names;
    for (char **e = environ; e && *e; ++e) {
      const std::string entry(*e);
      const std::string name = entry.substr(0, entry.find('='));
      if (name.starts_with("SMA_") || name.starts_with("SHMEM_")) names.push_back(name);
    }
    for (const std::string &name : names) unsetenv(name.c_str());
  }
  void TearDown() override { SetUp(); }

  static void set(const char *name, const char *value) { setenv(name, value, 1); }

  // A fresh Config loaded from the environment; fails the test if load() refuses it.
  static Config loaded() {
    Config config;
    const shoal::Failure f = config.load();
    EXPECT_TRUE(f.ok()) << f.why();
    return config;
  }

  // The message load() gives for the environment as it is (which it must refuse).
  static std::string refusal() {
    Config config;
    const shoal::Failure f = config.load();
    EXPECT_FALSE(f.ok());
    EXPECT_EQ(f.code(), shoal::Status::invalid_param);
    return f.why();
  }
};

TEST_F(ConfigLoad, DefaultsOfTheTable) {
  const Config c = loaded();
  EXPECT_EQ(c.symmetric_size, 256 * kMiB);
  EXPECT_FALSE(c.version);
  EXPECT_FALSE(c.info);
  EXPECT_FALSE(c.debug);
  EXPECT_EQ(c.log_level, Level::warn);
  EXPECT_TRUE(c.shared_memory);
  EXPECT_TRUE(c.progress_thread);
  EXPECT_EQ(c.amo_route, shoal::ucx::AmoRoute::automatic);
  EXPECT_TRUE(c.bootstrap_collect);
  EXPECT_TRUE(c.warn_unknown_env);
  EXPECT_EQ(c.barrier_algorithm, "auto");
  EXPECT_EQ(c.bcast_algorithm, "auto");
  EXPECT_EQ(c.scan_algorithm, "auto");
  EXPECT_EQ(c.teams_max, 64u);
  EXPECT_EQ(c.coll_scratch_size, 128u << 10);
  EXPECT_EQ(c.source_of("SYMMETRIC_SIZE"), "SMA_SYMMETRIC_SIZE");  // unset: the SMA_ name
}

TEST_F(ConfigLoad, ValuesOfBothSpellings) {
  set("SMA_SYMMETRIC_SIZE", "8M");
  set("SHMEM_LOG_LEVEL", "debug");  // an implementation knob: only SMA_LOG_LEVEL is read
  set("SMA_SHARED_MEMORY", "off");
  set("SHMEM_BCAST_ALGORITHM", "binomial:bytes<=64k,linear");
  set("SMA_TEAMS_MAX", "3");
  set("SMA_COLL_SCRATCH_SIZE", "1.5k");
  set("SMA_AMO_ROUTE", "CPU");
  set("SMA_WARN_UNKNOWN_ENV", "0");
  const Config c = loaded();
  EXPECT_EQ(c.symmetric_size, 8 * kMiB);
  EXPECT_EQ(c.source_of("SYMMETRIC_SIZE"), "SMA_SYMMETRIC_SIZE");
  EXPECT_EQ(c.log_level, Level::warn);
  EXPECT_FALSE(c.shared_memory);
  EXPECT_EQ(c.bcast_algorithm, "binomial:bytes<=64k,linear");
  EXPECT_EQ(c.source_of("BCAST_ALGORITHM"), "SHMEM_BCAST_ALGORITHM");
  EXPECT_EQ(c.teams_max, 3u);
  EXPECT_EQ(c.coll_scratch_size, 1536u);
  EXPECT_EQ(c.amo_route, shoal::ucx::AmoRoute::cpu);
  EXPECT_FALSE(c.warn_unknown_env);
}

TEST_F(ConfigLoad, TheSpecificationsSpellingWins) {
  set("SMA_SYMMETRIC_SIZE", "8M");
  set("SHMEM_SYMMETRIC_SIZE", "1G");
  const Config c = loaded();
  EXPECT_EQ(c.symmetric_size, 1024 * kMiB);
  EXPECT_EQ(c.source_of("SYMMETRIC_SIZE"), "SHMEM_SYMMETRIC_SIZE");
}

TEST_F(ConfigLoad, DebugLowersTheLogLevel) {
  set("SHMEM_DEBUG", "1");
  EXPECT_EQ(loaded().log_level, Level::debug);
  set("SMA_LOG_LEVEL", "trace");  // already below debug: kept
  EXPECT_EQ(loaded().log_level, Level::trace);
  set("SHMEM_DEBUG", "no");
  set("SMA_LOG_LEVEL", "error");
  EXPECT_EQ(loaded().log_level, Level::error);
}

TEST_F(ConfigLoad, PresenceVariablesAreOnWhenSetEvenEmpty) {
  set("SHMEM_INFO", "");
  set("SMA_VERSION", "yes please");
  const Config c = loaded();
  EXPECT_TRUE(c.info);
  EXPECT_TRUE(c.version);
}

TEST_F(ConfigLoad, ABadValueNamesItsVariableValueAndWhatIsExpected) {
  set("SMA_SYMMETRIC_SIZE", "abc");
  EXPECT_EQ(refusal(),
            "invalid value 'abc' for SMA_SYMMETRIC_SIZE: expected symmetric heap size per PE in "
            "bytes; suffixes k, m, g, t (powers of 1024), fractions allowed");
  set("SHMEM_SYMMETRIC_SIZE", "-4M");  // the spelling read, not the other one
  EXPECT_TRUE(refusal().starts_with("invalid value '-4M' for SHMEM_SYMMETRIC_SIZE: expected "));
}

TEST_F(ConfigLoad, EveryKindOfBadValue) {
  const std::pair<const char *, const char *> cases[] = {
      {"SMA_LOG_LEVEL", "loud"},        {"SMA_SHARED_MEMORY", "2"},
      {"SMA_PROGRESS_THREAD", "maybe"}, {"SMA_WARN_UNKNOWN_ENV", "x"},
      {"SMA_BOOTSTRAP_COLLECT", ""},    {"SMA_AMO_ROUTE", "gpu"},
      {"SMA_TEAMS_MAX", "0"},           {"SMA_TEAMS_MAX", "5000"},
      {"SMA_COLL_SCRATCH_SIZE", "12"},  {"SMA_COLL_SCRATCH_SIZE", "big"},
      {"SHMEM_SYMMETRIC_SIZE", "64x"},  {"SMA_PROFILE", "csv:/tmp/p"},
      {"SMA_HANG_TIMEOUT", "2s"},
  };
  for (const auto &[name, value] : cases) {
    SetUp();
    set(name, value);
    const std::string message = refusal();
    EXPECT_TRUE(message.starts_with("invalid value '" + std::string(value) + "' for " + name +
                                    ": expected "))
        << name << "=" << value << ": " << message;
  }
}

TEST_F(ConfigLoad, AlgorithmRulesAreCheckedLaterNotHere) {
  // Free text for the registry (tests/unit/rule_parser_test.cpp); load() takes anything.
  set("SMA_REDUCE_ALGORITHM", "nonesuch:pes<<4");
  EXPECT_EQ(loaded().reduce_algorithm, "nonesuch:pes<<4");
}

TEST_F(ConfigLoad, PrintShowsEveryVariableWithDefaultAndValue) {
  set("SMA_SYMMETRIC_SIZE", "8M");
  const Config c = loaded();
  char *text = nullptr;
  std::size_t length = 0;
  FILE *out = open_memstream(&text, &length);
  ASSERT_NE(out, nullptr);
  c.print(out);
  std::fclose(out);
  const std::string printed(text, length);
  free(text);
  EXPECT_NE(printed.find("SHMEM_SYMMETRIC_SIZE (or SMA_SYMMETRIC_SIZE)"), std::string::npos);
  EXPECT_NE(printed.find("default 256M     value 8388608"), std::string::npos) << printed;
  EXPECT_NE(printed.find("SMA_LOG_LEVEL"), std::string::npos);
  EXPECT_NE(printed.find("value warn"), std::string::npos);
  EXPECT_NE(printed.find("SMA_COLL_SCRATCH_SIZE"), std::string::npos);
}

}  // namespace
