// The rule lists of SMA_<COLLECTIVE>_ALGORITHM (collectives/rule_parser): what each form of
// rule and condition selects, which rule wins, and the exact words of every refusal, which the
// job's error message (tests/errors) and docs/collectives.md promise.
#include "collectives/rule_parser.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace {

using shoal::coll::Algorithm;
using shoal::coll::Collective;
namespace rules = shoal::coll::rules;
using rules::Rule;

// Stand-ins for the library's algorithms, one per row of algorithms.def, with the real names
// (so the lists in the messages are the real ones) and no run function.
#define SMA_ALGORITHM(collective, name, summary) \
  const Algorithm collective##_##name{#name, Collective::collective, nullptr, nullptr};
#include "collectives/algorithms.def"
#undef SMA_ALGORITHM
const Algorithm *const kAll[] = {
#define SMA_ALGORITHM(collective, name, summary) &collective##_##name,
#include "collectives/algorithms.def"
#undef SMA_ALGORITHM
};

std::vector<const Algorithm *> of(Collective c) {
  std::vector<const Algorithm *> out;
  for (const Algorithm *a : kAll)
    if (a->collective == c) out.push_back(a);
  return out;
}

const std::vector<const Algorithm *> kBroadcast = of(Collective::broadcast);
constexpr std::size_t kMaxBytes = std::numeric_limits<std::size_t>::max();
constexpr int kMaxPes = std::numeric_limits<int>::max();

// The rules of `text` for broadcast; fails the test if they do not parse.
std::vector<Rule> parsed(const std::string &text) {
  std::vector<Rule> out;
  const shoal::Failure f = rules::parse(kBroadcast, text, out);
  EXPECT_TRUE(f.ok()) << text << ": " << f.why();
  return out;
}

// What parse() says about text it must refuse (for broadcast).
std::string problem_with(const std::string &text) {
  std::vector<Rule> out;
  const shoal::Failure f = rules::parse(kBroadcast, text, out);
  EXPECT_FALSE(f.ok()) << text;
  return f.why();
}

const Algorithm *choose(const std::vector<Rule> &rs, int n_pes, std::size_t bytes) {
  return rules::first_fit(rs, n_pes, bytes, [](const Algorithm &) { return true; });
}

const std::string kExpected = " (expected bytes<=SIZE, bytes>SIZE, pes<=N or pes>N)";

TEST(RuleParser, OneNameTakesEveryCall) {
  const auto rs = parsed("binomial");
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].algorithm, &broadcast_binomial);
  EXPECT_TRUE(rs[0].matches(1, 0));
  EXPECT_TRUE(rs[0].matches(kMaxPes, kMaxBytes));
}

TEST(RuleParser, NamesAreTheCollectivesOwn) {
  // Every algorithm of every collective is accepted by its own name, and only there.
  for (int c = 0; c < static_cast<int>(Collective::count); ++c) {
    const auto mine = of(static_cast<Collective>(c));
    for (const Algorithm *a : mine) {
      std::vector<Rule> out;
      const shoal::Failure f = rules::parse(mine, a->name, out);
      ASSERT_TRUE(f.ok()) << a->name << ": " << f.why();
      ASSERT_EQ(out.size(), 1u);
      EXPECT_EQ(out[0].algorithm, a);
    }
  }
  EXPECT_EQ(problem_with("ring"), "unknown algorithm 'ring'");  // collect's, not broadcast's
  EXPECT_EQ(problem_with("dissemination"), "unknown algorithm 'dissemination'");
}

TEST(RuleParser, WhiteSpaceAroundRulesNamesAndValues) {
  const auto rs = parsed("  linear : pes<= 4 ,\tbinomial:bytes<=64k & pes>2 , scatter_allgather ");
  ASSERT_EQ(rs.size(), 3u);
  EXPECT_EQ(rs[0].algorithm, &broadcast_linear);
  EXPECT_EQ(rs[0].max_pes, 4);
  EXPECT_EQ(rs[1].algorithm, &broadcast_binomial);
  EXPECT_EQ(rs[1].max_bytes, 64u << 10);
  EXPECT_EQ(rs[1].min_pes, 3);
  EXPECT_EQ(rs[2].algorithm, &broadcast_scatter_allgather);
}

TEST(RuleParser, BytesAtMostIncludesTheBound) {
  const Rule r = parsed("binomial:bytes<=64k").at(0);
  EXPECT_TRUE(r.matches(8, 0));
  EXPECT_TRUE(r.matches(8, 65536));
  EXPECT_FALSE(r.matches(8, 65537));
}

TEST(RuleParser, BytesAboveExcludesTheBound) {
  const Rule r = parsed("linear:bytes>1k").at(0);
  EXPECT_FALSE(r.matches(8, 1024));
  EXPECT_TRUE(r.matches(8, 1025));
  EXPECT_TRUE(r.matches(8, kMaxBytes));
}

TEST(RuleParser, PesAtMostAndAbove) {
  const Rule at_most = parsed("linear:pes<=4").at(0);
  EXPECT_TRUE(at_most.matches(1, 0));
  EXPECT_TRUE(at_most.matches(4, 0));
  EXPECT_FALSE(at_most.matches(5, 0));
  const Rule above = parsed("linear:pes>4").at(0);
  EXPECT_FALSE(above.matches(4, 0));
  EXPECT_TRUE(above.matches(5, 0));
  EXPECT_TRUE(above.matches(kMaxPes, 0));
}

TEST(RuleParser, SizesTakeTheSuffixesOfTheOtherSizes) {
  EXPECT_EQ(parsed("linear:bytes<=100").at(0).max_bytes, 100u);
  EXPECT_EQ(parsed("linear:bytes<=2k").at(0).max_bytes, 2048u);
  EXPECT_EQ(parsed("linear:bytes<=2K").at(0).max_bytes, 2048u);
  EXPECT_EQ(parsed("linear:bytes<=3m").at(0).max_bytes, 3u << 20);
  EXPECT_EQ(parsed("linear:bytes<=1g").at(0).max_bytes, std::size_t{1} << 30);
  EXPECT_EQ(parsed("linear:bytes<=1.5k").at(0).max_bytes, 1536u);
  EXPECT_EQ(parsed("linear:bytes>0").at(0).min_bytes, 1u);
}

TEST(RuleParser, ConditionsOfOneRuleAllHold) {
  const Rule r = parsed("linear:pes>2&bytes>1k&bytes<=4k&pes<=8").at(0);
  EXPECT_TRUE(r.matches(3, 1025));
  EXPECT_TRUE(r.matches(8, 4096));
  EXPECT_FALSE(r.matches(2, 2048));  // too few PEs
  EXPECT_FALSE(r.matches(9, 2048));  // too many
  EXPECT_FALSE(r.matches(4, 1024));  // too small
  EXPECT_FALSE(r.matches(4, 4097));  // too large
}

TEST(RuleParser, FirstMatchingRuleWins) {
  // docs/collectives.md's example.
  const auto rs = parsed("linear:pes<=2,binomial:bytes<=64k,scatter_allgather");
  for (std::size_t bytes : {std::size_t{0}, std::size_t{64} << 10, std::size_t{1} << 30})
    EXPECT_EQ(choose(rs, 2, bytes), &broadcast_linear) << bytes;
  EXPECT_EQ(choose(rs, 3, 0), &broadcast_binomial);
  EXPECT_EQ(choose(rs, 8, 64u << 10), &broadcast_binomial);
  EXPECT_EQ(choose(rs, 8, (64u << 10) + 1), &broadcast_scatter_allgather);
  // An earlier rule hides a later one for the calls both take.
  const auto hidden = parsed("binomial,linear:pes<=2");
  EXPECT_EQ(choose(hidden, 2, 0), &broadcast_binomial);
}

TEST(RuleParser, NoMatchingRuleLeavesTheChoiceToTheBuiltInRules) {
  const auto rs = parsed("linear:pes<=2,binomial:bytes>1m");
  EXPECT_EQ(choose(rs, 4, 100), nullptr);
}

TEST(RuleParser, ARuleWhoseAlgorithmCannotServeIsPassedOver) {
  const auto rs = parsed("direct,cache_line:bytes<=56,binomial");
  const std::set<const Algorithm *> refusing = {&broadcast_direct};
  const auto serves = [&](const Algorithm &a) { return refusing.count(&a) == 0; };
  EXPECT_EQ(rules::first_fit(rs, 4, 8, serves), &broadcast_cache_line);
  EXPECT_EQ(rules::first_fit(rs, 4, 57, serves), &broadcast_binomial);
  EXPECT_EQ(rules::first_fit(rs, 4, 8, [](const Algorithm &) { return false; }), nullptr);
}

TEST(RuleParser, ParsingAgainReplacesTheRules) {
  std::vector<Rule> out = {Rule{}, Rule{}, Rule{}};
  ASSERT_TRUE(rules::parse(kBroadcast, "linear", out).ok());
  EXPECT_EQ(out.size(), 1u);
}

TEST(RuleParser, EmptyRules) {
  for (const char *text : {"", "  ", "binomial,", ",binomial", "binomial,,linear",
                           "binomial, ,linear", ":pes<=2", " :bytes>1"})
    EXPECT_EQ(problem_with(text), "an empty rule") << "'" << text << "'";
}

TEST(RuleParser, UnknownNames) {
  EXPECT_EQ(problem_with("nonesuch"), "unknown algorithm 'nonesuch'");
  EXPECT_EQ(problem_with("Binomial"), "unknown algorithm 'Binomial'");  // names are lower case
  EXPECT_EQ(problem_with("binomial,fast:pes<=2"), "unknown algorithm 'fast'");
  // `auto` is a whole value (the registry's), not a rule.
  EXPECT_EQ(problem_with("linear:pes<=2,auto"), "unknown algorithm 'auto'");
  EXPECT_EQ(problem_with("linear pes<=2"), "unknown algorithm 'linear pes<=2'");
}

TEST(RuleParser, BadConditions) {
  const std::pair<const char *, const char *> cases[] = {
      {"binomial:", ""},
      {"binomial:bytes<=4&", ""},
      {"binomial:&pes>1", ""},
      {"binomial:pes<<4", "pes<<4"},
      {"binomial:pes<4", "pes<4"},
      {"binomial:pes>=4", "pes>=4"},
      {"binomial:pes=4", "pes=4"},
      {"binomial:pes==4", "pes==4"},
      {"binomial:pes>", "pes>"},
      {"binomial:pes<=", "pes<="},
      {"binomial:pes<=-1", "pes<=-1"},
      {"binomial:pes<=4k", "pes<=4k"},  // a team size takes no suffix
      {"binomial:pes<=1.5", "pes<=1.5"},
      {"binomial:pes<=0x4", "pes<=0x4"},
      {"binomial:bytes<=1q", "bytes<=1q"},
      {"binomial:bytes<=", "bytes<="},
      {"binomial:bytes>=4", "bytes>=4"},
      {"binomial:bytes<=-1", "bytes<=-1"},
      {"binomial:bytes<=k", "bytes<=k"},
      {"binomial:bytes <=4", "bytes <=4"},  // the operator follows the word
      {"binomial:BYTES<=4", "BYTES<=4"},
      {"binomial:size<=4", "size<=4"},
      {"binomial:pesky>4", "pesky>4"},
      {"binomial:bytes<=4:pes<=2", "bytes<=4:pes<=2"},
      {"binomial:pes<=2|bytes>1", "pes<=2|bytes>1"},
  };
  for (const auto &[text, condition] : cases)
    EXPECT_EQ(problem_with(text), "bad condition '" + std::string(condition) + "'" + kExpected)
        << text;
}

TEST(RuleParser, TheFirstProblemIsTheOneReported) {
  EXPECT_EQ(problem_with("linear:pes<<2,nonesuch"), "bad condition 'pes<<2'" + kExpected);
  EXPECT_EQ(problem_with("nonesuch,linear:pes<<2"), "unknown algorithm 'nonesuch'");
}

TEST(RuleParser, ErrorMessageNamesVariableValueProblemAndAlgorithms) {
  // The words tests/errors expects from shmem_init for a bad SMA_BCAST_ALGORITHM.
  const std::string problem = problem_with("binomial:bytes<=1q");
  EXPECT_EQ(rules::error_message("SMA_BCAST_ALGORITHM", "binomial:bytes<=1q", problem, "broadcast",
                                 kBroadcast),
            "SMA_BCAST_ALGORITHM='binomial:bytes<=1q': bad condition 'bytes<=1q'" + kExpected +
                "; the broadcast algorithms are: binomial, linear, scatter_allgather, "
                "cache_line, direct (or auto)");
  EXPECT_EQ(rules::error_message("SHMEM_BARRIER_ALGORITHM", "nosuch", "unknown algorithm 'nosuch'",
                                 "barrier", of(Collective::barrier)),
            "SHMEM_BARRIER_ALGORITHM='nosuch': unknown algorithm 'nosuch'; the barrier algorithms "
            "are: dissemination, binomial, node_leaders, linear (or auto)");
}

TEST(RuleParser, UniversalLastRule) {
  EXPECT_TRUE(rules::ends_with_universal_rule(parsed("binomial")));
  EXPECT_TRUE(rules::ends_with_universal_rule(parsed("linear:pes<=2,binomial")));
  EXPECT_FALSE(rules::ends_with_universal_rule({}));
  EXPECT_FALSE(rules::ends_with_universal_rule(parsed("binomial,linear:pes<=2")));
  EXPECT_FALSE(rules::ends_with_universal_rule(parsed("binomial:bytes>0")));
  EXPECT_FALSE(rules::ends_with_universal_rule(parsed("binomial:bytes<=1g")));
  EXPECT_FALSE(rules::ends_with_universal_rule(parsed("binomial:pes>1")));
  // An algorithm that may refuse a call cannot be the last resort, conditions or not.
  const Algorithm picky{
      "picky", Collective::broadcast,
      [](const shoal::coll::Channel &, const shoal::coll::Args &) { return true; }, nullptr};
  const Algorithm *const with_picky[] = {&picky};
  std::vector<Rule> rs;
  ASSERT_TRUE(rules::parse(with_picky, "picky", rs).ok());
  EXPECT_FALSE(rules::ends_with_universal_rule(rs));
  // Nor can a plug-in's (its applies() is the plug-in's, not the null pointer here).
  Algorithm plugged{"plugged", Collective::broadcast, nullptr, nullptr};
  plugged.plugin = reinterpret_cast<const shoal::coll::PluginAlgorithm *>(&picky);
  const Algorithm *const with_plugged[] = {&plugged};
  ASSERT_TRUE(rules::parse(with_plugged, "plugged", rs).ok());
  EXPECT_FALSE(rules::ends_with_universal_rule(rs));
}

TEST(RuleParser, Trim) {
  EXPECT_EQ(rules::trim(""), "");
  EXPECT_EQ(rules::trim(" \t\n "), "");
  EXPECT_EQ(rules::trim("  a b \t"), "a b");
  EXPECT_EQ(rules::trim("auto"), "auto");
}

// The grammar joins conditions with '&': all must hold, so a later bound of the same kind
// narrows the range and never widens it ("pes<=4&pes<=8" once took 6 PEs).
TEST(RuleParser, RepeatedBoundsAreIntersected) {
  const Rule r = parsed("linear:pes<=4&pes<=8").at(0);
  EXPECT_FALSE(r.matches(6, 0));
  const Rule b = parsed("linear:bytes>4k&bytes>1k").at(0);
  EXPECT_FALSE(b.matches(2, 2048));
}

// A team size beyond int is a bad condition. It once threw out of parse() (std::terminate in
// shmem_init, which is noexcept) for 20 digits, and wrapped through the cast to int for fewer
// (pes<=4294967297 meant pes<=1). bytes> the largest size wrapped to bytes>=0.
TEST(RuleParser, TeamSizesBeyondIntAreRefused) {
  std::vector<Rule> out;
  for (const char *text :
       {"linear:pes<=99999999999999999999", "linear:pes<=4294967297", "linear:pes>2147483647",
        "linear:pes<=-1", "linear:bytes>18446744073709551615"}) {
    bool accepted = true;
    EXPECT_NO_THROW(accepted = rules::parse(kBroadcast, text, out).ok()) << text;
    EXPECT_FALSE(accepted) << text;
  }
  // The largest team sizes themselves are fine.
  for (const char *text : {"linear:pes<=2147483647", "linear:pes>2147483646"})
    EXPECT_TRUE(rules::parse(kBroadcast, text, out).ok()) << text;
}

}  // namespace
