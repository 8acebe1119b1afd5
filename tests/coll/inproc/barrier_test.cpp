// Every barrier algorithm on 1 to 16 threads-as-PEs, mapped and remote: many barriers back to
// back, each PE arriving after a different pause. The property checked: when any PE leaves
// barrier k, every PE has arrived at barrier k (its arrival count, stored before it entered,
// is at least k), and no PE has left barrier k before every PE arrived.
#include <atomic>
#include <string>
#include <thread>

#include "harness.hpp"

namespace shoal::coll::inproc {
namespace {

constexpr int kRounds = 40;

class Barrier : public testing::TestWithParam<Param> {};

TEST_P(Barrier, NobodyLeavesBeforeEveryoneArrived) {
  const Param p = GetParam();
  // Arrivals and departures per PE: plain shared memory the barrier must order (relaxed
  // atomics, so only the barrier's own acquire/release makes them visible in time).
  std::vector<std::atomic<int>> arrived(static_cast<std::size_t>(p.pes));
  std::vector<std::atomic<int>> left(static_cast<std::size_t>(p.pes));
  const int ran =
      run_every_pe(p.pes, p.mode, [&](Team &team, int me, ThreadsChannel &ch, PeLog &log) {
        Args a;
        a.direct = p.mode == Mode::mapped;
        for (int k = 1; k <= kRounds; ++k) {
          if (!log.applies(*p.algorithm, ch, a)) return;
          // A different PE is late each round.
          if ((k + me) % p.pes == 0)
            for (int i = 0; i < 3; ++i) std::this_thread::yield();
          arrived[static_cast<std::size_t>(me)].store(k, std::memory_order_relaxed);
          run_call(*p.algorithm, ch, a);
          for (int pe = 0; pe < p.pes; ++pe) {
            const int got = arrived[static_cast<std::size_t>(pe)].load(std::memory_order_relaxed);
            if (got < k)
              log.fail("barrier " + std::to_string(k) + " ended before PE " + std::to_string(pe) +
                       " arrived (it is at " + std::to_string(got) + ")");
            // Nobody can have left barrier k + 1 yet: this PE has not arrived there.
            const int gone = left[static_cast<std::size_t>(pe)].load(std::memory_order_relaxed);
            if (gone > k)
              log.fail("PE " + std::to_string(pe) + " left barrier " + std::to_string(gone) +
                       " while this PE was still in barrier " + std::to_string(k));
          }
          left[static_cast<std::size_t>(me)].store(k, std::memory_order_relaxed);
          log.check_nothing_pending(ch, "barrier " + std::to_string(k));
        }
      });
  if (ran == 0) GTEST_SKIP() << "applies() accepted no case";
}

INSTANTIATE_TEST_SUITE_P(Inproc, Barrier, testing::ValuesIn(params(Collective::barrier)),
                         param_name);

}  // namespace
}  // namespace shoal::coll::inproc
