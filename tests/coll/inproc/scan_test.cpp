// Every scan algorithm on 1 to 16 threads-as-PEs, mapped and remote, inclusive and exclusive,
// for sum and max on several types and vectors up to several times the scratch (1 KiB), out of
// place and in place. PE i must end with the team-order fold of PEs 0..i (inclusive) or
// 0..i-1 (exclusive; all zero bytes on PE 0).
#include <string>
#include <utility>

#include "harness.hpp"
#include "ops.hpp"

namespace shoal::coll::inproc {
namespace {

// For every operator; the first operator (int sum) also takes kLargeCounts (several times the
// scratch).
constexpr std::size_t kCounts[] = {0, 1, 7, 33, 300};
constexpr std::size_t kLargeCounts[] = {1000};

class Scan : public testing::TestWithParam<Param> {};

TEST_P(Scan, InclusiveAndExclusive) {
  const Param p = GetParam();
  const int ran =
      run_every_pe(p.pes, p.mode, [&](Team &team, int me, ThreadsChannel &ch, PeLog &log) {
        std::byte *dest = team.heap(me), *source = dest + team.heap_bytes() / 2;
        int salt = 0;
        for (const auto &[opp, nelems] : op_cases(kCounts, kLargeCounts))
          for (const bool exclusive : {false, true})
            for (const bool in_place : {false, true}) {
              const Op &op = *opp;
              ++salt;
              Args a;
              a.dest = dest;
              a.source = in_place ? dest : source;
              a.nelems = nelems;
              a.elem_size = op.elem_size;
              a.combine = op.combine;
              a.exclusive = exclusive;
              a.message_bytes = a.bytes();
              a.direct = p.mode == Mode::mapped;
              if (!log.applies(*p.algorithm, ch, a)) continue;
              const std::size_t bytes = a.bytes();
              if (!in_place) std::memset(dest, static_cast<int>(kSentinel), bytes);
              std::memset(dest + bytes, static_cast<int>(kSentinel), kGuardBytes);
              op.fill(static_cast<std::byte *>(const_cast<void *>(a.source)), nelems, me, salt);
              run_call(*p.algorithm, ch, a);
              const std::string what = std::string(op.name) + ", " + std::to_string(nelems) +
                                       " elements" + (exclusive ? ", exclusive" : "") +
                                       (in_place ? ", in place" : "");
              log.check_nothing_pending(ch, what);
              std::vector<std::byte> expected(bytes + 1);
              if (exclusive && me == 0)
                std::memset(expected.data(), 0, bytes);
              else
                fold(op, expected.data(), nelems, exclusive ? me : me + 1, salt);
              log.check_result(what, dest, expected.data(), bytes);
            }
      });
  if (ran == 0) GTEST_SKIP() << "applies() accepted no case";
}

INSTANTIATE_TEST_SUITE_P(Inproc, Scan, testing::ValuesIn(params(Collective::scan)), param_name);

}  // namespace
}  // namespace shoal::coll::inproc
