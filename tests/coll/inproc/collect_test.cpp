// Every collect and fcollect algorithm on 1 to 16 threads-as-PEs, mapped and remote. fcollect:
// every PE contributes the same count; collect: counts that differ per PE, empty blocks
// included. Blocks from one element to above the mailbox (128 B) limit, element sizes 1, 4 and
// 8. Every PE's dest must hold every PE's block in team order and nothing past it may change.
#include <algorithm>
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
// before any algorithm on teams spread over 2 or more nodes: it returns every count
// on every PE, and true with every block placed exactly when every message of the leaders fit
// kCountedMessageMaxBytes. Blocks around that limit, for runs of 1, 2, 4 and 8 PEs per message,
// differing per PE so that some messages carry blocks and others do not; the calls follow one
// another on the same mailboxes. Nodes of several PEs are interleaved in team order (nodes:
// even and odd PEs), so a message's blocks are not in team order.

// Whether every message of the exchange carries its blocks: with k nodes the longest messages
// hold k/2 nodes for a power of two (the doubling) and one otherwise, and a run of d nodes (from
// a multiple of d) goes when its bytes, times longest/d, fit a message with every PE's count.
// A node's own message also needs every member's block: a member hands it over while as many
// blocks like it as its node has PEs would fit. (PEs 0 .. k-1 lead nodes 0 .. k-1.)
bool every_message_fits(const Team &team, const std::vector<std::size_t> &counts,
                        std::size_t elem_size) {
  const int n = team.size();
  int k = 0;
  for (int pe = 0; pe < n; ++pe) k = std::max(k, team.node_of(pe) + 1);
  const int longest = (k & (k - 1)) == 0 ? k / 2 : 1;
  const std::size_t limit = kCountedMessageMaxBytes - 8 * (1 + static_cast<std::size_t>(n));
  for (int pe = k; pe < n; ++pe) {
    std::size_t node_pes = 0;
    for (int q = 0; q < n; ++q) node_pes += team.node_of(q) == team.node_of(pe) ? 1 : 0;
    if (counts[static_cast<std::size_t>(pe)] * elem_size * node_pes *
            static_cast<std::size_t>(longest) >
        limit)
      return false;
  }
  for (int d = 1; d <= longest; d *= 2)
    for (int first = 0; first < k; first += d) {
      std::size_t bytes = 0;
      for (int pe = 0; pe < n; ++pe)
        if (team.node_of(pe) >= first && team.node_of(pe) < first + d)
          bytes += counts[static_cast<std::size_t>(pe)] * elem_size;
      if (bytes * static_cast<std::size_t>(longest / d) > limit) return false;
    }
  return true;
}

// With the mailboxes of a job of job_pes PEs (0: the team's).
void run_counted(const TeamParam &p, int job_pes) {
  const auto n = static_cast<std::size_t>(p.pes);
  // The most 8-byte elements one PE's block may have in a message with every count.
  const std::size_t one = (kCountedMessageMaxBytes - 8 * (1 + n)) / 8;
  std::vector<std::size_t> bases = {0, 1, 15};
  for (const std::size_t per_message : {1, 2, 4, 8})
    for (const std::size_t off : {0, 1, 2}) bases.push_back(one / per_message + off - 1);
  std::atomic<int> ran{0}, complete_calls{0}, incomplete_calls{0};
  // Where each node sends every other its blocks (a number of nodes that is not a power of
  // two), a PE may gather up to 128 KiB from each: room for that and the source.
  const std::size_t heap_bytes = (n + 2) * kCountedMessageMaxBytes;
  run_every_pe(
      p.pes, p.mode,
      [&](Team &team, int me, ThreadsChannel &ch, PeLog &log) {
        if (!CountedExchange::applies(ch)) return log.fail("applies() is false");
        ++ran;
        // source at the end of the heap; dest from its start (a leader fills its node's).
        const std::size_t source_offset = team.heap_bytes() - (one + 2) * 8;
        std::byte *dest = team.heap(me), *source = dest + source_offset;
        int salt = 0;
        for (int pattern = 0; pattern < 2; ++pattern)
          for (const std::size_t base : bases) {
            ++salt;
            // Every PE about base elements; or with pattern 1 the leaders none (a node's blocks are
            // then its members', which fit one message before they fit the members' own rule).
            std::vector<std::size_t> counts(n);
            for (std::size_t pe = 0; pe < n; ++pe) counts[pe] = base == 0 ? pe % 2 : base + pe % 2;
            if (pattern == 1)
              for (int pe = 0; pe < p.pes; ++pe)
                if (team.node_of(pe) == pe) counts[static_cast<std::size_t>(pe)] = 0;
            const std::size_t mine = counts[static_cast<std::size_t>(me)];
            for (std::size_t i = 0; i < mine * 8; ++i)
              source[i] = static_cast<std::byte>(value<int>(me, i, salt));
            const std::size_t bytes =
                std::accumulate(counts.begin(), counts.end(), std::size_t{0}) * 8;
            const bool fit = every_message_fits(team, counts, 8);
            if (fit && bytes + kGuardBytes > source_offset)
              return log.fail("the heap is too small");
            if (fit) std::memset(dest, static_cast<int>(kSentinel), bytes + kGuardBytes);
            CountedExchange exchange(ch);
            std::vector<std::size_t> got(n, 7777);
            const bool complete = exchange.exchange(ch, dest, source, mine, 8, got.data());
            const std::string what = std::to_string(base) + " elements and more per PE";
            // A PE that does not lead its node learns only the total where the call is done.
            const bool member = team.node_of(me) != me;
            if (complete && member) {
              if (exchange.total() != bytes / 8) log.fail(what + ": the total differs");
              if (got[static_cast<std::size_t>(me)] != mine) log.fail(what + ": its count");
            } else if (got != counts) {
              log.fail(what + ": the counts differ");
            } else if (complete && exchange.total() != bytes / 8) {
              log.fail(what + ": the total differs");
            }
            if (complete != fit) log.fail(what + ": exchange() said " + std::to_string(complete));
            ++(complete ? complete_calls : incomplete_calls);
            if (!complete) continue;
            exchange.place(ch, dest, 8, got.data());
            log.check_nothing_pending(ch, what);
            std::vector<std::byte> expected(bytes + 1);
            std::size_t at = 0;
            for (std::size_t pe = 0; pe < n; ++pe)
              for (std::size_t i = 0; i < counts[pe] * 8; ++i)
                expected[at++] = static_cast<std::byte>(value<int>(static_cast<int>(pe), i, salt));
            // A member's dest was complete when its exchange() returned: its leader wrote it then.
            log.check_result(what, dest, expected.data(), bytes);
          }
      },
      heap_bytes, job_pes);
  EXPECT_EQ(ran.load(), p.pes);
  // Both outcomes occurred, so the limit is bracketed.
  EXPECT_GT(complete_calls.load(), 0);
  EXPECT_GT(incomplete_calls.load(), 0);
}

class Counted : public testing::TestWithParam<TeamParam> {};

TEST_P(Counted, CountsAlwaysBlocksWhereTheyFit) { run_counted(GetParam(), 0); }

// In a job of 1024 PEs a mailbox holds 128 B: where blocks stay behind, a node's other PEs of a
// team of more than 16 get the counts, 8 bytes each, in the leader's stash buffer instead.
class CountedLargeJob : public testing::TestWithParam<TeamParam> {};
TEST_P(CountedLargeJob, CountsAlwaysBlocksWhereTheyFit) { run_counted(GetParam(), 1024); }

// Teams over 2 or more nodes: the exchange's.
bool counted_team(const TeamParam &t) {
  switch (t.mode) {
    case Mode::mapped:
      return false;
    case Mode::remote:
    case Mode::nodes:
    case Mode::nodes3:
    case Mode::nodes4:
      return t.pes >= 2;
  }
  return false;
}
// Every team mode, and 4 nodes of several PEs: the doubling's merges with members.
std::vector<TeamParam> counted_teams() {
  std::vector<TeamParam> teams;
  for (const TeamParam &t : team_params())
    if (counted_team(t)) teams.push_back(t);
  for (const int pes : {5, 8, 11, 16}) teams.push_back({pes, Mode::nodes4});
  return teams;
}
INSTANTIATE_TEST_SUITE_P(Inproc, Counted, testing::ValuesIn(counted_teams()), team_param_name);
INSTANTIATE_TEST_SUITE_P(Inproc, CountedLargeJob,
                         testing::Values(TeamParam{16, Mode::nodes}, TeamParam{17, Mode::nodes},
                                         TeamParam{20, Mode::nodes3}, TeamParam{24, Mode::nodes4}),
                         team_param_name);

// Not for one PE, one node, or more nodes.
TEST(CountedApplies, OnlyToTeamsOverAFewNodes) {
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
