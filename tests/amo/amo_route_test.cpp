// Every PE aims a mix of AMOs at the same words of PE 0 at the same time: PE 0 itself, PEs on
// PE 0's node (CPU atomics on the mapping, or UCX with SMA_AMO_ROUTE=ucx) and, across
// namespace hosts, PEs on other nodes (UCX over TCP). The words live in PE 0's heap and in its
// globals. Whatever route each PE's AMOs take, none may be lost (atomics issue 15, item 5):
//
//   * a counter: fetch_add 1 (each result must exceed the previous one this PE saw), add 1,
//     inc, fetch_inc and compare_swap increments; its final value is the number of increments;
//   * a bit word: PE p owns bit p and flips it with fetch_xor, sets it with fetch_or and clears
//     it with fetch_and; every fetched value must show bit p as this PE left it (another PE's
//     operation on its own bit must never undo this one), and the final word holds every
//     PE's last state.
//
// SHOAL_AMO_ROUTE_ITERS sets the rounds per PE (default 2000; each round is five increments and
// three bit operations on each word).
#include "mpp_test.hpp"

#include <cstdint>
#include <cstdlib>

using namespace shoal::test;

namespace {

long g_counter;  // globals: in .bss, mapped by the node's PEs
unsigned long long g_bits;

long rounds() {
  const char *s = std::getenv("SHOAL_AMO_ROUTE_ITERS");
  return s != nullptr && *s != '\0' ? std::strtol(s, nullptr, 10) : 2000;
}

// The operations of one PE on counter and bits of PE 0; returns the number of increments.
// Counts the results that contradict what this PE did or saw.
long hammer(long *counter, unsigned long long *bits, long n_rounds, long &went_back,
            long &bit_wrong) {
  const int pe = me();
  const unsigned long long mine = 1ull << pe;
  long seen = -1;
  long increments = 0;
  bool set = false;  // the state this PE left its bit in
  for (long r = 0; r < n_rounds; ++r) {
    long old = shmem_long_atomic_fetch_add(counter, 1, 0);
    if (old <= seen) ++went_back;
    seen = old;
    shmem_long_atomic_add(counter, 1, 0);
    shmem_long_atomic_inc(counter, 0);
    old = shmem_long_atomic_fetch_inc(counter, 0);
    if (old <= seen) ++went_back;
    seen = old;
    long expected = seen + 1;
    for (;;) {
      const long got = shmem_long_atomic_compare_swap(counter, expected, expected + 1, 0);
      if (got == expected) break;
      if (got < seen) ++went_back;
      expected = got;
    }
    seen = expected;
    increments += 5;

    unsigned long long before = shmem_ulonglong_atomic_fetch_xor(bits, mine, 0);
    if (((before & mine) != 0) != set) ++bit_wrong;
    set = !set;
    before = shmem_ulonglong_atomic_fetch_or(bits, mine, 0);
    if (((before & mine) != 0) != set) ++bit_wrong;
    set = true;
    if (r % 2 == 0) {
      before = shmem_ulonglong_atomic_fetch_and(bits, ~mine, 0);
      if ((before & mine) == 0) ++bit_wrong;
      set = false;
    }
  }
  return increments;
}

void run_on(long *counter, unsigned long long *bits, const char *where) {
  const int n = npes();
  ASSERT_LE(n, 64) << "one bit per PE in a 64-bit word";
  if (me() == 0) *counter = 0, *bits = 0;
  shmem_barrier_all();
  long went_back = 0, bit_wrong = 0;
  const long n_rounds = rounds();
  const long increments = hammer(counter, bits, n_rounds, went_back, bit_wrong);
  shmem_barrier_all();
  EXPECT_EQ(went_back, 0) << where << ", PE " << me()
                          << ": a fetch returned a counter value at or below one already seen";
  EXPECT_EQ(bit_wrong, 0) << where << ", PE " << me()
                          << ": a fetched bit word did not show this PE's bit as it left it";
  const long final_counter = shmem_long_atomic_fetch(counter, 0);
  EXPECT_EQ(final_counter, increments * n) << where << ": increments were lost (PE " << me() << ")";
  // Rounds alternate ending set and clear: the last round (n_rounds - 1) leaves the bit set
  // when its index is odd.
  const unsigned long long each = (n_rounds - 1) % 2 == 1 ? ~0ull : 0ull;
  const unsigned long long all = n == 64 ? ~0ull : (1ull << n) - 1;
  EXPECT_EQ(shmem_ulonglong_atomic_fetch(bits, 0), each & all) << where << " (PE " << me() << ")";
  shmem_barrier_all();
}

}  // namespace

TEST(AmoRoute, MixedOperationsOnOneHeapWord) {
  SymArray<long> counter(1);
  SymArray<unsigned long long> bits(1);
  SHOAL_ASSERT_ALL_PES(counter && bits);
  run_on(counter.get(), bits.get(), "heap");
}

TEST(AmoRoute, MixedOperationsOnOneGlobalWord) { run_on(&g_counter, &g_bits, "globals"); }

// shmem_fence orders an AMO before a later put to the same PE, whatever route each takes: each
// PE adds 1 to its right neighbour's counter, fences, and puts the round number into that
// neighbour's flag. A PE that sees flag f must see a counter of at least f. On the UCX route an
// add to a PE of this node goes through UCX and the flag is a store to mapped memory, which no
// UCX fence orders: the fence has to complete the add (rma::fence).
TEST(AmoRoute, FenceOrdersAnAddBeforeAPut) {
  SymArray<long> counter(1);
  SymArray<long> flag(1);
  SHOAL_ASSERT_ALL_PES(counter && flag);
  counter[0] = 0;
  flag[0] = 0;
  shmem_barrier_all();
  const long n_rounds = rounds();
  long behind = 0, last_seen = 0;
  for (long r = 1; r <= n_rounds; ++r) {
    shmem_long_atomic_add(counter.get(), 1, right());
    shmem_fence();
    shmem_long_p(flag.get(), r, right());
    const long seen = shmem_long_atomic_fetch(flag.get(), me());
    const long count = shmem_long_atomic_fetch(counter.get(), me());
    if (count < seen) ++behind;
    last_seen = seen;
  }
  shmem_long_wait_until(flag.get(), SHMEM_CMP_EQ, n_rounds);
  const long count = shmem_long_atomic_fetch(counter.get(), me());
  EXPECT_EQ(behind, 0) << "PE " << me() << ": saw the flag before the add fenced ahead of it";
  EXPECT_EQ(count, n_rounds) << "PE " << me() << " (last flag seen mid-run: " << last_seen << ")";
  shmem_barrier_all();
}
