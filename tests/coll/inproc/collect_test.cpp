// Every collect and fcollect algorithm on 1 to 16 threads-as-PEs, mapped and remote. fcollect:
// every PE contributes the same count; collect: counts that differ per PE, empty blocks
// included. Blocks from one element to above the mailbox (128 B) limit, element sizes 1, 4 and
// 8. Every PE's dest must hold every PE's block in team order and nothing past it may change.
#include <numeric>
#include <string>

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

}  // namespace
}  // namespace shoal::coll::inproc
