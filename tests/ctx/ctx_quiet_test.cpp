// shmem_ctx_quiet completes the operations of its own context. Two contexts A and B carry
// nonblocking puts and gets at the same time; after quieting one of them:
//   * its get_nbi buffers hold the remote data (checked locally, right after the quiet);
//   * its put_nbi data is at the target: the initiator then raises a flag, and the target,
//     polling the flag with plain loads (no barrier, no quiet on the data's context), must
//     see the complete data as soon as it sees the flag.
// Whether the other context's operations are still pending cannot be observed reliably, so
// the test checks what can be: A's quiet guarantees A's data, B's quiet guarantees B's.
// The data goes to the symmetric heap (mapped on a node unless SMA_SHARED_MEMORY=0) and to
// .bss arrays (always through UCX from another PE).
#include "ctx_test_util.hpp"
#include "rma_ops.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

using namespace shoal::test;
using namespace shoal::test::ctx;

namespace {

constexpr std::size_t kMaxBytes = 256 * 1024;
constexpr std::size_t kStaticBytes = 64 * 1024;

// .bss destinations and get sources, one per context.
unsigned char g_static_dst[2][kStaticBytes];
unsigned char g_static_src[kStaticBytes];

// Flags raised by the left neighbour, one per context (lane); they carry the round number,
// which only grows.
long g_flag[2];

// Sizes cycle through small (inline/eager) and large (rendezvous/zero-copy) transfers.
const std::size_t kSizes[] = {8, 1, 4096, 200000, 63, kMaxBytes, 12345, 65536 + 8};
constexpr int kSizeCount = sizeof(kSizes) / sizeof(kSizes[0]);

unsigned char pattern(int pe, int ctx_index, int round, std::size_t i) {
  // ctx_index 0/1: the lanes' put data; 2/3: the heap/.bss get sources.
  return fill_value<unsigned char>(pe * 4 + ctx_index,
                                   i * 3 + static_cast<std::size_t>(round) * 17);
}

struct Lane {
  shmem_ctx_t ctx;
  unsigned char* heap_dst;    // symmetric
  unsigned char* static_dst;  // symmetric (.bss)
  std::vector<unsigned char> src, got_heap, got_static;
  std::size_t heap_bytes = 0, static_bytes = 0;
};

// Issues the lane's nonblocking traffic to the right neighbour: a put to the heap, a put to
// .bss, a get from the heap source and a get from .bss.
void issue(Lane& l, int index, int round, const unsigned char* heap_src) {
  const int r = right();
  l.heap_bytes = kSizes[(round + index) % kSizeCount];
  l.static_bytes = std::min(kStaticBytes, kSizes[(round + index + 3) % kSizeCount]);
  for (std::size_t i = 0; i < std::max(l.heap_bytes, l.static_bytes); ++i)
    l.src[i] = pattern(me(), index, round, i);
  std::fill(l.got_heap.begin(), l.got_heap.end(), 0xEE);
  std::fill(l.got_static.begin(), l.got_static.end(), 0xEE);
  shmem_ctx_putmem_nbi(l.ctx, l.heap_dst, l.src.data(), l.heap_bytes, r);
  shmem_ctx_putmem_nbi(l.ctx, l.static_dst, l.src.data(), l.static_bytes, r);
  shmem_ctx_getmem_nbi(l.ctx, l.got_heap.data(), heap_src, l.heap_bytes, r);
  shmem_ctx_getmem_nbi(l.ctx, l.got_static.data(), g_static_src, l.static_bytes, r);
}

// After quieting the lane's context: its gets are complete here; then tell the right
// neighbour its puts are complete.
void after_quiet(Lane& l, int index, int round) {
  const int r = right();
  EXPECT_TRUE(check_range(
      "get_nbi from the right neighbour's heap, right after its context's quiet", l.got_heap.data(),
      0, l.heap_bytes, [&](std::size_t i) { return pattern(r, 2, round, i); }))
      << "context " << index << ", round " << round;
  EXPECT_TRUE(
      check_range("get_nbi from the right neighbour's .bss, right after its context's quiet",
                  l.got_static.data(), 0, l.static_bytes,
                  [&](std::size_t i) { return pattern(r, 3, round, i); }))
      << "context " << index << ", round " << round;
  // The flag may travel on any context: the data is already complete.
  shmem_long_p(&g_flag[index], round, r);
  shmem_quiet();
}

// Counts the bytes of `dst` that differ from the left neighbour's pattern for this round.
std::size_t count_bad(const unsigned char* dst, int index, int round, std::size_t bytes,
                      std::size_t* first) {
  const int l = left();
  std::size_t bad = 0;
  for (std::size_t i = 0; i < bytes; ++i)
    if (static_cast<const volatile unsigned char*>(dst)[i] != pattern(l, index, round, i) &&
        bad++ == 0)
      *first = i;
  return bad;
}

// After a failed check: does the data still arrive (a completion reported too early) or not
// at all (lost, or written elsewhere)? Polls for up to two seconds.
int g_probes_left = 2;  // each probe may take two seconds: only the first failures get one
std::string late_arrival(const unsigned char* dst, int index, int round, std::size_t bytes) {
  if (g_probes_left <= 0) return "";
  --g_probes_left;
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t first = 0;
  while (std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2)) {
    if (count_bad(dst, index, round, bytes, &first) == 0) {
      const auto ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      return "; the data arrived " + std::to_string(ms) + " ms after the flag";
    }
    shmem_quiet();
    std::this_thread::yield();
  }
  return "; the data was still wrong 2 s after the flag";
}

// Waits for the left neighbour's flag of this lane, then checks its data without any further
// synchronization.
void receive(int index, int round, const unsigned char* heap_dst, std::size_t heap_bytes,
             std::size_t static_bytes) {
  if (!wait_for_value<long>(&g_flag[index], round)) {
    ADD_FAILURE() << "context " << index << ", round " << round << ": flag never arrived";
    return;
  }
  std::size_t first = 0;
  std::size_t bad = count_bad(heap_dst, index, round, heap_bytes, &first);
  if (bad != 0)
    ADD_FAILURE() << "context " << index << ", round " << round << ": " << bad << " of "
                  << heap_bytes << " heap bytes from PE " << left()
                  << " not there when the flag was (first at " << first << ")"
                  << late_arrival(heap_dst, index, round, heap_bytes);
  bad = count_bad(g_static_dst[index], index, round, static_bytes, &first);
  if (bad != 0)
    ADD_FAILURE() << "context " << index << ", round " << round << ": " << bad << " of "
                  << static_bytes << " .bss bytes from PE " << left()
                  << " not there when the flag was (first at " << first << ")"
                  << late_arrival(g_static_dst[index], index, round, static_bytes);
}

// Two contexts with the given options; each round issues B's then A's traffic (or A's then
// B's), quiets one, checks it, then the other.
void two_context_rounds(long options_a, long options_b, int rounds) {
  ScopedCtx a(options_a), b(options_b);
  SHOAL_ASSERT_ALL_PES(a.ok() && b.ok());
  SymArray<unsigned char> heap_dst(2 * kMaxBytes);
  SymArray<unsigned char> heap_src(kMaxBytes);  // get source, same for both contexts
  SHOAL_ASSERT_ALL_PES(heap_dst && heap_src);
  Lane lanes[2];
  for (int k = 0; k < 2; ++k) {
    lanes[k].ctx = k == 0 ? a.get() : b.get();
    lanes[k].heap_dst = heap_dst.get() + k * kMaxBytes;
    lanes[k].static_dst = g_static_dst[k];
    lanes[k].src.resize(kMaxBytes);
    lanes[k].got_heap.resize(kMaxBytes);
    lanes[k].got_static.resize(kStaticBytes);
  }
  g_flag[0] = g_flag[1] = 0;
  shmem_barrier_all();

  for (int round = 1; round <= rounds; ++round) {
    // Sources read by the left neighbour's gets this round; stable until the closing barrier.
    for (std::size_t i = 0; i < kMaxBytes; ++i) heap_src[i] = pattern(me(), 2, round, i);
    for (std::size_t i = 0; i < kStaticBytes; ++i) g_static_src[i] = pattern(me(), 3, round, i);
    shmem_barrier_all();

    const int first = round % 2;  // which context is quieted first
    const int second = 1 - first;
    // The context quieted second issues first, so its transfers are older and still
    // (possibly) in flight when the other one is quieted.
    issue(lanes[second], second, round, heap_src.get());
    issue(lanes[first], first, round, heap_src.get());

    shmem_ctx_quiet(lanes[first].ctx);
    after_quiet(lanes[first], first, round);
    receive(first, round, lanes[first].heap_dst, kSizes[(round + first) % kSizeCount],
            std::min(kStaticBytes, kSizes[(round + first + 3) % kSizeCount]));

    shmem_ctx_quiet(lanes[second].ctx);
    after_quiet(lanes[second], second, round);
    receive(second, round, lanes[second].heap_dst, kSizes[(round + second) % kSizeCount],
            std::min(kStaticBytes, kSizes[(round + second + 3) % kSizeCount]));

    shmem_barrier_all();  // everyone has checked before the next round overwrites
  }
  shmem_barrier_all();
}

}  // namespace

TEST(CtxQuiet, EachContextCompletesItsOwnTransfers) { two_context_rounds(0, 0, 24); }

TEST(CtxQuiet, PrivateAndSerializedContexts) {
  two_context_rounds(SHMEM_CTX_PRIVATE, SHMEM_CTX_SERIALIZED, 16);
}

TEST(CtxQuiet, NostoreContexts) {
  // NOSTORE relaxes local stores only; RMA on the context is still completed by its quiet.
  two_context_rounds(SHMEM_CTX_NOSTORE, SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE, 16);
}

// The default context and a created one: shmem_quiet completes the default context's
// transfers, shmem_ctx_quiet the created one's.
TEST(CtxQuiet, DefaultAndCreatedContext) {
  ScopedCtx c(0);
  SHOAL_ASSERT_ALL_PES(c.ok());
  SymArray<unsigned char> heap_dst(2 * kMaxBytes), heap_src(kMaxBytes);
  SHOAL_ASSERT_ALL_PES(heap_dst && heap_src);
  Lane lanes[2];
  for (int k = 0; k < 2; ++k) {
    lanes[k].ctx = k == 0 ? SHMEM_CTX_DEFAULT : c.get();
    lanes[k].heap_dst = heap_dst.get() + k * kMaxBytes;
    lanes[k].static_dst = g_static_dst[k];
    lanes[k].src.resize(kMaxBytes);
    lanes[k].got_heap.resize(kMaxBytes);
    lanes[k].got_static.resize(kStaticBytes);
  }
  g_flag[0] = g_flag[1] = 0;
  shmem_barrier_all();
  for (int round = 1; round <= 12; ++round) {
    for (std::size_t i = 0; i < kMaxBytes; ++i) heap_src[i] = pattern(me(), 2, round, i);
    for (std::size_t i = 0; i < kStaticBytes; ++i) g_static_src[i] = pattern(me(), 3, round, i);
    shmem_barrier_all();
    issue(lanes[1], 1, round, heap_src.get());
    issue(lanes[0], 0, round, heap_src.get());
    if (round % 2 == 0) {
      shmem_quiet();  // the default context only
      after_quiet(lanes[0], 0, round);
      receive(0, round, lanes[0].heap_dst, lanes[0].heap_bytes, lanes[0].static_bytes);
      shmem_ctx_quiet(c);
      after_quiet(lanes[1], 1, round);
      receive(1, round, lanes[1].heap_dst, lanes[1].heap_bytes, lanes[1].static_bytes);
    } else {
      shmem_ctx_quiet(c);
      after_quiet(lanes[1], 1, round);
      receive(1, round, lanes[1].heap_dst, lanes[1].heap_bytes, lanes[1].static_bytes);
      shmem_ctx_quiet(SHMEM_CTX_DEFAULT);
      after_quiet(lanes[0], 0, round);
      receive(0, round, lanes[0].heap_dst, lanes[0].heap_bytes, lanes[0].static_bytes);
    }
    shmem_barrier_all();
  }
  shmem_barrier_all();
}

// shmem_ctx_destroy quiets the context first: gets are complete when it returns, puts are at
// the target.
TEST(CtxQuiet, DestroyCompletesPendingTransfers) {
  SymArray<unsigned char> heap_dst(kMaxBytes), heap_src(kMaxBytes);
  SHOAL_ASSERT_ALL_PES(heap_dst && heap_src);
  Lane lane;
  lane.heap_dst = heap_dst.get();
  lane.static_dst = g_static_dst[0];
  lane.src.resize(kMaxBytes);
  lane.got_heap.resize(kMaxBytes);
  lane.got_static.resize(kStaticBytes);
  g_flag[0] = 0;
  shmem_barrier_all();
  for (int round = 1; round <= 8; ++round) {
    for (std::size_t i = 0; i < kMaxBytes; ++i) heap_src[i] = pattern(me(), 2, round, i);
    for (std::size_t i = 0; i < kStaticBytes; ++i) g_static_src[i] = pattern(me(), 3, round, i);
    const long options = kOptionCases[round % kOptionCaseCount].options;
    shmem_ctx_t c = SHMEM_CTX_INVALID;
    const int rc = shmem_ctx_create(options, &c);
    SHOAL_ASSERT_ALL_PES(rc == 0 && c != SHMEM_CTX_INVALID);
    shmem_barrier_all();
    lane.ctx = c;
    issue(lane, 0, round, heap_src.get());
    shmem_ctx_destroy(c);  // implicit quiet
    after_quiet(lane, 0, round);
    receive(0, round, lane.heap_dst, lane.heap_bytes, lane.static_bytes);
    shmem_barrier_all();
  }
  shmem_barrier_all();
}

// shmem_ctx_fence orders a created context's puts to one PE: data, fence, flag, all on the
// same context, and the target sees the data once it sees the flag.
TEST(CtxQuiet, FenceOrdersWithinAContext) {
  ScopedCtx c(0);
  SHOAL_ASSERT_ALL_PES(c.ok());
  SymArray<unsigned char> heap_dst(kMaxBytes);
  SHOAL_ASSERT_ALL_PES(heap_dst);
  std::vector<unsigned char> src(kMaxBytes);
  g_flag[0] = 0;
  shmem_barrier_all();
  for (int round = 1; round <= 16; ++round) {
    const std::size_t bytes = kSizes[round % kSizeCount];
    const std::size_t sbytes = std::min(kStaticBytes, kSizes[(round + 3) % kSizeCount]);
    for (std::size_t i = 0; i < std::max(bytes, sbytes); ++i) src[i] = pattern(me(), 0, round, i);
    shmem_ctx_putmem_nbi(c, heap_dst.get(), src.data(), bytes, right());
    shmem_ctx_putmem(c, g_static_dst[0], src.data(), sbytes, right());
    shmem_ctx_fence(c);
    shmem_ctx_long_p(c, &g_flag[0], round, right());
    shmem_ctx_quiet(c);  // only so the source buffer may be reused next round
    receive(0, round, heap_dst.get(), bytes, sbytes);
    shmem_barrier_all();
  }
  shmem_barrier_all();
}
