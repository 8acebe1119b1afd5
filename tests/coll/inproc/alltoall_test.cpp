// Every alltoall algorithm on 1 to 16 threads-as-PEs, mapped and remote, as alltoall (strides
// 1) and alltoalls (dest and source strides 1 to 3), blocks from one element to above the
// mailbox (128 B) limit, element sizes 1, 4, 8 and 12. Block j of PE i's source must land in
// PE j's dest at block i, every dst-th element; the elements between, and everything past the
// last block, must not change.
#include <string>

#include "harness.hpp"

namespace shoal::coll::inproc {
namespace {

struct Case {
  std::size_t nelems, elem_size;
  std::ptrdiff_t dst, sst;
};
constexpr Case kCases[] = {{0, 4, 1, 1},  {1, 4, 1, 1},  {1, 1, 2, 3},  {3, 8, 1, 1},
                           {3, 12, 3, 2}, {32, 4, 1, 1}, {32, 4, 2, 1}, {33, 4, 1, 1},
                           {33, 4, 1, 3}, {40, 8, 2, 2}, {200, 1, 1, 1}};

class Alltoall : public testing::TestWithParam<Param> {};

TEST_P(Alltoall, EveryStrideEverySize) {
  const Param p = GetParam();
  const int ran =
      run_every_pe(p.pes, p.mode, [&](Team &team, int me, ThreadsChannel &ch, PeLog &log) {
        std::byte *dest = team.heap(me), *source = dest + team.heap_bytes() / 2;
        int salt = 0;
        for (const Case &c : kCases) {
          ++salt;
          Args a;
          a.dest = dest;
          a.source = source;
          a.nelems = c.nelems;
          a.elem_size = c.elem_size;
          a.dst_stride = c.dst;
          a.sst_stride = c.sst;
          a.message_bytes = a.bytes();
          a.direct = p.mode == Mode::mapped;
          if (!log.applies(*p.algorithm, ch, a)) continue;
          const std::size_t es = c.elem_size, all = static_cast<std::size_t>(p.pes) * c.nelems;
          const auto dst = static_cast<std::size_t>(c.dst), sst = static_cast<std::size_t>(c.sst);
          // Element k of the block for PE j is source element j*nelems + k, sst apart; its bytes
          // say who sent it to whom.
          auto byte_of = [&](int from, std::size_t element, std::size_t b) {
            return static_cast<std::byte>(value<int>(from, element * 16 + b, salt));
          };
          for (std::size_t e = 0; e < all; ++e)
            for (std::size_t b = 0; b < es; ++b) source[e * sst * es + b] = byte_of(me, e, b);
          const std::size_t extent = all == 0 ? 0 : ((all - 1) * dst + 1) * es;
          std::memset(dest, static_cast<int>(kSentinel), extent + kGuardBytes);
          run_call(*p.algorithm, ch, a);
          const std::string what = std::to_string(c.nelems) + " x " + std::to_string(es) +
                                   " B per PE, dst " + std::to_string(c.dst) + ", sst " +
                                   std::to_string(c.sst);
          log.check_nothing_pending(ch, what);
          std::vector<std::byte> expected(extent + 1, kSentinel);
          for (int from = 0; from < p.pes; ++from)
            for (std::size_t k = 0; k < c.nelems; ++k) {
              const std::size_t at = static_cast<std::size_t>(from) * c.nelems + k;
              const std::size_t sent = static_cast<std::size_t>(me) * c.nelems + k;
              for (std::size_t b = 0; b < es; ++b)
                expected[at * dst * es + b] = byte_of(from, sent, b);
            }
          log.check_result(what, dest, expected.data(), extent);
        }
      });
  if (ran == 0) GTEST_SKIP() << "applies() accepted no case";
}

INSTANTIATE_TEST_SUITE_P(Inproc, Alltoall, testing::ValuesIn(params(Collective::alltoall)),
                         param_name);

}  // namespace
}  // namespace shoal::coll::inproc
