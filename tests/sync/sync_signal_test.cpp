// Signaling operations: every put-with-signal routine (typed, sized, mem; blocking and nbi;
// plain and ctx), SHMEM_SIGNAL_SET and SHMEM_SIGNAL_ADD, data and signal on the symmetric heap
// or in global variables (which reach an on-node PE through different paths), and
// shmem_signal_fetch / add / set / wait_until.
//
// The receiver learns that data arrived only from the signal (shmem_signal_wait_until, no
// barrier), and then checks every byte: a signal that overtakes its data is caught as stale
// bytes.
#include "sync_ops.hpp"

#include <chrono>
#include <vector>

using namespace shoal::test;

namespace {

constexpr std::size_t kArea = 256 * 1024;
alignas(64) unsigned char g_area[kArea];  // symmetric: the program's .bss
std::uint64_t g_sig;
std::uint64_t g_ack;

// Where the data and the signal live.
struct Placement {
  bool data_global, sig_global;
  const char* name() const {
    static const char* names[] = {"heap data, heap signal", "heap data, global signal",
                                  "global data, heap signal", "global data, global signal"};
    return names[(data_global ? 2 : 0) + (sig_global ? 1 : 0)];
  }
};
const Placement kPlacements[] = {{false, false}, {true, false}, {false, true}, {true, true}};

unsigned char pattern(int pe, std::size_t i, long round) {
  return static_cast<unsigned char>(pe * 37 + i * 7 + static_cast<std::size_t>(round) * 13);
}

// Symmetric buffers for one test: heap ones allocated here, global ones are the globals above.
class Buffers {
 public:
  Buffers() : heap_area_(kArea), heap_words_(2) {}
  bool ok() const { return heap_area_ && heap_words_; }
  unsigned char* area(const Placement& p) { return p.data_global ? g_area : heap_area_.get(); }
  std::uint64_t* sig(const Placement& p) { return p.sig_global ? &g_sig : &heap_words_[0]; }
  std::uint64_t* ack() { return &heap_words_[1]; }  // the acknowledgement goes back on the heap

 private:
  SymArray<unsigned char> heap_area_;
  SymArray<std::uint64_t> heap_words_;
};

// Rounds of a ring: each PE puts `bytes[r % n]` (rounded down to whole elements) with a
// signal to its right neighbour, waits for the signal from its left one, checks the data and
// acknowledges with shmem_signal_set so the next round cannot overwrite data being checked.
// Round r leaves the signal at r whether it is set to r or incremented from r - 1; the
// operator alternates between rounds (first_op, then the other).
void signal_ring(const PutSignalForm& form, Buffers& buf, const Placement& where, long rounds,
                 const std::vector<std::size_t>& bytes, int first_op) {
  unsigned char* area = buf.area(where);
  std::uint64_t* sig = buf.sig(where);
  std::uint64_t* ack = buf.ack();
  *sig = 0;
  *ack = 0;
  SCOPED_TRACE(form.name + ", " + where.name());
  shmem_barrier_all();
  std::vector<unsigned char> src(kArea);
  int bad_rounds = 0;
  for (long r = 1; r <= rounds; ++r) {
    const std::size_t nelems = bytes[static_cast<std::size_t>(r) % bytes.size()] / form.elem;
    const std::size_t len = nelems * form.elem;
    for (std::size_t i = 0; i < len; ++i) src[i] = pattern(me(), i, r);
    const int op = (r % 2) ? first_op : (SHMEM_SIGNAL_SET + SHMEM_SIGNAL_ADD - first_op);
    form.fn(area, src.data(), nelems, sig, op == SHMEM_SIGNAL_SET ? r : 1, op, right());

    const std::uint64_t got = shmem_signal_wait_until(sig, SHMEM_CMP_EQ, r);
    EXPECT_EQ(got, static_cast<std::uint64_t>(r));
    std::size_t stale = 0;
    for (std::size_t i = 0; i < len; ++i)
      stale += static_cast<volatile unsigned char*>(area)[i] != pattern(left(), i, r);
    if (stale != 0 && bad_rounds++ < 3)
      ADD_FAILURE() << "round " << r << " (" << len << " bytes, sig_op " << op << "): signal seen "
                    << "but " << stale << " data bytes stale";
    EXPECT_EQ(shmem_signal_fetch(sig), static_cast<std::uint64_t>(r));
    if (r % 2)
      shmem_signal_set(ack, r, left());
    else
      shmem_ctx_signal_set(SHMEM_CTX_DEFAULT, ack, r, left());
    shmem_signal_wait_until(ack, SHMEM_CMP_GE, r);
  }
  EXPECT_EQ(bad_rounds, 0);
  shmem_barrier_all();
}

}  // namespace

// Every put-with-signal routine, a few rounds each (one of them without data: the signal must
// still arrive), over the four placements in turn.
TEST(PutSignal, EveryRoutine) {
  Buffers buf;
  SHOAL_ASSERT_ALL_PES(buf.ok());
  const auto forms = put_signal_forms();
  EXPECT_EQ(forms.size(), 4u * (24 + 5 + 1));
  std::size_t k = 0;
  for (const auto& form : forms) {
    signal_ring(form, buf, kPlacements[k % 4], 3, {100000, 0, 48},
                (k / 4) % 2 ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET);
    ++k;
  }
}

// Many rounds of putmem_signal and putmem_signal_nbi in every placement, with sizes from one
// byte to the whole area, where a signal overtaking its data would show.
TEST(PutSignal, NeverBeforeTheData) {
  Buffers buf;
  SHOAL_ASSERT_ALL_PES(buf.ok());
  const std::vector<std::size_t> sizes = {8, 1, 4096, 200000, 63, kArea, 12345};
  const std::vector<PutSignalForm> forms = {
      {"shmem_putmem_signal", 1,
       [](void* d, const void* s, std::size_t n, std::uint64_t* sa, std::uint64_t v, int op,
          int pe) { shmem_putmem_signal(d, s, n, sa, v, op, pe); }},
      {"shmem_putmem_signal_nbi", 1,
       [](void* d, const void* s, std::size_t n, std::uint64_t* sa, std::uint64_t v, int op,
          int pe) { shmem_putmem_signal_nbi(d, s, n, sa, v, op, pe); }}};
  const long rounds = npes() > 4 ? 30 : 60;
  for (const auto& form : forms)
    for (const Placement& p : kPlacements)
      signal_ring(form, buf, p, rounds, sizes, SHMEM_SIGNAL_ADD);
}

// Every PE puts its chunk into PE 0 and adds 1 to one signal there; when the signal reaches
// the number of PEs, every chunk is in place. The additions of all PEs must not be lost.
TEST(PutSignal, AllToOneAdd) {
  Buffers buf;
  SHOAL_ASSERT_ALL_PES(buf.ok());
  const std::size_t chunk = kArea / static_cast<std::size_t>(npes());
  std::vector<unsigned char> src(chunk);
  for (long r = 1; r <= 12; ++r) {
    const Placement& where = kPlacements[r % 4];
    unsigned char* area = buf.area(where);
    std::uint64_t* sig = buf.sig(where);
    *sig = 0;
    shmem_barrier_all();
    for (std::size_t i = 0; i < chunk; ++i) src[i] = pattern(me(), i, r);
    unsigned char* mine = area + static_cast<std::size_t>(me()) * chunk;
    if (r % 2)
      shmem_putmem_signal(mine, src.data(), chunk, sig, 1, SHMEM_SIGNAL_ADD, 0);
    else
      shmem_ctx_putmem_signal_nbi(SHMEM_CTX_DEFAULT, mine, src.data(), chunk, sig, 1,
                                  SHMEM_SIGNAL_ADD, 0);
    if (me() == 0) {
      EXPECT_EQ(shmem_signal_wait_until(sig, SHMEM_CMP_GE, static_cast<std::uint64_t>(npes())),
                static_cast<std::uint64_t>(npes()));
      for (int pe = 0; pe < npes(); ++pe)
        EXPECT_TRUE(check_range(where.name(), area + static_cast<std::size_t>(pe) * chunk, 0, chunk,
                                [&](std::size_t i) { return pattern(pe, i, r); }))
            << "chunk of PE " << pe << ", round " << r;
    }
    shmem_quiet();  // the nbi source buffer is reused next round
    shmem_barrier_all();
  }
}

// A put-with-signal is complete at the next quiet, even while its target computes. PE 0 puts
// with a signal into PE 1, which computes without calling the library meanwhile, quiets, and
// then raises a flag on every other PE that reaches PE 1's memory with loads (a PE of PE 1's
// node). Those read PE 1's data and signal directly: they must be in place. Across nodes the
// signal's message asks for no answer and the quiet asks PE 1 for one, which it gives only
// once it handles the message; with SMA_PROGRESS_THREAD=0 (multihost_2x2_sync_signal_quiet)
// nobody else serves PE 1 while it computes, so a quiet that did not wait would be caught.
TEST(PutSignal, CompleteAtQuiet) {
  SHOAL_REQUIRE_MIN_NPES(3);
  Buffers buf;
  SymArray<long> flag(1);
  SymArray<int> checkers(static_cast<std::size_t>(npes()));
  SHOAL_ASSERT_ALL_PES(buf.ok() && flag && checkers);
  const int n = npes();
  const int origin = 0, middle = 1;
  // Who reads PE 1's memory with loads, known to every PE. Without such a PE (no shared memory:
  // SMA_SHARED_MEMORY=0 on one node, where UCX's gets need no help from PE 1 either) PE 2
  // reads with gets.
  const int maps = me() != origin && me() != middle && shmem_ptr(flag.get(), middle) != nullptr;
  for (int pe = 0; pe < n; ++pe) shmem_int_p(&checkers[static_cast<std::size_t>(me())], maps, pe);
  shmem_barrier_all();
  int count = 0;
  for (int pe = 0; pe < n; ++pe) count += checkers[static_cast<std::size_t>(pe)];
  if (count == 0) checkers[2] = 1;
  const bool checks = checkers[static_cast<std::size_t>(me())] != 0;
  std::vector<unsigned char> src(kArea);
  for (long r = 1; r <= 4; ++r) {
    const Placement& where = kPlacements[r % 4];
    unsigned char* area = buf.area(where);
    std::uint64_t* sig = buf.sig(where);
    *sig = 0;
    flag[0] = 0;
    const std::size_t len = r % 2 ? 8 : 60000;
    const bool set = r <= 2;
    shmem_barrier_all();
    if (me() == origin) {
      for (std::size_t i = 0; i < len; ++i) src[i] = pattern(me(), i, r);
      if (set)
        shmem_putmem_signal(area, src.data(), len, sig, r, SHMEM_SIGNAL_SET, middle);
      else
        shmem_putmem_signal_nbi(area, src.data(), len, sig, 1, SHMEM_SIGNAL_ADD, middle);
      shmem_quiet();
      for (int pe = 0; pe < n; ++pe)
        if (checkers[static_cast<std::size_t>(pe)]) shmem_long_p(flag.get(), r, pe);
      shmem_quiet();
    } else if (me() == middle) {
      // Computing: no library call for a tenth of a second.
      const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
      while (std::chrono::steady_clock::now() < until) {
      }
    } else if (checks) {
      shmem_long_wait_until(flag.get(), SHMEM_CMP_EQ, r);
      std::vector<unsigned char> got(len);
      std::uint64_t word = 0;
      if (maps) {
        const auto* data = static_cast<const volatile unsigned char*>(shmem_ptr(area, middle));
        for (std::size_t i = 0; i < len; ++i) got[i] = data[i];
        word = *static_cast<const volatile std::uint64_t*>(shmem_ptr(sig, middle));
      } else {
        shmem_getmem(got.data(), area, len, middle);
        word = shmem_uint64_atomic_fetch(sig, middle);
      }
      std::size_t stale = 0;
      for (std::size_t i = 0; i < len; ++i) stale += got[i] != pattern(origin, i, r);
      EXPECT_EQ(stale, 0u) << "round " << r << " (" << where.name() << "): " << stale << " of "
                           << len << " bytes on PE " << middle << " not there after the quiet";
      EXPECT_EQ(word, set ? static_cast<std::uint64_t>(r) : 1u)
          << "round " << r << ": the signal on PE " << middle << " after the quiet";
    }
    shmem_barrier_all();
  }
}

// shmem_signal_set / add (plain and ctx) and shmem_signal_fetch, on the heap and in a global.
TEST(Signal, SetAddFetch) {
  Buffers buf;
  SHOAL_ASSERT_ALL_PES(buf.ok());
  const int n = npes();
  for (const Placement& where : {kPlacements[0], kPlacements[3]}) {
    std::uint64_t* sig = buf.sig(where);
    *sig = 99;
    shmem_barrier_all();
    if (me() % 2)
      shmem_signal_set(sig, 1000 + me(), right());
    else
      shmem_ctx_signal_set(SHMEM_CTX_DEFAULT, sig, 1000 + me(), right());
    shmem_barrier_all();
    EXPECT_EQ(shmem_signal_fetch(sig), static_cast<std::uint64_t>(1000 + left())) << where.name();
    shmem_barrier_all();
    *sig = 0;
    shmem_barrier_all();
    if (me() % 2)
      shmem_signal_add(sig, me() + 1, 0);
    else
      shmem_ctx_signal_add(SHMEM_CTX_DEFAULT, sig, me() + 1, 0);
    if (me() == 0) {
      const std::uint64_t total = static_cast<std::uint64_t>(n) * (n + 1) / 2;
      EXPECT_EQ(shmem_signal_wait_until(sig, SHMEM_CMP_EQ, total), total);
      EXPECT_EQ(shmem_signal_fetch(sig), total);
    }
    shmem_barrier_all();
  }
}

// Signal updates are atomic with the uint64 AMOs: additions through shmem_signal_add, AMOs
// and put-with-signal (with and without data), from every PE at once, add up exactly.
TEST(Signal, AtomicWithAmos) {
  Buffers buf;
  SHOAL_ASSERT_ALL_PES(buf.ok());
  std::uint64_t* sig = buf.sig(kPlacements[0]);
  *sig = 0;
  shmem_barrier_all();
  constexpr int kIters = 200;
  unsigned char* area = buf.area(kPlacements[0]) + static_cast<std::size_t>(me()) * 8;
  const unsigned char bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  for (int i = 0; i < kIters; ++i) {
    if (i % 4 == 1)
      shmem_signal_add(sig, 1, 0);
    else if (i % 4 == 2)
      shmem_putmem_signal(area, bytes, sizeof bytes, sig, 1, SHMEM_SIGNAL_ADD, 0);
    else if (i % 4 == 3)
      shmem_putmem_signal_nbi(area, bytes, 0, sig, 1, SHMEM_SIGNAL_ADD, 0);
    else
      shmem_uint64_atomic_add(sig, 1, 0);
  }
  if (me() == 0) {
    const std::uint64_t total = static_cast<std::uint64_t>(kIters) * npes();
    EXPECT_EQ(shmem_signal_wait_until(sig, SHMEM_CMP_GE, total), total);
  }
  shmem_barrier_all();
}

// shmem_signal_wait_until with every comparison operator returns the value that satisfied it.
TEST(Signal, WaitUntilEveryCmp) {
  Buffers buf;
  SHOAL_ASSERT_ALL_PES(buf.ok());
  std::uint64_t* sig = buf.sig(kPlacements[0]);
  *sig = 0;
  shmem_barrier_all();
  // The left neighbour raises the signal step by step; each wait sees at least its step.
  shmem_signal_set(sig, 5, right());
  EXPECT_EQ(shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 5), 5u);
  EXPECT_EQ(shmem_signal_wait_until(sig, SHMEM_CMP_NE, 0), 5u);
  EXPECT_EQ(shmem_signal_wait_until(sig, SHMEM_CMP_GT, 4), 5u);
  EXPECT_EQ(shmem_signal_wait_until(sig, SHMEM_CMP_GE, 5), 5u);
  EXPECT_EQ(shmem_signal_wait_until(sig, SHMEM_CMP_LT, 6), 5u);
  EXPECT_EQ(shmem_signal_wait_until(sig, SHMEM_CMP_LE, 5), 5u);
  shmem_barrier_all();
  shmem_signal_add(sig, 3, right());
  EXPECT_EQ(shmem_signal_wait_until(sig, SHMEM_CMP_GT, 5), 8u);
  shmem_barrier_all();
}
