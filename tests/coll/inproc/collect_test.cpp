// Every collect and fcollect algorithm on 1 to 16 threads-as-PEs, mapped and remote. fcollect:
// every PE contributes the same count; collect: counts that differ per PE, empty blocks
// included. Blocks from one element to above the mailbox (128 B) limit, element sizes 1, 4 and
// 8. Every PE's dest must hold every PE's block in team order and nothing past it may change.
#include <atomic>
#include <numeric>
#include <string>

#include "collectives/collect/counted.hpp"
#include "harness.hpp"

namespace shoal::coll::inproc {
namespace {

struct Layout {
  std::size_t per_pe, elem_size;
  bool varying;  // collect: counts differ per PE, some empty
};
constexpr Layout kLayouts[] = {{1, 4, false},  {1, 1, false},   {7, 4, false}, {32, 4, false},
                               {33, 4, false}, {300, 8, false}, {5, 1, true},  {3, 4, true},
                               {33, 4, true},  {200, 8, true}};

// PE pe's count in a layout: per_pe, or for varying layouts 0 .. per_pe (every third PE empty).
std::size_t count_of(const Layout &l, int pe, int salt) {
  if (!l.varying) return l.per_pe;
  if ((pe + salt) % 3 == 0) return 0;
  return (static_cast<std::size_t>(pe) * 7 + static_cast<std::size_t>(salt)) % (l.per_pe + 1);
}

void run_collect(const Param &p, Collective c) {
  const int ran =
      run_every_pe(p.pes, p.mode, [&](Team &team, int me, ThreadsChannel &ch, PeLog &log) {
        std::byte *dest = team.heap(me), *source = dest + team.heap_bytes() / 2;
        int salt = 0;
        for (const Layout &l : kLayouts) {
          if (l.varying && c == Collective::fcollect) continue;
          ++salt;
          const auto n = static_cast<std::size_t>(p.pes);
          std::vector<std::size_t> counts(n), displs(n);
          for (int pe = 0; pe < p.pes; ++pe)
            counts[static_cast<std::size_t>(pe)] = count_of(l, pe, salt);
          std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), std::size_t{0});
          Args a;
          a.dest = dest;
          a.source = source;
          a.nelems = counts[static_cast<std::size_t>(me)];
          a.elem_size = l.elem_size;
          a.counts = counts.data();
          a.displs = displs.data();
          a.total = displs.back() + counts.back();
          a.message_bytes = a.total * a.elem_size;
          a.direct = p.mode == Mode::mapped;
          if (!log.applies(*p.algorithm, ch, a)) continue;
          const std::size_t es = l.elem_size, bytes = a.total * es;
          for (std::size_t i = 0; i < a.nelems * es; ++i)
            source[i] = static_cast<std::byte>(value<int>(me, i, salt));
          std::memset(dest, static_cast<int>(kSentinel), bytes + kGuardBytes);
          run_call(*p.algorithm, ch, a);
          const std::string what = std::to_string(l.per_pe) + (l.varying ? " at most" : "") +
                                   " x " + std::to_string(es) + " B per PE";
          log.check_nothing_pending(ch, what);
          std::vector<std::byte> expected(bytes + 1);
          for (int pe = 0; pe < p.pes; ++pe)
            for (std::size_t i = 0; i < counts[static_cast<std::size_t>(pe)] * es; ++i)
              expected[displs[static_cast<std::size_t>(pe)] * es + i] =
                  static_cast<std::byte>(value<int>(pe, i, salt));
          log.check_result(what, dest, expected.data(), bytes);
        }
      });
  if (ran == 0) GTEST_SKIP() << "applies() accepted no case";
}

class Collect : public testing::TestWithParam<Param> {};
class Fcollect : public testing::TestWithParam<Param> {};

TEST_P(Collect, EveryLayout) { run_collect(GetParam(), Collective::collect); }
TEST_P(Fcollect, EveryLayout) { run_collect(GetParam(), Collective::fcollect); }

INSTANTIATE_TEST_SUITE_P(Inproc, Collect, testing::ValuesIn(params(Collective::collect)),
                         param_name);
INSTANTIATE_TEST_SUITE_P(Inproc, Fcollect, testing::ValuesIn(params(Collective::fcollect)),
                         param_name);

// collect's exchange of counts with blocks (collect/counted.hpp), which the dispatcher runs
// before any algorithm: on teams of one PE per node it returns every count, and true with every
// block placed exactly when every message fit kCountedMessageMaxBytes. Blocks around that
// limit: of one PE (each message of 2 or 3 PEs) and of two (the doubling's messages with 4
// PEs), differing per PE so that some messages carry blocks and others do not; the calls follow
// one another on the same mailboxes.
class Counted : public testing::TestWithParam<TeamParam> {};

TEST_P(Counted, CountsAlwaysBlocksWhereTheyFit) {
  const TeamParam p = GetParam();
  // The most 8-byte elements a message holds with the counts (and flag) of one PE; of two PEs,
  // 2 * kTwo + 1 (kTwo per block in the first round of 4).
  constexpr std::size_t kOne = (kCountedMessageMaxBytes - 16) / 8;
  constexpr std::size_t kTwo = (kCountedMessageMaxBytes - 24) / 16;
  std::atomic<int> ran{0};
  run_every_pe(p.pes, p.mode, [&](Team &team, int me, ThreadsChannel &ch, PeLog &log) {
    if (!CountedExchange::applies(ch)) return log.fail("applies() is false");
    ++ran;
    // source at the end of the heap; dest from its start, checked where it stays clear of it.
    const std::size_t source_offset = team.heap_bytes() - (kOne + 1) * 8;
    std::byte *dest = team.heap(me), *source = dest + source_offset;
    const auto n = static_cast<std::size_t>(p.pes);
    int salt = 0;
    for (const std::size_t base : {std::size_t{0}, std::size_t{1}, std::size_t{15}, kTwo - 1, kTwo,
                                   kTwo + 1, kOne - 1, kOne}) {
      ++salt;
      std::vector<std::size_t> counts(n);
      for (std::size_t pe = 0; pe < n; ++pe) counts[pe] = base == 0 ? pe % 2 : base + pe % 2;
      const std::size_t mine = counts[static_cast<std::size_t>(me)];
      for (std::size_t i = 0; i < mine * 8; ++i)
        source[i] = static_cast<std::byte>(value<int>(me, i, salt));
      const std::size_t bytes = std::accumulate(counts.begin(), counts.end(), std::size_t{0}) * 8;
      // With 2 or 3 PEs each message holds one PE's block. With 4 the last round's hold two,
      // and a block goes in the first round only if two like it would fit one message.
      bool fit = true;
      for (std::size_t pe = 0; pe < n; ++pe) fit = fit && counts[pe] <= (p.pes == 4 ? kTwo : kOne);
      if (p.pes == 4)
        for (std::size_t pe = 0; pe < n; pe += 2)
          fit = fit && (counts[pe] + counts[pe + 1]) * 8 <= kCountedMessageMaxBytes - 24;
      CountedExchange exchange;
      std::vector<std::size_t> got(n, 7777);
      const bool complete = exchange.exchange(ch, source, mine, 8, got.data());
      const std::string what = std::to_string(base) + " elements and more per PE";
      if (got != counts) log.fail(what + ": the counts differ");
      if (complete != fit) log.fail(what + ": exchange() said " + std::to_string(complete));
      if (!complete || bytes + kGuardBytes > source_offset) continue;
      std::memset(dest, static_cast<int>(kSentinel), bytes + kGuardBytes);
      exchange.place(dest, 8, got.data());
      log.check_nothing_pending(ch, what);
      std::vector<std::byte> expected(bytes + 1);
      std::size_t at = 0;
      for (std::size_t pe = 0; pe < n; ++pe)
        for (std::size_t i = 0; i < counts[pe] * 8; ++i)
          expected[at++] = static_cast<std::byte>(value<int>(static_cast<int>(pe), i, salt));
      log.check_result(what, dest, expected.data(), bytes);
    }
  });
  EXPECT_EQ(ran.load(), p.pes);
}

// Teams of one PE per node, of 2 to kCountedMaxPes PEs: the exchange's.
bool counted_team(const TeamParam &t) {
  return t.pes >= 2 && t.pes <= kCountedMaxPes &&
         (t.mode == Mode::remote || (t.mode == Mode::nodes && t.pes == 2) ||
          (t.mode == Mode::nodes3 && t.pes <= 3));
}
std::vector<TeamParam> one_per_node() {
  std::vector<TeamParam> teams;
  for (const TeamParam &t : team_params())
    if (counted_team(t)) teams.push_back(t);
  return teams;
}
INSTANTIATE_TEST_SUITE_P(Inproc, Counted, testing::ValuesIn(one_per_node()), team_param_name);

// Not for one PE, larger teams, or PEs that share a node.
TEST(CountedApplies, OnlyToSmallTeamsOfOnePePerNode) {
  for (const TeamParam &t : team_params()) {
    const bool expected = counted_team(t);
    std::atomic<int> wrong{0};
    run_every_pe(t.pes, t.mode, [&](Team &, int, ThreadsChannel &ch, PeLog &) {
      if (CountedExchange::applies(ch) != expected) ++wrong;
    });
    EXPECT_EQ(wrong.load(), 0) << t.pes << " PEs, mode " << static_cast<int>(t.mode);
  }
}

}  // namespace
}  // namespace shoal::coll::inproc
