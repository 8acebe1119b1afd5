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
  Team team(p.pes, p.mode, kScratchBytes, kHeapBytes);
  Report report(p.pes);
  team.run([&](int me) {
    ThreadsChannel &ch = team.channel(me);
    PeLog &log = report.pe(me);
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
        p.algorithm->run(ch, a);
        const std::string what = std::string(op.name) + ", " + std::to_string(nelems) +
                                 " elements" + (in_place ? ", in place" : "");
        log.check_nothing_pending(ch, what);
        std::vector<std::byte> expected(bytes + 1);
        fold(op, expected.data(), nelems, p.pes, salt);
        const std::string diff = first_difference(dest, expected.data(), bytes);
        if (!diff.empty()) log.fail(what + ": dest " + diff);
        if (!untouched(dest + bytes, kGuardBytes)) log.fail(what + ": wrote past dest");
      }
  });
  if (report.finish() == 0) GTEST_SKIP() << "applies() accepted no case";
}

INSTANTIATE_TEST_SUITE_P(Inproc, Reduce, testing::ValuesIn(params(Collective::reduce)), param_name);

}  // namespace
}  // namespace shoal::coll::inproc
