// Every reduce (to-all) algorithm on 1 to 16 threads-as-PEs, mapped and remote, for sum and max
// on several types and vectors from nothing to above the line (448 B), mailbox (128 B), stash
// (16 KiB for reduce/mailbox) and scratch (1 KiB) limits, out of place and in place. Every PE
// must end with the team-order fold of every PE's vector and nothing past it may change.
#include <string>
#include <utility>

#include "harness.hpp"
#include "ops.hpp"

namespace shoal::coll::inproc {
namespace {

// For every operator; the first operator (int sum) also takes kLargeCounts: 16 KiB (the
// largest reduce/mailbox stashes), just above it, and several times the scratch.
constexpr std::size_t kCounts[] = {0, 1, 7, 14, 15, 33, 113, 300};
constexpr std::size_t kLargeCounts[] = {1000, 4096, 4097};

class Reduce : public testing::TestWithParam<Param> {};

TEST_P(Reduce, EveryOpEverySize) {
  const Param p = GetParam();
  const int ran =
      run_every_pe(p.pes, p.mode, [&](Team &team, int me, ThreadsChannel &ch, PeLog &log) {
        std::byte *dest = team.heap(me), *source = dest + team.heap_bytes() / 2;
        int salt = 0;
        for (const auto &[opp, nelems] : op_cases(kCounts, kLargeCounts))
          for (const bool in_place : {false, true}) {
            const Op &op = *opp;
            ++salt;
            Args a;
            a.dest = dest;
            a.source = in_place ? dest : source;
            a.nelems = nelems;
            a.elem_size = op.elem_size;
            a.combine = op.combine;
            a.message_bytes = a.bytes();
            a.direct = p.mode == Mode::mapped;
            if (!log.applies(*p.algorithm, ch, a)) continue;
            const std::size_t bytes = a.bytes();
            if (!in_place) std::memset(dest, static_cast<int>(kSentinel), bytes);
            std::memset(dest + bytes, static_cast<int>(kSentinel), kGuardBytes);
            op.fill(static_cast<std::byte *>(const_cast<void *>(a.source)), nelems, me, salt);
            run_call(*p.algorithm, ch, a);
            const std::string what = std::string(op.name) + ", " + std::to_string(nelems) +
                                     " elements" + (in_place ? ", in place" : "");
            log.check_nothing_pending(ch, what);
            std::vector<std::byte> expected(bytes + 1);
            fold(op, expected.data(), nelems, p.pes, salt);
            log.check_result(what, dest, expected.data(), bytes);
          }
      });
  if (ran == 0) GTEST_SKIP() << "applies() accepted no case";
}

INSTANTIATE_TEST_SUITE_P(Inproc, Reduce, testing::ValuesIn(params(Collective::reduce)), param_name);

// Every reduce algorithm in turn on one team, back to back with sizes that change from call to
// call, as `auto` selection does: the algorithms share the team's notification and credit
// counters, so one that leaves a credit or a notification behind misleads the next.
class ReduceMixed : public testing::TestWithParam<TeamParam> {};

TEST_P(ReduceMixed, AlgorithmsBackToBack) {
  const TeamParam p = GetParam();
  const std::vector<const Algorithm *> all = algorithms(Collective::reduce);
  constexpr std::size_t kMixedCounts[] = {1, 300, 15, 4097, 33, 7};
  const int ran =
      run_every_pe(p.pes, p.mode, [&](Team &team, int me, ThreadsChannel &ch, PeLog &log) {
        std::byte *dest = team.heap(me), *source = dest + team.heap_bytes() / 2;
        const Op &op = ops()[0];
        int salt = 0;
        for (int round = 0; round < 3; ++round)
          for (std::size_t k = 0; k < all.size(); ++k) {
            const Algorithm &algorithm = *all[(k + static_cast<std::size_t>(round)) % all.size()];
            const std::size_t nelems =
                kMixedCounts[(k + 2 * static_cast<std::size_t>(round)) % std::size(kMixedCounts)];
            ++salt;
            Args a;
            a.dest = dest;
            a.source = source;
            a.nelems = nelems;
            a.elem_size = op.elem_size;
            a.combine = op.combine;
            a.message_bytes = a.bytes();
            a.direct = p.mode == Mode::mapped;
            if (!log.applies(algorithm, ch, a)) continue;
            const std::size_t bytes = a.bytes();
            std::memset(dest, static_cast<int>(kSentinel), bytes + kGuardBytes);
            op.fill(source, nelems, me, salt);
            run_call(algorithm, ch, a);
            const std::string what = std::string(algorithm.name) + " after the others, " +
                                     std::to_string(nelems) + " elements, round " +
                                     std::to_string(round);
            log.check_nothing_pending(ch, what);
            std::vector<std::byte> expected(bytes + 1);
            fold(op, expected.data(), nelems, p.pes, salt);
            log.check_result(what, dest, expected.data(), bytes);
          }
      });
  if (ran == 0) GTEST_SKIP() << "applies() accepted no case";
}

INSTANTIATE_TEST_SUITE_P(Inproc, ReduceMixed, testing::ValuesIn(team_params()), team_param_name);

}  // namespace
}  // namespace shoal::coll::inproc
