// The profile's counters, their exchange between PEs, the table and JSON PE 0 makes of them,
// SMA_PROFILE's grammar, and the lines of a hang report (core/observe), without PEs.
#include <gtest/gtest.h>

#include <cstring>

#include "observe/hang.hpp"
#include "observe/profile.hpp"

using namespace shoal::observe;

namespace {

PeProfile sample(std::uint64_t puts, std::uint64_t ns) {
  PeProfile p;
  p.families[static_cast<int>(Family::put)] = {puts, puts * 8, ns};
  p.families[static_cast<int>(Family::broadcast)] = {2, 128, 1000};
  p.families[static_cast<int>(Family::lifecycle)] = {1, 0, 5};
  p.algorithms["broadcast"]["binomial"] = 2;
  p.algorithms["collect"]["fcollect:ring"] = 1;
  return p;
}

}  // namespace

TEST(ObserveProfile, ExchangeRoundTrip) {
  const PeProfile p = sample(3, 1234);
  PeProfile back;
  ASSERT_TRUE(parse_profile(serialize(p), back));
  for (int f = 0; f < kFamilies; ++f) {
    EXPECT_EQ(back.families[f].calls, p.families[f].calls) << family_name(static_cast<Family>(f));
    EXPECT_EQ(back.families[f].bytes, p.families[f].bytes);
    EXPECT_EQ(back.families[f].ns, p.families[f].ns);
  }
  EXPECT_EQ(back.algorithms, p.algorithms);
  // An empty profile survives too, and garbage is refused.
  ASSERT_TRUE(parse_profile(serialize(PeProfile{}), back));
  EXPECT_EQ(back.families[0].calls, 0u);
  EXPECT_FALSE(parse_profile("F nosuchfamily 1 2 3\n", back));
  EXPECT_FALSE(parse_profile("F put 1 two 3\n", back));
  EXPECT_FALSE(parse_profile("X\n", back));
}

TEST(ObserveProfile, SpreadOverPes) {
  const Spread odd = spread({5, 1, 3});
  EXPECT_EQ(odd.min, 1u);
  EXPECT_EQ(odd.median, 3u);
  EXPECT_EQ(odd.max, 5u);
  EXPECT_EQ(odd.per_pe, (std::vector<std::uint64_t>{5, 1, 3}));
  const Spread even = spread({4, 1, 3, 2});  // the lower middle value
  EXPECT_EQ(even.median, 2u);
  EXPECT_EQ(spread({}).max, 0u);
}

TEST(ObserveProfile, TableListsUsedFamiliesOnly) {
  const std::string t = format_table({sample(3, 2'000'000), sample(5, 4'000'000)});
  EXPECT_NE(t.find("shoal profile over 2 PEs"), std::string::npos) << t;
  EXPECT_NE(t.find("put        3 / 3 / 5"), std::string::npos) << t;
  EXPECT_NE(t.find("24 / 24 / 40"), std::string::npos) << t;
  EXPECT_NE(t.find("2000.0 / 2000.0 / 4000.0"), std::string::npos) << t;
  EXPECT_NE(t.find("broadcast  binomial"), std::string::npos) << t;
  EXPECT_NE(t.find("collect    fcollect:ring"), std::string::npos) << t;
  EXPECT_EQ(t.find("lifecycle"), std::string::npos) << t;
  EXPECT_EQ(t.find("\nget "), std::string::npos) << t;
}

TEST(ObserveProfile, JsonHasPerPeValues) {
  const std::string j = format_json({sample(3, 10), sample(5, 20), sample(4, 30)});
  EXPECT_NE(j.find("\"pes\": 3"), std::string::npos) << j;
  EXPECT_NE(j.find("\"calls\": {\"min\": 3, \"median\": 4, \"max\": 5, \"per_pe\": [3, 5, 4]}"),
            std::string::npos)
      << j;
  EXPECT_NE(j.find("\"fcollect:ring\": {\"min\": 1"), std::string::npos) << j;
  EXPECT_EQ(j.find("lifecycle"), std::string::npos) << j;
  EXPECT_EQ(format_json({}), "{\n  \"pes\": 0,\n  \"families\": {},\n  \"algorithms\": {}\n}\n");
}

TEST(ObserveProfile, RequestGrammar) {
  ProfileRequest r;
  for (const char *off : {"", "0", "off", "No", "false"}) {
    ASSERT_TRUE(parse_request(off, r)) << off;
    EXPECT_FALSE(r.any()) << off;
  }
  for (const char *on : {"1", "on", "YES", "true", "table"}) {
    ASSERT_TRUE(parse_request(on, r)) << on;
    EXPECT_TRUE(r.table) << on;
    EXPECT_TRUE(r.json_path.empty()) << on;
  }
  ASSERT_TRUE(parse_request("json:/tmp/p.json", r));
  EXPECT_FALSE(r.table);
  EXPECT_EQ(r.json_path, "/tmp/p.json");
  ASSERT_TRUE(parse_request("1,json:out.json", r));
  EXPECT_TRUE(r.table);
  EXPECT_EQ(r.json_path, "out.json");
  EXPECT_FALSE(parse_request("json:", r));
  EXPECT_FALSE(parse_request("2", r));
  EXPECT_FALSE(parse_request("jsn:/tmp/x", r));
}

TEST(ObserveHang, LinesPerPe) {
  EXPECT_EQ(hang::describe(3, nullptr, 0, false, 0).rfind("PE 3: unknown", 0), 0u);
  Fields f;
  EXPECT_EQ(hang::describe(1, &f, 0, false, 0), "PE 1: computing, outside the library");

  f.inside = 1;
  f.family = Family::wait;
  f.entered_ns = 1'000'000'000;
  f.addr = 0x1000;
  f.nvars = 1;
  f.cmp = 1;  // SHMEM_CMP_EQ
  f.kind = ValueKind::signed_int;
  f.value_size = 8;
  f.value = static_cast<std::uint64_t>(-5);
  std::strcpy(f.routine, "shmem_long_wait_until");
  EXPECT_EQ(hang::describe(0, &f, 3'500'000'000, true, 7),
            "PE 0: in shmem_long_wait_until for 2.5 s, waiting for 0x1000 == -5, which holds 7");

  Fields c;
  c.inside = 1;
  c.family = Family::barrier;
  c.entered_ns = 0;
  c.team_kind = TeamKind::world;
  c.team_call = 3;
  std::strcpy(c.routine, "shmem_barrier_all");
  EXPECT_EQ(hang::describe(2, &c, 2'000'000'000, false, 0),
            "PE 2: in shmem_barrier_all for 2.0 s, barrier on team world, collective call 3 on "
            "that team");
  c.team_kind = TeamKind::split;
  c.team_size = 4;
  c.team_first = 2;
  c.team_stride = 2;
  c.team_rank = 1;
  c.family = Family::broadcast;
  std::strcpy(c.routine, "shmem_long_broadcast");
  EXPECT_EQ(hang::describe(4, &c, 1'000'000'000, false, 0),
            "PE 4: in shmem_long_broadcast for 1.0 s, broadcast on team of 4 PEs from world PE 2 "
            "stride 2 (this PE is its PE 1), collective call 3 on that team");

  Fields r;
  r.inside = 1;
  r.family = Family::get;
  r.pe = 5;
  r.bytes = 64;
  std::strcpy(r.routine, "shmem_getmem");
  EXPECT_EQ(hang::describe(0, &r, 0, false, 0),
            "PE 0: in shmem_getmem for 0.0 s, 64 bytes with PE 5");
}
