// Every broadcast algorithm on 1 to 16 threads-as-PEs, mapped and remote, from every root, for
// messages from nothing to above the line (56 B), mailbox (128 B), scratch (1 KiB) and stash
// (64 KiB) limits, element sizes 1 to 24. Every PE's dest, the root's included, must equal the
// root's source and nothing past it may change.
#include <string>

#include "harness.hpp"

namespace shoal::coll::inproc {
namespace {

struct Size {
  std::size_t nelems, elem_size;
};
constexpr Size kSizes[] = {{0, 4},  {1, 1},  {1, 4},   {13, 4},    {15, 4},   {57, 1},
                           {33, 4}, {3, 24}, {300, 4}, {16384, 4}, {17000, 4}};

// Messages up to kEveryRootBytes go out from every root. Larger ones take the same tree and
// piece arithmetic as the smaller sizes from each root (their offsets only scale), so they go
// out from the first, second, middle and last PE. The sweep over every size took 11.3 s with
// every root for them and takes 4.7 s so (three times as long under AddressSanitizer).
constexpr std::size_t kEveryRootBytes = 4096;
bool root_for_size(int root, int pes, Size size) {
  if (size.nelems * size.elem_size <= kEveryRootBytes) return true;
  return root == 0 || root == 1 || root == pes / 2 || root == pes - 1;
}

class Broadcast : public testing::TestWithParam<Param> {};

// One broadcast of `size` from `root` on PE me, the salt making this call's data its own, then
// the checks: nothing put left unsignalled, and dest holds the root's source with nothing past
// it changed. Does nothing where the algorithm does not apply.
void broadcast_and_check(const Param &p, Team &team, int me, ThreadsChannel &ch, PeLog &log,
                         Size size, int root, int salt, const std::string &what) {
  std::byte *dest = team.heap(me), *source = dest + team.heap_bytes() / 2;
  Args a;
  a.dest = dest;
  a.source = source;
  a.nelems = size.nelems;
  a.elem_size = size.elem_size;
  a.root = root;
  a.message_bytes = a.bytes();
  a.direct = p.mode == Mode::mapped;
  if (!log.applies(*p.algorithm, ch, a)) return;
  const std::size_t bytes = a.bytes();
  // Only the root's source matters; the others' hold their own data.
  for (std::size_t i = 0; i < bytes; ++i)
    source[i] = static_cast<std::byte>(value<int>(me, i, salt));
  std::memset(dest, static_cast<int>(kSentinel), bytes + kGuardBytes);
  run_call(*p.algorithm, ch, a);
  log.check_nothing_pending(ch, what);
  std::vector<std::byte> expected(bytes);
  for (std::size_t i = 0; i < bytes; ++i)
    expected[i] = static_cast<std::byte>(value<int>(root, i, salt));
  log.check_result(what, dest, expected.data(), bytes);
}

TEST_P(Broadcast, EveryRootEverySize) {
  const Param p = GetParam();
  const int ran =
      run_every_pe(p.pes, p.mode, [&](Team &team, int me, ThreadsChannel &ch, PeLog &log) {
        int salt = 0;
        for (const Size &size : kSizes)
          for (int root = 0; root < p.pes; ++root) {
            if (!root_for_size(root, p.pes, size)) continue;
            broadcast_and_check(p, team, me, ch, log, size, root, ++salt,
                                "root " + std::to_string(root) + ", " +
                                    std::to_string(size.nelems) + " x " +
                                    std::to_string(size.elem_size) + " B");
          }
      });
  if (ran == 0) GTEST_SKIP() << "applies() accepted no case";
}

// Long runs of small broadcasts from one root, then from the next: readers across nodes hold
// their acknowledgements back for the next message to the root, which a run from one root
// never brings, so the root must learn of the lines read from the acknowledgements sent alone.
TEST_P(Broadcast, LongRunsFromOneRoot) {
  const Param p = GetParam();
  constexpr int kRun = 4 * kBcastLines + 3;
  const int ran =
      run_every_pe(p.pes, p.mode, [&](Team &team, int me, ThreadsChannel &ch, PeLog &log) {
        int salt = 0;
        for (int root = 0; root < p.pes; ++root)
          for (int call = 0; call < kRun; ++call)
            broadcast_and_check(p, team, me, ch, log, {2, 4}, root, ++salt,
                                "root " + std::to_string(root) + ", call " + std::to_string(call));
      });
  if (ran == 0) GTEST_SKIP() << "applies() accepted no case";
}

INSTANTIATE_TEST_SUITE_P(Inproc, Broadcast, testing::ValuesIn(params(Collective::broadcast)),
                         param_name);

}  // namespace
}  // namespace shoal::coll::inproc
