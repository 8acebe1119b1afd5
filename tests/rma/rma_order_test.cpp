// Ordering and completion: shmem_fence, shmem_quiet, shmem_pe_quiet (and ctx forms).
// Targets learn that data arrived by polling a flag with plain (volatile) loads, as
// real programs do, never through a barrier.
#include "rma_patterns.hpp"

#include <cstring>
#include <type_traits>

using namespace shoal::test;

// shmem_pe_quiet is new in 1.6 and drafts disagreed on its signature; use whichever the
// header declares (see SHOAL_TEST_FALLBACK in mpp_test.hpp).
SHOAL_TEST_FALLBACK(shmem_pe_quiet)
SHOAL_TEST_FALLBACK(shmem_ctx_pe_quiet)

// Returns true if some form of shmem_pe_quiet was called for `pe`.
static bool pe_quiet(int pe) {
  using namespace shoal_fallback;
  const int pes[1] = {pe};
  if constexpr (shoal_declared<decltype(shmem_pe_quiet(pes, std::size_t{1}))>) {
    shmem_pe_quiet(pes, std::size_t{1});
    return true;
  } else if constexpr (shoal_declared<decltype(shmem_pe_quiet(pe))>) {
    shmem_pe_quiet(pe);
    return true;
  } else {
    return false;
  }
}
static bool ctx_pe_quiet(shmem_ctx_t ctx, int pe) {
  using namespace shoal_fallback;
  const int pes[1] = {pe};
  if constexpr (shoal_declared<decltype(shmem_ctx_pe_quiet(ctx, pes, std::size_t{1}))>) {
    shmem_ctx_pe_quiet(ctx, pes, std::size_t{1});
    return true;
  } else if constexpr (shoal_declared<decltype(shmem_ctx_pe_quiet(ctx, pe))>) {
    shmem_ctx_pe_quiet(ctx, pe);
    return true;
  } else {
    return false;
  }
}

namespace {

// Above 256 KiB a blocking put to a PE of another node travels by rendezvous (rma/put_batch.hpp).
constexpr std::size_t kMaxData = 300 * 1024;

// Data, then fence, then flag, to the right neighbour, for many rounds; the receiver
// waits for the flag and must then see all the data. The receiver acknowledges each round
// so the sender does not overwrite data being checked. Message sizes rotate between
// small (likely inline/eager) and large (likely a different protocol), the case where a
// missing fence shows up.
template <class PutData, class Fence, class SetFlag>
void fence_rounds(const char* what, int rounds, PutData put_data, Fence fence, SetFlag set_flag) {
  SymArray<unsigned char> data(kMaxData);
  SymArray<long> flag(2);  // [0]: round delivered to me, [1]: round acknowledged to me
  SHOAL_ASSERT_ALL_PES(data && flag);
  flag[0] = flag[1] = 0;
  shmem_barrier_all();
  const std::size_t sizes[] = {8, 1, 4096, 200000, 63, kMaxData, 12345};
  std::vector<unsigned char> src(kMaxData);
  int bad_rounds = 0;
  for (int r = 1; r <= rounds; ++r) {
    const std::size_t sz = sizes[r % 7];
    for (std::size_t i = 0; i < sz; ++i) src[i] = fill_value<unsigned char>(me(), i + r);
    put_data(data.get(), src.data(), sz, right());
    fence();
    set_flag(&flag[0], r, right());

    // Receive from the left neighbour.
    if (!wait_for_value<long>(&flag[0], r)) {
      ADD_FAILURE() << what << ": round " << r << ": flag never arrived";
      break;
    }
    const int l = left();
    const std::size_t lsz = sizes[r % 7];
    std::size_t bad = 0;
    for (std::size_t i = 0; i < lsz; ++i) {
      if (static_cast<volatile unsigned char*>(data.get())[i] !=
          fill_value<unsigned char>(l, i + r))
        ++bad;
    }
    if (bad != 0 && bad_rounds++ < 5) {
      ADD_FAILURE() << what << ": round " << r << " (" << lsz << " bytes): flag seen but " << bad
                    << " data bytes not yet delivered: fence did not order the puts";
    }
    // Acknowledge to the left neighbour, then wait for the right neighbour's ack.
    shmem_long_p(&flag[1], r, l);
    if (!wait_for_value<long>(&flag[1], r)) {
      ADD_FAILURE() << what << ": round " << r << ": ack never arrived";
      break;
    }
  }
  EXPECT_EQ(bad_rounds, 0);
  shmem_barrier_all();
}

// Rounds per ordering test: each of fence_rounds' seven sizes six times. On the transports
// Debian's UCX has (shared memory, TCP) data put to one PE arrives in order even without the
// fence: with shmem_fence made a no-op, the four tests that call it passed all their 200 rounds
// on one node, through UCX and across namespace hosts. So what the rounds can catch is a path
// that reorders by construction (a flag sent past puts still waiting in a batch), which fails in
// every round of the sizes it takes; six rounds a size keep that, at a fifth of the time 200
// took.
constexpr int kFenceRounds = 6 * 7;

// The flag as a plain put.
template <class PutData, class Fence>
void fence_rounds(const char* what, int rounds, PutData put_data, Fence fence) {
  fence_rounds(what, rounds, put_data, fence,
               [](long* flag, long r, int pe) { shmem_long_p(flag, r, pe); });
}

}  // namespace

TEST(Fence, PutmemFencePutFlag) {
  fence_rounds(
      "putmem; fence; p", kFenceRounds,
      [](void* d, const void* s, std::size_t n, int pe) { shmem_putmem(d, s, n, pe); },
      [] { shmem_fence(); });
}

TEST(Fence, NbiFencePutFlag) {
  fence_rounds(
      "putmem_nbi; fence; p", kFenceRounds,
      [](void* d, const void* s, std::size_t n, int pe) { shmem_putmem_nbi(d, s, n, pe); },
      [] { shmem_fence(); });
}

// The flag as a non-fetching AMO: across nodes it joins the puts still in their batch (the
// fence leaves them there), and the target must apply it after them.
TEST(Fence, NbiFenceAtomicSetFlag) {
  fence_rounds(
      "putmem_nbi; fence; atomic_set", kFenceRounds,
      [](void* d, const void* s, std::size_t n, int pe) { shmem_putmem_nbi(d, s, n, pe); },
      [] { shmem_fence(); },
      [](long* flag, long r, int pe) { shmem_long_atomic_set(flag, r, pe); });
}

TEST(Fence, NbiFenceAtomicAddFlag) {
  fence_rounds(
      "putmem_nbi; fence; atomic_add", kFenceRounds,
      [](void* d, const void* s, std::size_t n, int pe) { shmem_putmem_nbi(d, s, n, pe); },
      [] { shmem_fence(); }, [](long* flag, long, int pe) { shmem_long_atomic_add(flag, 1, pe); });
}

TEST(Fence, CtxFence) {
  fence_rounds(
      "ctx_putmem; ctx_fence; p", kFenceRounds,
      [](void* d, const void* s, std::size_t n, int pe) {
        shmem_ctx_putmem(SHMEM_CTX_DEFAULT, d, s, n, pe);
      },
      [] { shmem_ctx_fence(SHMEM_CTX_DEFAULT); });
}

TEST(Fence, QuietInsteadOfFence) {
  fence_rounds(
      "putmem; quiet; p", kFenceRounds,
      [](void* d, const void* s, std::size_t n, int pe) { shmem_putmem(d, s, n, pe); },
      [] { shmem_quiet(); });
}

// Many small puts to the same word, fenced: the last value must win.
TEST(Fence, LastWriteWins) {
  SymArray<long> word(1);
  SHOAL_ASSERT_ALL_PES(word);
  word[0] = -1;
  shmem_barrier_all();
  for (long v = 0; v < 1000; ++v) {
    shmem_long_p(word.get(), v, right());
    shmem_fence();
  }
  shmem_barrier_all();
  EXPECT_EQ(word[0], 999);
  shmem_barrier_all();
}

// After shmem_quiet, every nbi put is complete: reading it back from the target (no
// barrier in between) returns the new data; every nbi get has filled its buffer.
TEST(Quiet, CompletesNbiPuts) {
  const std::size_t sizes[] = {1, 8, 100, 4096, 65536, 1 << 20};
  std::size_t total = 0;
  for (std::size_t s : sizes) total += s;
  SymArray<unsigned char> dst(total);
  SHOAL_ASSERT_ALL_PES(dst);
  std::memset(dst.get(), 0, total);
  std::vector<unsigned char> src(total);
  for (int round = 0; round < 5; ++round) {
    for (std::size_t i = 0; i < total; ++i) src[i] = fill_value<unsigned char>(me(), i + round);
    shmem_barrier_all();
    std::size_t off = 0;
    for (std::size_t s : sizes) {
      shmem_putmem_nbi(dst.get() + off, src.data() + off, s, right());
      off += s;
    }
    shmem_quiet();
    std::vector<unsigned char> back(total, 0);
    shmem_getmem(back.data(), dst.get(), total, right());
    EXPECT_TRUE(check_range("nbi puts read back after quiet", back.data(), 0, total,
                            [&](std::size_t i) { return src[i]; }));
    shmem_barrier_all();
  }
}

TEST(Quiet, CompletesNbiGets) {
  const std::size_t n = (1 << 20) + 3;
  SymArray<unsigned char> src(n);
  SHOAL_ASSERT_ALL_PES(src);
  for (std::size_t i = 0; i < n; ++i) src[i] = fill_value<unsigned char>(me(), i);
  shmem_barrier_all();
  std::vector<unsigned char> a(n), b(16), c(n);
  shmem_getmem_nbi(a.data(), src.get(), n, right());
  shmem_getmem_nbi(b.data(), src.get() + 5, 16, 0);
  shmem_ctx_getmem_nbi(SHMEM_CTX_DEFAULT, c.data(), src.get(), n, left());
  shmem_quiet();
  shmem_ctx_quiet(SHMEM_CTX_DEFAULT);
  EXPECT_TRUE(check_range("get_nbi from right", a.data(), 0, n,
                          [&](std::size_t i) { return fill_value<unsigned char>(right(), i); }));
  EXPECT_TRUE(check_range("get_nbi from PE 0", b.data(), 0, 16,
                          [&](std::size_t i) { return fill_value<unsigned char>(0, i + 5); }));
  EXPECT_TRUE(check_range("ctx get_nbi from left", c.data(), 0, n,
                          [&](std::size_t i) { return fill_value<unsigned char>(left(), i); }));
  shmem_barrier_all();
}

// Quiet makes puts visible to *all* PEs: PE i puts data on PE i+1, quiets, then raises a
// flag on PE i+2, which reads the data from PE i+1 with a get. Sizes rotate between a word
// (which goes to another node as an acknowledged swap, see WordPutsVisibleToThirdPe) and
// larger puts (which a quiet flushes).
TEST(Quiet, VisibleToThirdPe) {
  SHOAL_REQUIRE_MIN_NPES(3);
  const int n = npes();
  const std::size_t lens[] = {8, 4096, 100000};
  SymArray<unsigned char> data(lens[2]);
  SymArray<long> flag(1);
  SHOAL_ASSERT_ALL_PES(data && flag);
  std::vector<unsigned char> src(lens[2]), got(lens[2]);
  for (int round = 1; round <= 30; ++round) {
    const std::size_t len = lens[round % 3];
    flag[0] = 0;
    std::memset(data.get(), 0, len);
    shmem_barrier_all();
    for (std::size_t i = 0; i < len; ++i) src[i] = fill_value<unsigned char>(me(), i + round);
    shmem_putmem_nbi(data.get(), src.data(), len, (me() + 1) % n);
    shmem_quiet();
    shmem_long_p(flag.get(), round, (me() + 2) % n);
    shmem_quiet();
    ASSERT_TRUE(wait_for_value<long>(flag.get(), round)) << "round " << round;
    const int origin = (me() + n - 2) % n;
    const int holder = (me() + n - 1) % n;
    shmem_getmem(got.data(), data.get(), len, holder);
    EXPECT_TRUE(
        check_range("data put by PE i on PE i+1, read by PE i+2", got.data(), 0, len,
                    [&](std::size_t i) { return fill_value<unsigned char>(origin, i + round); }))
        << "round " << round;
    shmem_barrier_all();
  }
}

// The same through a long queue of small puts, which a quiet must all complete: 256 puts of
// 4 KiB to PE i+1, quiet, then the flag on PE i+2, which must find all of them on PE i+1.
TEST(Quiet, ManySmallPutsVisibleToThirdPe) {
  SHOAL_REQUIRE_MIN_NPES(3);
  const int n = npes();
  constexpr std::size_t kPiece = 4096, kPieces = 256, kLen = kPiece * kPieces;
  SymArray<unsigned char> data(kLen);
  SymArray<long> flag(1);
  SHOAL_ASSERT_ALL_PES(data && flag);
  std::vector<unsigned char> src(kLen), got(kLen);
  for (int round = 1; round <= 6; ++round) {
    flag[0] = 0;
    std::memset(data.get(), 0, kLen);
    shmem_barrier_all();
    for (std::size_t i = 0; i < kLen; ++i) src[i] = fill_value<unsigned char>(me(), i + round);
    for (std::size_t k = 0; k < kPieces; ++k)
      shmem_putmem_nbi(data.get() + k * kPiece, src.data() + k * kPiece, kPiece, (me() + 1) % n);
    shmem_quiet();
    shmem_long_p(flag.get(), round, (me() + 2) % n);
    shmem_quiet();
    ASSERT_TRUE(wait_for_value<long>(flag.get(), round)) << "round " << round;
    const int origin = (me() + n - 2) % n;
    shmem_getmem(got.data(), data.get(), kLen, (me() + n - 1) % n);
    EXPECT_TRUE(
        check_range("small puts by PE i on PE i+1, read by PE i+2", got.data(), 0, kLen,
                    [&](std::size_t i) { return fill_value<unsigned char>(origin, i + round); }))
        << "round " << round;
    shmem_barrier_all();
  }
}

// Word puts: an aligned 4- or 8-byte put to a PE of another node joins its batch, or, where
// the PE gets none, is a UCX swap whose reply the next quiet waits for, instead of a put and a
// flush; either way only the first after a quiet asks for an answer. PE i puts words into PE i+1's
// heap and globals (blocking and nbi, aligned and, for 8 bytes, at a 4-byte offset, which takes the
// plain put), quiets, then raises a flag on PE i+2, which must read every word from PE i+1.
namespace {
struct WordTargets {
  long long aligned8[2];
  int aligned4[2];
  int unaligned8[3];  // unaligned8 + 1 is at offset 28: 4-byte aligned, not 8
};
WordTargets global_words;
}  // namespace

TEST(Quiet, WordPutsVisibleToThirdPe) {
  SHOAL_REQUIRE_MIN_NPES(3);
  const int n = npes();
  SymArray<WordTargets> heap(1);
  SymArray<long> flag(1);
  SHOAL_ASSERT_ALL_PES(heap && flag);
  for (int round = 1; round <= 20; ++round) {
    WordTargets* const targets[] = {heap.get(), &global_words};
    flag[0] = 0;
    for (WordTargets* t : targets) std::memset(t, 0, sizeof *t);
    shmem_barrier_all();
    const int next = (me() + 1) % n;
    const long long w8 = (static_cast<long long>(me() + 1) << 40) | round;
    const int w4 = (me() + 1) * 1000 + round;
    for (WordTargets* t : targets) {
      if (round % 2 == 0) {
        shmem_longlong_p(&t->aligned8[1], w8, next);
        shmem_int_p(&t->aligned4[1], w4, next);
        shmem_putmem(&t->unaligned8[1], &w8, 8, next);
      } else {
        shmem_putmem_nbi(&t->aligned8[1], &w8, 8, next);
        shmem_putmem_nbi(&t->aligned4[1], &w4, 4, next);
        shmem_putmem_nbi(&t->unaligned8[1], &w8, 8, next);
      }
    }
    shmem_quiet();
    shmem_long_p(flag.get(), round, (me() + 2) % n);
    shmem_quiet();
    ASSERT_TRUE(wait_for_value<long>(flag.get(), round)) << "round " << round;
    const int origin = (me() + n - 2) % n;
    const long long want8 = (static_cast<long long>(origin + 1) << 40) | round;
    const int want4 = (origin + 1) * 1000 + round;
    for (WordTargets* t : targets) {
      WordTargets got;
      shmem_getmem(&got, t, sizeof got, (me() + n - 1) % n);
      long long unaligned;
      std::memcpy(&unaligned, &got.unaligned8[1], 8);
      const char* where = t == heap.get() ? "heap" : "global";
      EXPECT_EQ(got.aligned8[1], want8) << where << ", round " << round;
      EXPECT_EQ(got.aligned4[1], want4) << where << ", round " << round;
      EXPECT_EQ(unaligned, want8) << where << ", round " << round;
      EXPECT_EQ(got.aligned8[0] | got.aligned4[0] | got.unaligned8[0], 0)
          << where << ": a word before the targets changed, round " << round;
    }
    shmem_barrier_all();
  }
}

// The classic notification in a ping-pong, put + fence + atomic_set of a flag, never quieted:
// across nodes its messages ask for no answer (put_batch.hpp), so the quiet after it must ask.
// PEs 0 and 1 ping-pong 40 rounds, then PE 0 puts once more (a word, 13 words, 8 blocking puts
// of 64 KiB, each a message of its own, and an atomic_add, none asking for an answer), quiets,
// and raises a flag on PE 2, which must find all of it on PE 1. (Whether the quiet waited is
// not visible here: PE 1 handles the messages before PE 2's get arrives even when it does not.
// What is checked: every update arrives, and the quiet's accounting of answers ends.)
TEST(Quiet, CompletesAnUnquietedPingPong) {
  SHOAL_REQUIRE_MIN_NPES(3);
  constexpr int kRounds = 40;
  constexpr std::size_t kChunk = 64 * 1024 / sizeof(long), kChunks = 8;
  SymArray<long> data(16), flag(1), seen(1), counter(1), bulk(kChunk * kChunks);
  SHOAL_ASSERT_ALL_PES(data && flag && seen && counter && bulk);
  std::memset(bulk.get(), 0, kChunk * kChunks * sizeof(long));
  flag[0] = seen[0] = counter[0] = 0;
  std::memset(data.get(), 0, 16 * sizeof(long));
  shmem_barrier_all();
  if (me() < 2) {
    const int partner = 1 - me();
    long words[16];
    for (long round = 1; round <= kRounds; ++round) {
      if (me() == 1) ASSERT_TRUE(wait_for_value<long>(flag.get(), round)) << "round " << round;
      for (int i = 0; i < 16; ++i) words[i] = round * 100 + i;
      shmem_putmem(data.get(), words, sizeof words, partner);
      shmem_fence();
      shmem_long_atomic_set(flag.get(), round, partner);
      if (me() == 0) ASSERT_TRUE(wait_for_value<long>(flag.get(), round)) << "round " << round;
    }
    if (me() == 0) {
      EXPECT_EQ(data[15], kRounds * 100 + 15) << "PE 1's last answer";
      const long last = 7777;
      shmem_long_p(data.get(), last, 1);
      for (int i = 0; i < 13; ++i) words[i] = -i;
      shmem_putmem(data.get() + 2, words, 13 * sizeof(long), 1);
      std::vector<long> chunk(kChunk);
      for (std::size_t k = 0; k < kChunks; ++k) {
        for (std::size_t i = 0; i < kChunk; ++i) chunk[i] = static_cast<long>(k * kChunk + i) + 1;
        shmem_putmem(bulk.get() + k * kChunk, chunk.data(), kChunk * sizeof(long), 1);
      }
      shmem_long_atomic_add(counter.get(), 5, 1);
      shmem_quiet();
      shmem_long_atomic_set(seen.get(), 1, 2);
    }
  }
  if (me() == 2) {
    ASSERT_TRUE(wait_for_value<long>(seen.get(), 1));
    long got[16];
    shmem_getmem(got, data.get(), sizeof got, 1);
    EXPECT_EQ(got[0], 7777);
    EXPECT_EQ(got[1], kRounds * 100 + 1) << "the last ping-pong's put";
    for (int i = 0; i < 13; ++i) EXPECT_EQ(got[2 + i], -i) << "word " << 2 + i;
    EXPECT_EQ(got[15], kRounds * 100 + 15) << "the last ping-pong's put";
    EXPECT_EQ(shmem_long_atomic_fetch(counter.get(), 1), 5);
    std::vector<long> bulk_got(kChunk * kChunks);
    shmem_getmem(bulk_got.data(), bulk.get(), kChunk * kChunks * sizeof(long), 1);
    EXPECT_TRUE(check_range("the 64 KiB puts", bulk_got.data(), 0, kChunk * kChunks,
                            [](std::size_t i) { return static_cast<long>(i) + 1; }));
  }
  shmem_barrier_all();
}

// Blocking put: the source buffer may be reused as soon as the call returns.
// Every PE gets from its right neighbour and adds to its counter with blocking calls, all at
// once: each request reaches a PE that is itself waiting for a reply, so a PE serves other
// PEs' operations on it while it waits for its own (core/wait.hpp, wait_for_replies). Across
// hosts, one PE per host, this is the schedule of a machine with a CPU for each PE.
TEST(Get, EveryPeFromItsNeighbourAtOnce) {
  constexpr int kRounds = 2000;
  constexpr std::size_t kWords = 4;
  SymArray<long> words(kWords);
  SymArray<long> counter(1);
  SHOAL_ASSERT_ALL_PES(words && counter);
  for (std::size_t i = 0; i < kWords; ++i) words[i] = 1000 * me() + static_cast<long>(i);
  counter[0] = 0;
  shmem_barrier_all();
  int bad = 0;
  for (int r = 0; r < kRounds; ++r) {
    long got[kWords] = {};
    shmem_getmem(got, words.get(), sizeof got, right());
    const long before = shmem_long_atomic_fetch_add(counter.get(), 1, right());
    for (std::size_t i = 0; i < kWords; ++i)
      if (got[i] != 1000 * right() + static_cast<long>(i) && bad++ < 5)
        ADD_FAILURE() << "round " << r << ": word " << i << " of PE " << right() << " read "
                      << got[i];
    if (before != r && bad++ < 5)
      ADD_FAILURE() << "round " << r << ": fetch-add on PE " << right() << " returned " << before;
  }
  shmem_barrier_all();
  EXPECT_EQ(counter[0], kRounds);  // from the left neighbour (this PE itself when alone)
  EXPECT_EQ(bad, 0);
}

TEST(Put, SourceReusableOnReturn) {
  const std::size_t len = 1 << 20;
  SymArray<unsigned char> dst(len);
  SHOAL_ASSERT_ALL_PES(dst);
  std::vector<unsigned char> src(len);
  for (std::size_t i = 0; i < len; ++i) src[i] = fill_value<unsigned char>(me(), i);
  shmem_barrier_all();
  shmem_putmem(dst.get(), src.data(), len, right());
  std::memset(src.data(), 0xee, len);  // must not affect what arrives
  shmem_barrier_all();
  EXPECT_TRUE(check_range("put source overwritten after return", dst.get(), 0, len,
                          [&](std::size_t i) { return fill_value<unsigned char>(left(), i); }));
  shmem_barrier_all();
}

TEST(PeQuiet, CompletesPutsToThatPe) {
  const std::size_t len = 300000;
  SymArray<unsigned char> dst(len);
  SHOAL_ASSERT_ALL_PES(dst);
  std::vector<unsigned char> src(len), back(len);
  for (std::size_t i = 0; i < len; ++i) src[i] = fill_value<unsigned char>(me(), i);
  std::memset(dst.get(), 0, len);
  shmem_barrier_all();
  shmem_putmem_nbi(dst.get(), src.data(), len, right());
  if (!pe_quiet(right())) {
    shmem_barrier_all();
    SHOAL_SKIP_UNLESS_SHOAL("shmem_pe_quiet is not declared by shmem.h");
  }
  shmem_getmem(back.data(), dst.get(), len, right());
  EXPECT_TRUE(check_range("put_nbi read back after shmem_pe_quiet", back.data(), 0, len,
                          [&](std::size_t i) { return src[i]; }));
  shmem_barrier_all();

  for (std::size_t i = 0; i < len; ++i) src[i] = fill_value<unsigned char>(me(), i + 1);
  shmem_ctx_putmem_nbi(SHMEM_CTX_DEFAULT, dst.get(), src.data(), len, right());
  EXPECT_TRUE(ctx_pe_quiet(SHMEM_CTX_DEFAULT, right())) << "shmem_ctx_pe_quiet is not declared";
  shmem_getmem(back.data(), dst.get(), len, right());
  EXPECT_TRUE(check_range("ctx put_nbi read back after shmem_ctx_pe_quiet", back.data(), 0, len,
                          [&](std::size_t i) { return src[i]; }));
  shmem_barrier_all();
}

// Combined puts (rma/put_batch.hpp): nonblocking puts of up to 16 KiB to a PE of another node
// travel in one message per PE, blocking ones of up to 64 KiB in one message each (those above
// what a batch of 64 KiB holds from the caller's buffer, in pieces up to 256 KiB, by rendezvous
// above), and the quiet waits for the target's answers.
// PE i puts pieces of every size from 1 to 256 bytes
// and some larger ones on both sides of those limits, at odd offsets, into PE i+1's heap and
// globals -- more than one batch holds, so batches also leave on their own -- quiets, then
// raises a flag on PE i+2, which must read every byte from PE i+1. Odd rounds put
// nonblocking, even rounds blocking. On one node (or with shared memory) the same calls take
// the other paths.
namespace {
constexpr std::size_t kCombinedBytes = 1300000;
unsigned char global_combined[kCombinedBytes];

std::vector<std::size_t> combined_piece_lengths() {
  std::vector<std::size_t> out;
  for (std::size_t len = 1; len <= 256; ++len) out.push_back(len);
  for (std::size_t len :
       {257,  511,   1000,  1024,  2047,  2048,  2049,  4095,  4096,  4097,   8175,   8176,
        8177, 16383, 16384, 16385, 65520, 65521, 65535, 65536, 65537, 262144, 262145, 300001})
    out.push_back(len);
  return out;
}
}  // namespace

TEST(CombinedPuts, EverySizeVisibleToThirdPe) {
  SHOAL_REQUIRE_MIN_NPES(3);
  const int n = npes();
  SymArray<unsigned char> heap(kCombinedBytes);
  SymArray<long> flag(1);
  SHOAL_ASSERT_ALL_PES(heap && flag);
  std::vector<unsigned char> src(kCombinedBytes), got(kCombinedBytes);
  for (int round = 1; round <= 4; ++round) {
    unsigned char* const targets[] = {heap.get(), global_combined};
    flag[0] = 0;
    for (unsigned char* t : targets) std::memset(t, 0, kCombinedBytes);
    shmem_barrier_all();
    for (std::size_t i = 0; i < kCombinedBytes; ++i)
      src[i] = fill_value<unsigned char>(me(), i + round);
    const int next = (me() + 1) % n;
    // The pieces back to back from offset 1 (so most are unaligned), with a gap of one
    // untouched byte after each.
    const std::vector<std::size_t> lengths = combined_piece_lengths();
    std::size_t end = 1;
    for (std::size_t len : lengths) end += len + 1;
    ASSERT_LE(end, kCombinedBytes);
    for (unsigned char* t : targets) {
      std::size_t at = 1;
      for (std::size_t len : lengths) {
        if (round % 2 == 1)
          shmem_putmem_nbi(t + at, src.data() + at, len, next);
        else
          shmem_putmem(t + at, src.data() + at, len, next);
        at += len + 1;
      }
    }
    shmem_quiet();
    shmem_long_p(flag.get(), round, (me() + 2) % n);
    shmem_quiet();
    ASSERT_TRUE(wait_for_value<long>(flag.get(), round)) << "round " << round;
    const int origin = (me() + n - 2) % n;
    for (unsigned char* t : targets) {
      shmem_getmem(got.data(), t, end, (me() + n - 1) % n);
      std::size_t at = 1, bad = 0, first_bad = 0;
      for (std::size_t len : lengths) {
        for (std::size_t i = at; i < at + len; ++i)
          if (got[i] != fill_value<unsigned char>(origin, i + round) && bad++ == 0) first_bad = i;
        if (got[at + len] != 0 && bad++ == 0) first_bad = at + len;  // the gap stays untouched
        at += len + 1;
      }
      if (got[0] != 0 && bad++ == 0) first_bad = 0;
      EXPECT_EQ(bad, 0u) << (t == heap.get() ? "heap" : "global") << ", round " << round
                         << ": first wrong byte at offset " << first_bad;
    }
    shmem_barrier_all();
  }
}

// Combined gets (rma/put_batch.hpp): nonblocking gets of up to 16 KiB from a PE of another
// node travel as records of that PE's batch, and their bytes come back in the batch's answer.
// Each PE gets pieces of every size from 1 to 256 bytes and larger ones on both sides of the
// limits, at odd offsets, from its right neighbour's heap and globals into a buffer whose gaps
// must stay untouched, and checks them after the quiet. Odd rounds read what the neighbour
// wrote itself before a barrier; even rounds what this PE put there, completed by a quiet,
// with gets interleaved with puts to the same PE in the same batch.
TEST(CombinedGets, EverySizeAfterQuiet) {
  const int n = npes();
  SymArray<unsigned char> heap(kCombinedBytes);
  SHOAL_ASSERT_ALL_PES(heap);
  const std::vector<std::size_t> lengths = combined_piece_lengths();
  std::size_t end = 1;
  for (std::size_t len : lengths) end += len + 1;
  ASSERT_LT(end, kCombinedBytes);  // one byte after the pieces takes the puts
  std::vector<unsigned char> got(kCombinedBytes), mine(kCombinedBytes);
  const int right = (me() + 1) % n;
  for (int round = 1; round <= 4; ++round) {
    unsigned char* const sources[] = {heap.get(), global_combined};
    // Odd rounds: every PE fills its own memory; even rounds: this PE fills its right
    // neighbour's with puts.
    const int writer = round % 2 == 1 ? right : me();
    for (std::size_t i = 0; i < kCombinedBytes; ++i)
      mine[i] = fill_value<unsigned char>(me(), i + 7 * round);
    if (round % 2 == 1)
      for (unsigned char* t : sources) std::memcpy(t, mine.data(), kCombinedBytes);
    shmem_barrier_all();
    for (unsigned char* t : sources) {
      if (round % 2 == 0) {
        shmem_putmem(t, mine.data(), kCombinedBytes, right);
        shmem_quiet();
      }
      std::memset(got.data(), 0xEE, end);
      std::size_t at = 1;
      for (std::size_t len : lengths) {
        shmem_getmem_nbi(got.data() + at, t + at, len, right);
        // A put to a place no get reads, in the same batch: the puts go on.
        if (round % 2 == 0) shmem_putmem_nbi(t + end, mine.data() + at, 1, right);
        at += len + 1;
      }
      shmem_quiet();
      std::size_t bad = 0, first_bad = 0;
      at = 1;
      for (std::size_t len : lengths) {
        for (std::size_t i = at; i < at + len; ++i)
          if (got[i] != fill_value<unsigned char>(writer, i + 7 * round) && bad++ == 0)
            first_bad = i;
        if (got[at + len] != 0xEE && bad++ == 0) first_bad = at + len;  // the gap
        at += len + 1;
      }
      if (got[0] != 0xEE && bad++ == 0) first_bad = 0;
      EXPECT_EQ(bad, 0u) << (t == heap.get() ? "heap" : "global") << ", round " << round
                         << ": first wrong byte at offset " << first_bad;
    }
    shmem_barrier_all();
  }
}

// A PE that puts without a quiet and then waits must not wait for its own unsent put: each PE
// puts a flag into its right neighbour (nonblocking, small), then waits for the flag from its
// left neighbour, with shmem_wait_until and, in odd rounds, by polling with shmem_test.
TEST(CombinedPuts, SentBeforeWaiting) {
  SymArray<long> flag(1);
  SymArray<unsigned char> odd(3);
  SHOAL_ASSERT_ALL_PES(flag && odd);
  flag[0] = 0;
  shmem_barrier_all();
  for (long round = 1; round <= 20; ++round) {
    const unsigned char bytes[3] = {static_cast<unsigned char>(round), 7, 9};
    shmem_putmem_nbi(odd.get(), bytes, 3, right());
    shmem_long_put_nbi(flag.get(), &round, 1, right());
    if (round % 2 == 1) {
      while (!shmem_long_test(flag.get(), SHMEM_CMP_GE, round)) {
      }
    } else {
      shmem_long_wait_until(flag.get(), SHMEM_CMP_GE, round);
    }
    shmem_barrier_all();  // completes this round's puts everywhere
    EXPECT_EQ(odd[0], static_cast<unsigned char>(round)) << "round " << round;
    shmem_barrier_all();
  }
}

// The same on created contexts, which combine their puts too (a private one, a SERIALIZED one
// and one of options 0; under SHMEM_THREAD_MULTIPLE the last two take a lock): a wait or a test
// inside the library sends what the calling thread's contexts hold. Every third round, the
// first included, is the classic notification instead: a blocking put, a fence, and the flag
// set by an atomic (ctx_threads' NotificationPingPongOnEveryContext does the same on fresh
// workers, where it once hung).
TEST(CombinedPuts, SentBeforeWaitingOnContexts) {
  SymArray<long> flag(1);
  SymArray<unsigned char> odd(3);
  SHOAL_ASSERT_ALL_PES(flag && odd);
  for (const long options : {long{SHMEM_CTX_PRIVATE}, long{SHMEM_CTX_SERIALIZED}, 0L}) {
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    ASSERT_EQ(shmem_ctx_create(options, &ctx), 0);
    flag[0] = 0;
    shmem_barrier_all();
    for (long round = 1; round <= 20; ++round) {
      const unsigned char bytes[3] = {static_cast<unsigned char>(round), 7, 9};
      if (round % 3 == 1) {
        shmem_ctx_putmem(ctx, odd.get(), bytes, 3, right());
        shmem_ctx_fence(ctx);
        shmem_ctx_long_atomic_set(ctx, flag.get(), round, right());
      } else {
        shmem_ctx_putmem_nbi(ctx, odd.get(), bytes, 3, right());
        shmem_ctx_long_put_nbi(ctx, flag.get(), &round, 1, right());
      }
      if (round % 2 == 1) {
        while (!shmem_long_test(flag.get(), SHMEM_CMP_GE, round)) {
        }
      } else {
        shmem_long_wait_until(flag.get(), SHMEM_CMP_GE, round);
      }
      shmem_ctx_quiet(ctx);
      shmem_barrier_all();  // with the quiet, completes this round's puts everywhere
      EXPECT_EQ(odd[0], static_cast<unsigned char>(round))
          << (options == SHMEM_CTX_PRIVATE      ? "private"
              : options == SHMEM_CTX_SERIALIZED ? "serialized"
                                                : "shared")
          << " context, round " << round;
      shmem_barrier_all();
    }
    shmem_ctx_destroy(ctx);
  }
}
