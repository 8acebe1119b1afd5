// AMO scenarios, each written once against the adapters of amo_ops.hpp and run for every
// type, every calling form (Mode) and every kind of symmetric memory (Place).
//
// Memory layout of one scenario, identical on every PE: kSlots target slots with a guard
// element before, between and after them (slot s at index 2s+1). A PE initialises only its
// own array, with plain stores, before a barrier; after the operations (and a quiet and a
// barrier) every PE checks its own array with plain loads: the slots it owns hold what the
// PEs that targeted them computed, the other slots and every guard are untouched (an AMO of
// the wrong width or at the wrong offset lands on a guard).
//
// Targets: the calling PE itself (UCX 1.13's loopback loses self-targeted fetching and/or/xor,
// so every operation is also aimed at the caller), the next PE, and PE 0 (or another single
// PE) from all PEs at once.
//
// Values are compared bit for bit (a float -0.0 is not +0.0, a NaN equals its own pattern);
// integer arithmetic is done on the unsigned word of the type's width, so signed types wrap
// exactly like the library's two's-complement words.
#pragma once

#include "amo_ops.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace shoal::test::amo {

// ---- words and values --------------------------------------------------------------------------
template <class T>
using Word = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
static_assert(sizeof(Word<int>) == 4 && sizeof(Word<long long>) == 8);

template <class T>
Word<T> bits_of(T v) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  Word<T> w;
  std::memcpy(&w, &v, sizeof w);
  return w;
}
template <class T>
T from_bits(Word<T> w) {
  T v;
  std::memcpy(&v, &w, sizeof v);
  return v;
}
// The value with bit pattern v64 (8-byte types) or v32 (4-byte types).
template <class T>
T pick(std::uint64_t v64, std::uint32_t v32) {
  if constexpr (sizeof(T) == 8) {
    return from_bits<T>(v64);
  } else {
    return from_bits<T>(v32);
  }
}
template <class T>
T wadd(T a, T b) {
  return from_bits<T>(static_cast<Word<T>>(bits_of(a) + bits_of(b)));
}
template <class T>
T wand(T a, T b) {
  return from_bits<T>(static_cast<Word<T>>(bits_of(a) & bits_of(b)));
}
template <class T>
T wor(T a, T b) {
  return from_bits<T>(static_cast<Word<T>>(bits_of(a) | bits_of(b)));
}
template <class T>
T wxor(T a, T b) {
  return from_bits<T>(static_cast<Word<T>>(bits_of(a) ^ bits_of(b)));
}
template <class T>
T wnot(T a) {
  return from_bits<T>(static_cast<Word<T>>(~bits_of(a)));
}
template <class T>
T from_u(std::uint64_t v) {  // small non-negative integer (wraps like the library's word)
  return from_bits<T>(static_cast<Word<T>>(v));
}
template <class T>
T top_bit() {
  return pick<T>(0x8000000000000000ull, 0x80000000u);
}
template <class T>
bool same(T a, T b) {
  return bits_of(a) == bits_of(b);
}

template <class T>
std::string show_amo(T v) {
  std::ostringstream os;
  os << "0x" << std::hex << std::setw(static_cast<int>(2 * sizeof(T))) << std::setfill('0')
     << static_cast<std::uint64_t>(bits_of(v)) << std::dec << " (";
  if constexpr (std::is_floating_point_v<T>) {
    os << std::setprecision(17) << v;
  } else {
    os << +v;
  }
  os << ")";
  return os.str();
}

template <class T>
::testing::AssertionResult same_as(const std::string& what, T got, T want) {
  if (same(got, want)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "PE " << shmem_my_pe() << ": " << what << ": got "
                                       << show_amo(got) << ", expected " << show_amo(want);
}
#define SHOAL_EXPECT_AMO(what, got, want) EXPECT_TRUE(::shoal::test::amo::same_as(what, got, want))

// ---- layout ------------------------------------------------------------------------------------
inline constexpr int kSlots = 8;
inline constexpr std::size_t kElems = 2 * kSlots + 1;
constexpr std::size_t slot_index(int s) { return 2 * static_cast<std::size_t>(s) + 1; }

template <class T>
T guard_value(std::size_t i) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(-1000.0 - static_cast<double>(i));
  } else {
    return pick<T>(0x5AA55AA500000000ull | (i * 0x0101u),
                   0x5AA50000u | static_cast<std::uint32_t>(i));
  }
}

// A distinct starting value for slot s of PE owner: the top bit set, the owner and the slot
// encoded in the upper bits, and the low half all ones so that +1 carries across it.
template <class T>
T start_value(int owner, int s) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(owner * 32 + s) + static_cast<T>(0.75);
  } else {
    return pick<T>(0x80000000FFFFFFFFull | (static_cast<std::uint64_t>(owner + 1) << 40) |
                       (static_cast<std::uint64_t>(s) << 56),
                   0x8000FFFFu | (static_cast<std::uint32_t>(owner + 1) << 16) |
                       (static_cast<std::uint32_t>(s) << 24));
  }
}

// Sets this PE's array: guards, and every slot s to init(s). The caller must barrier before
// any PE targets the array.
template <class T, class Init>
void fill(T* base, Init init) {
  for (std::size_t i = 0; i < kElems; ++i) base[i] = guard_value<T>(i);
  for (int s = 0; s < kSlots; ++s) base[slot_index(s)] = init(s);
}
// Checks this PE's array after a scenario: slot s must hold want(s) (skipped where want
// returns false), every guard is untouched.
template <class T, class Want>
void check_array(const T* base, Want want) {
  for (std::size_t i = 0; i < kElems; i += 2)
    SHOAL_EXPECT_AMO("guard element " + std::to_string(i) + " (an AMO wrote outside its target)",
                     base[i], guard_value<T>(i));
  for (int s = 0; s < kSlots; ++s) {
    T expected;
    if (want(s, expected))
      SHOAL_EXPECT_AMO("value left in slot " + std::to_string(s) + " of this PE",
                       *static_cast<const volatile T*>(base + slot_index(s)), expected);
  }
}

// ---- places: the symmetric heap, a global in .data, a function-local static in .bss ------------
template <class T>
struct Globals {
  static inline T data[kElems] = {static_cast<T>(1)};  // non-zero initialiser: .data
  static T* local_static() {
    static T arr[kElems];  // zero-initialised: .bss
    return arr;
  }
};

// Runs f(T* base) on each place. Collective.
template <class T, class F>
void for_each_place(F f) {
  {
    SymArray<T> heap(kElems);
    if (!all_pes(static_cast<bool>(heap))) {
      ADD_FAILURE() << "shmem_malloc of " << kElems * sizeof(T) << " bytes failed on some PE";
    } else {
      SCOPED_TRACE("place: symmetric heap");
      f(heap.get());
    }
  }
  {
    SCOPED_TRACE("place: global variable (.data)");
    f(Globals<T>::data);
  }
  {
    SCOPED_TRACE("place: function-local static (.bss)");
    f(Globals<T>::local_static());
  }
}

// ---- helpers for the concurrent scenarios ------------------------------------------------------
// Every PE's k values end up, in PE order, in sym[0 .. n*k) on every PE. Collective.
template <class T>
void all_gather(T* sym, const T* mine, std::size_t k) {
  const int n = npes();
  for (int pe = 0; pe < n; ++pe)
    shmem_putmem(sym + static_cast<std::size_t>(me()) * k, mine, k * sizeof(T), pe);
  shmem_barrier_all();  // completes the puts
}

// values[0..count) must be a permutation of base, base+1, ..., base+count-1 (wrapping).
template <class T>
::testing::AssertionResult is_run_from(const char* what, const T* values, std::size_t count,
                                       T base) {
  std::vector<Word<T>> off(count);
  for (std::size_t i = 0; i < count; ++i)
    off[i] = static_cast<Word<T>>(bits_of(values[i]) - bits_of(base));
  std::sort(off.begin(), off.end());
  for (std::size_t i = 0; i < count; ++i) {
    if (off[i] != i) {
      return ::testing::AssertionFailure()
             << "PE " << me() << ": " << what << ": the " << count
             << " returned old values are not exactly {start .. start+" << count - 1 << "} (start "
             << show_amo(base) << "): sorted offset #" << i << " is " << +off[i]
             << (i > 0 && off[i] == off[i - 1] ? " (a duplicate: two operations saw the same value)"
                                               : "");
    }
  }
  return ::testing::AssertionSuccess();
}

template <class T>
std::vector<Word<T>> sorted_bits(const std::vector<T>& v) {
  std::vector<Word<T>> b;
  for (const T& x : v) b.push_back(bits_of(x));
  std::sort(b.begin(), b.end());
  return b;
}

// =================================================================================================
// Standard AMOs: compare_swap, fetch_inc, inc, fetch_add, add (with fetch, set, swap)
// =================================================================================================

template <class T>
T std_final(int caller) {
  return pick<T>(0x0123456789ABCDEFull ^ (static_cast<std::uint64_t>(caller) << 8),
                 0x89ABCDEFu ^ (static_cast<std::uint32_t>(caller) << 8));
}

// One PE's sequence on slot s of PE t; only this PE touches that slot. Returns nothing: the
// value left behind is std_final(caller).
template <class Ops, Mode M>
void standard_steps(typename Ops::type* p, int t, int s) {
  using T = typename Ops::type;
  const int caller = me();
  const T one = from_u<T>(1), zero = from_u<T>(0);
  const T a2 = pick<T>(0x7F00000000000000ull, 0x7F000000u);
  const T b = pick<T>(0x0000000100000003ull, 0x00010003u);
  const T x = pick<T>(0xFEDCBA9876543210ull ^ static_cast<std::uint64_t>(caller),
                      0xFEDCBA98u ^ static_cast<std::uint32_t>(caller));
  const T z = pick<T>(0x8000000000000000ull | static_cast<std::uint64_t>(caller),
                      0x80000000u | static_cast<std::uint32_t>(caller));
  const T w = pick<T>(0x7FFFFFFFFFFFFFFFull - static_cast<std::uint64_t>(caller),
                      0x7FFFFFFFu - static_cast<std::uint32_t>(caller));
  const T y = std_final<T>(caller);

  T cur = start_value<T>(t, s);
  SHOAL_EXPECT_AMO("fetch_add(1) returns the initial value", Ops::template fetch_add<M>(p, one, t),
                   cur);
  cur = wadd(cur, one);  // carries across the low half
  SHOAL_EXPECT_AMO("fetch_add(0x7f00..)", Ops::template fetch_add<M>(p, a2, t), cur);
  cur = wadd(cur, a2);
  SHOAL_EXPECT_AMO("fetch_inc", Ops::template fetch_inc<M>(p, t), cur);
  cur = wadd(cur, one);
  Ops::template add<M>(p, b, t);
  cur = wadd(cur, b);
  Ops::template inc<M>(p, t);
  cur = wadd(cur, one);
  quiet<M>();
  SHOAL_EXPECT_AMO("fetch after add and inc", Ops::template fetch<M>(p, t), cur);
  SHOAL_EXPECT_AMO("compare_swap, cond differs in the top bit: fails, returns the value",
                   Ops::template compare_swap<M>(p, wxor(cur, top_bit<T>()), x, t), cur);
  SHOAL_EXPECT_AMO("compare_swap, cond differs in bit 0: fails, returns the value",
                   Ops::template compare_swap<M>(p, wxor(cur, one), x, t), cur);
  SHOAL_EXPECT_AMO("value after two failed compare_swaps", Ops::template fetch<M>(p, t), cur);
  SHOAL_EXPECT_AMO("compare_swap with matching cond", Ops::template compare_swap<M>(p, cur, x, t),
                   cur);
  SHOAL_EXPECT_AMO("compare_swap(cond = value = current)",
                   Ops::template compare_swap<M>(p, x, x, t), x);
  SHOAL_EXPECT_AMO("swap after compare_swap", Ops::template swap<M>(p, z, t), x);
  Ops::template set<M>(p, w, t);
  quiet<M>();
  SHOAL_EXPECT_AMO("fetch after set", Ops::template fetch<M>(p, t), w);
  SHOAL_EXPECT_AMO("fetch_add(0)", Ops::template fetch_add<M>(p, zero, t), w);
  SHOAL_EXPECT_AMO("compare_swap to the final value", Ops::template compare_swap<M>(p, w, y, t), w);
}

template <class Ops, Mode M>
void standard_sequence() {
  using T = typename Ops::type;
  for_each_place<T>([](T* base) {
    fill(base, [](int s) { return start_value<T>(me(), s); });
    shmem_barrier_all();
    {
      SCOPED_TRACE("target: the calling PE");
      standard_steps<Ops, M>(base + slot_index(0), me(), 0);
    }
    {
      SCOPED_TRACE("target: the next PE");
      standard_steps<Ops, M>(base + slot_index(1), right(), 1);
    }
    quiet<M>();
    shmem_barrier_all();
    check_array(base, [](int s, T& want) {
      want = s == 0 ? std_final<T>(me()) : s == 1 ? std_final<T>(left()) : start_value<T>(me(), s);
      return true;
    });
    shmem_barrier_all();
  });
}

// All PEs at once on slot 2 of PE 0: fetch_inc / fetch_add(1) (the old values must be exactly
// a run of consecutive values), add / inc (exact total), compare_swap increments (exact total).
template <class Ops, Mode M>
void standard_counter() {
  using T = typename Ops::type;
  constexpr std::size_t K = 12;
  const int n = npes();
  SymArray<T> olds(static_cast<std::size_t>(n) * K);
  SHOAL_ASSERT_ALL_PES(olds);
  const T start = pick<T>(0xFFFFFFFFFFFFFFFBull, 0xFFFFFFFBu);  // crosses zero / wraps
  for_each_place<T>([&](T* base) {
    fill(base, [](int s) {
      return s == 2 ? pick<T>(0xFFFFFFFFFFFFFFFBull, 0xFFFFFFFBu) : start_value<T>(me(), s);
    });
    shmem_barrier_all();
    T* p = base + slot_index(2);
    T mine[K];
    for (std::size_t k = 0; k < K; ++k)
      mine[k] = k % 2 == 0 ? Ops::template fetch_inc<M>(p, 0)
                           : Ops::template fetch_add<M>(p, from_u<T>(1), 0);
    quiet<M>();
    all_gather(olds.get(), mine, K);
    EXPECT_TRUE(is_run_from("fetch_inc / fetch_add(1) from every PE on PE 0", olds.get(),
                            static_cast<std::size_t>(n) * K, start));
    T expected = wadd(start, from_u<T>(static_cast<std::uint64_t>(n) * K));
    SHOAL_EXPECT_AMO("counter on PE 0 after the fetching increments", Ops::template fetch<M>(p, 0),
                     expected);
    shmem_barrier_all();

    for (std::size_t k = 0; k < K; ++k) {
      Ops::template add<M>(p, from_u<T>(static_cast<std::uint64_t>(me()) + 1), 0);
      Ops::template inc<M>(p, 0);
    }
    quiet<M>();
    shmem_barrier_all();
    const std::uint64_t pe_sum = static_cast<std::uint64_t>(n) * (n + 1) / 2;  // sum of pe+1
    expected = wadd(expected, from_u<T>(K * (pe_sum + static_cast<std::uint64_t>(n))));
    SHOAL_EXPECT_AMO("counter on PE 0 after add / inc from every PE", Ops::template fetch<M>(p, 0),
                     expected);
    shmem_barrier_all();

    long retries = 0;
    bool gave_up = false;
    const T delta = from_u<T>(static_cast<std::uint64_t>(me()) + 1);
    for (std::size_t k = 0; k < K && !gave_up; ++k) {
      T seen = Ops::template fetch<M>(p, 0);
      for (long attempt = 0;; ++attempt) {
        const T r = Ops::template compare_swap<M>(p, seen, wadd(seen, delta), 0);
        if (same(r, seen)) break;
        seen = r;
        ++retries;
        if (attempt > 1000000) {
          ADD_FAILURE() << "PE " << me() << ": compare_swap increment never succeeded";
          gave_up = true;
          break;
        }
      }
    }
    quiet<M>();
    shmem_barrier_all();
    expected = wadd(expected, from_u<T>(K * pe_sum));
    SHOAL_EXPECT_AMO("counter on PE 0 after compare_swap increments from every PE",
                     Ops::template fetch<M>(p, 0), expected);
    shmem_barrier_all();
    check_array(base, [&](int s, T& want) {
      if (s == 2) {
        if (me() != 0) return false;  // only PE 0's slot 2 is the counter
        want = expected;
        return true;
      }
      want = start_value<T>(me(), s);
      return true;
    });
    shmem_barrier_all();
  });
}

// All PEs compare_swap the same initial value at once: exactly one succeeds, every other one
// returns the winner's value. Three rounds on different PEs (PE 0, 1, 2 when they exist).
template <class Ops, Mode M>
void standard_cswap_race() {
  using T = typename Ops::type;
  const int n = npes();
  constexpr int R = 3;
  SymArray<T> olds(static_cast<std::size_t>(n) * R);
  SHOAL_ASSERT_ALL_PES(olds);
  auto initial = [](int j) {
    return pick<T>(0x8000000000000000ull | static_cast<std::uint64_t>(j),
                   0x80000000u | static_cast<std::uint32_t>(j));
  };
  auto token = [](int pe, int j) {
    return pick<T>(0x4000000000000000ull | (static_cast<std::uint64_t>(pe + 1) << 32) |
                       static_cast<std::uint64_t>(j + 1),
                   0x40000000u | (static_cast<std::uint32_t>(pe + 1) << 8) |
                       static_cast<std::uint32_t>(j + 1));
  };
  for_each_place<T>([&](T* base) {
    fill(base,
         [&](int s) { return s >= 3 && s < 3 + R ? initial(s - 3) : start_value<T>(me(), s); });
    shmem_barrier_all();
    T mine[R];
    for (int j = 0; j < R; ++j)
      mine[j] = Ops::template compare_swap<M>(base + slot_index(3 + j), initial(j), token(me(), j),
                                              j % n);
    quiet<M>();
    all_gather(olds.get(), mine, R);
    T final_value[R];
    for (int j = 0; j < R; ++j) {
      int winners = 0, winner = -1;
      for (int pe = 0; pe < n; ++pe) {
        if (same(olds[static_cast<std::size_t>(pe) * R + j], initial(j))) {
          ++winners;
          winner = pe;
        }
      }
      EXPECT_EQ(winners, 1) << "PE " << me() << ": round " << j << " (target PE " << j % n
                            << "): compare_swaps that saw the initial value";
      final_value[j] = winner >= 0 ? token(winner, j) : initial(j);
      if (winner < 0) continue;
      for (int pe = 0; pe < n; ++pe) {
        if (pe == winner) continue;
        SHOAL_EXPECT_AMO("round " + std::to_string(j) + ": losing compare_swap of PE " +
                             std::to_string(pe) + " returns the winner's value",
                         olds[static_cast<std::size_t>(pe) * R + j], token(winner, j));
      }
      SHOAL_EXPECT_AMO("round " + std::to_string(j) + ": value after the race",
                       Ops::template fetch<M>(base + slot_index(3 + j), j % n), token(winner, j));
    }
    shmem_barrier_all();
    check_array(base, [&](int s, T& want) {
      if (s >= 3 && s < 3 + R) {
        const int j = s - 3;
        want = j % n == me() ? final_value[j] : initial(j);
        return true;
      }
      want = start_value<T>(me(), s);
      return true;
    });
    shmem_barrier_all();
  });
}

// Several nonblocking AMOs outstanding at once, completed by one quiet: fetch_inc_nbi and
// fetch_add_nbi on the next PE and on PE 0, compare_swap_nbi (success and failure), swap_nbi
// and fetch_nbi on the calling PE.
template <class Ops, bool Ctx>
void standard_nbi_batch() {
  using T = typename Ops::type;
  constexpr std::size_t K = 8;
  const int n = npes();
  SymArray<T> olds(static_cast<std::size_t>(n) * K);
  SHOAL_ASSERT_ALL_PES(olds);
  constexpr Mode M = Ctx ? Mode::ctx_nbi : Mode::nbi;
  for_each_place<T>([&](T* base) {
    fill(base, [](int s) { return s <= 1 ? from_u<T>(0) : start_value<T>(me(), s); });
    shmem_barrier_all();
    T next_olds[2 * K], zero_olds[K], cs_ok, cs_fail, sw, fe;
    for (std::size_t k = 0; k < K; ++k) {
      Ops::template fetch_inc_nbi<Ctx>(&next_olds[2 * k], base + slot_index(0), right());
      Ops::template fetch_add_nbi<Ctx>(&next_olds[2 * k + 1], base + slot_index(0), from_u<T>(1),
                                       right());
      Ops::template fetch_add_nbi<Ctx>(&zero_olds[k], base + slot_index(1), from_u<T>(1), 0);
    }
    const T x = std_final<T>(me());
    Ops::template compare_swap_nbi<Ctx>(&cs_ok, base + slot_index(2), start_value<T>(me(), 2), x,
                                        me());
    Ops::template compare_swap_nbi<Ctx>(&cs_fail, base + slot_index(3), x, x, me());
    Ops::template swap_nbi<Ctx>(&sw, base + slot_index(4), x, me());
    Ops::template fetch_nbi<Ctx>(&fe, base + slot_index(5), me());
    quiet<M>();
    EXPECT_TRUE(is_run_from("fetch_inc_nbi / fetch_add_nbi(1) on the next PE", next_olds, 2 * K,
                            from_u<T>(0)));
    SHOAL_EXPECT_AMO("compare_swap_nbi (succeeds) on this PE", cs_ok, start_value<T>(me(), 2));
    SHOAL_EXPECT_AMO("compare_swap_nbi (fails) on this PE", cs_fail, start_value<T>(me(), 3));
    SHOAL_EXPECT_AMO("swap_nbi on this PE", sw, start_value<T>(me(), 4));
    SHOAL_EXPECT_AMO("fetch_nbi on this PE", fe, start_value<T>(me(), 5));
    all_gather(olds.get(), zero_olds, K);
    EXPECT_TRUE(is_run_from("fetch_add_nbi(1) from every PE on PE 0", olds.get(),
                            static_cast<std::size_t>(n) * K, from_u<T>(0)));
    check_array(base, [&](int s, T& want) {
      switch (s) {
        case 0:
          want = from_u<T>(2 * K);
          return true;
        case 1:
          want = from_u<T>(me() == 0 ? static_cast<std::uint64_t>(n) * K : 0);
          return true;
        case 2:
        case 4:
          want = x;
          return true;
        default:
          want = start_value<T>(me(), s);
          return true;
      }
    });
    shmem_barrier_all();
  });
}

// Completion of non-fetching AMOs at shmem_quiet: every PE issues `count` adds / incs to slot 2
// of PE 0 (more than a transport's receive queue holds, so some wait in the sender's queue),
// quiets and meets the others in a barrier; then every PE must see all of them. Repeated
// `rounds` times, because a miss is a race.
template <class Ops, Mode M>
void standard_posted_fan_in(int count, int rounds) {
  using T = typename Ops::type;
  const int n = npes();
  for_each_place<T>([&](T* base) {
    for (int round = 0; round < rounds; ++round) {
      fill(base, [](int s) { return s == 2 ? from_u<T>(0) : start_value<T>(me(), s); });
      shmem_barrier_all();
      T* p = base + slot_index(2);
      for (int i = 0; i < count; ++i) {
        if (i % 2 == 0) {
          Ops::template add<M>(p, from_u<T>(static_cast<std::uint64_t>(me()) + 1), 0);
        } else {
          Ops::template inc<M>(p, 0);
        }
      }
      quiet<M>();
      shmem_barrier_all();
      const std::uint64_t adds = static_cast<std::uint64_t>(count + 1) / 2, incs = count / 2;
      const std::uint64_t pe_sum = static_cast<std::uint64_t>(n) * (n + 1) / 2;
      const T want = from_u<T>(adds * pe_sum + incs * static_cast<std::uint64_t>(n));
      const T got = Ops::template fetch<M>(p, 0);
      SHOAL_EXPECT_AMO("round " + std::to_string(round) + ": PE 0's counter after " +
                           std::to_string(count) +
                           " adds / incs from every PE, shmem_quiet and shmem_barrier_all",
                       got, want);
      shmem_barrier_all();
    }
  });
}

// =================================================================================================
// Extended AMOs: fetch, set, swap (standard types, float, double)
// =================================================================================================

template <class T>
std::vector<T> extended_values(int caller) {
  if constexpr (std::is_floating_point_v<T>) {
    using L = std::numeric_limits<T>;
    return {static_cast<T>(-0.0),
            static_cast<T>(0.0),
            pick<T>(0x7FF8000000001234ull, 0x7FC01234u),  // quiet NaN with a payload
            -L::infinity(),
            L::denorm_min(),
            L::max(),
            L::lowest(),
            static_cast<T>(-1) / 3,
            static_cast<T>(-0.0),
            static_cast<T>(caller) + static_cast<T>(0.5)};
  } else {
    return {top_bit<T>(),
            from_u<T>(0),
            pick<T>(~0ull, ~0u),
            pick<T>(0x7FFFFFFFFFFFFFFFull, 0x7FFFFFFFu),
            pick<T>(0x0123456789ABCDEFull, 0x89ABCDEFu),
            pick<T>(0x00000000FFFFFFFFull, 0x0000FFFFu),
            pick<T>(0xFFFFFFFF00000000ull, 0xFFFF0000u),
            pick<T>(0xC0DE000000000000ull | static_cast<std::uint64_t>(caller),
                    0xC0DE0000u | static_cast<std::uint32_t>(caller))};
  }
}
template <class T>
T ext_final(int caller) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(-(caller + 1)) - static_cast<T>(0.375);
  } else {
    return pick<T>(0x5EED000000000000ull | (static_cast<std::uint64_t>(caller) << 8),
                   0x5EED0000u | (static_cast<std::uint32_t>(caller) << 8));
  }
}

template <class Ops, Mode M>
void extended_steps(typename Ops::type* p, int t, int s) {
  using T = typename Ops::type;
  const std::vector<T> v = extended_values<T>(me());
  SHOAL_EXPECT_AMO("fetch of the initial value", Ops::template fetch<M>(p, t),
                   start_value<T>(t, s));
  Ops::template set<M>(p, v[0], t);
  quiet<M>();
  SHOAL_EXPECT_AMO("fetch after set", Ops::template fetch<M>(p, t), v[0]);
  for (std::size_t i = 1; i < v.size(); ++i)
    SHOAL_EXPECT_AMO("swap #" + std::to_string(i) + " of a chain returns the previous value",
                     Ops::template swap<M>(p, v[i], t), v[i - 1]);
  Ops::template set<M>(p, v[1], t);
  Ops::template set<M>(p, v[2], t);
  quiet<M>();
  SHOAL_EXPECT_AMO("fetch after two sets", Ops::template fetch<M>(p, t), v[2]);
  SHOAL_EXPECT_AMO("swap to the final value", Ops::template swap<M>(p, ext_final<T>(me()), t),
                   v[2]);
}

template <class Ops, Mode M>
void extended_sequence() {
  using T = typename Ops::type;
  for_each_place<T>([](T* base) {
    fill(base, [](int s) { return start_value<T>(me(), s); });
    shmem_barrier_all();
    {
      SCOPED_TRACE("target: the calling PE");
      extended_steps<Ops, M>(base + slot_index(0), me(), 0);
    }
    {
      SCOPED_TRACE("target: the next PE");
      extended_steps<Ops, M>(base + slot_index(1), right(), 1);
    }
    quiet<M>();
    shmem_barrier_all();
    check_array(base, [](int s, T& want) {
      want = s == 0 ? ext_final<T>(me()) : s == 1 ? ext_final<T>(left()) : start_value<T>(me(), s);
      return true;
    });
    shmem_barrier_all();
  });
}

// All PEs swap unique tokens into slot 2 of PE 0: the returned values plus the final value are
// exactly the initial value plus every token. Then all PEs set slot 3 of the last PE at once:
// every PE then fetches the same value, one of the tokens.
template <class Ops, Mode M>
void extended_concurrent() {
  using T = typename Ops::type;
  constexpr std::size_t K = 8;
  const int n = npes();
  SymArray<T> olds(static_cast<std::size_t>(n) * K);
  SymArray<T> seen(static_cast<std::size_t>(n));
  SHOAL_ASSERT_ALL_PES(olds && seen);
  auto token = [](int pe, std::size_t k) -> T {
    if constexpr (std::is_floating_point_v<T>) {
      if (pe == 0 && k == 0) return static_cast<T>(-0.0);  // the initial value is +0.0
      return -static_cast<T>(pe * 64 + static_cast<int>(k)) - static_cast<T>(0.5);
    } else {
      return pick<T>(
          0x8000000000000000ull | (static_cast<std::uint64_t>(pe) << 32) | k,
          0x80000000u | (static_cast<std::uint32_t>(pe) << 16) | static_cast<std::uint32_t>(k));
    }
  };
  auto initial = []() -> T {
    if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(0.0);
    } else {
      return pick<T>(0x7FFF000000000000ull, 0x7FFF0000u);
    }
  };
  for_each_place<T>([&](T* base) {
    fill(base, [&](int s) { return s == 2 ? initial() : start_value<T>(me(), s); });
    shmem_barrier_all();
    T* p = base + slot_index(2);
    T mine[K];
    for (std::size_t k = 0; k < K; ++k) mine[k] = Ops::template swap<M>(p, token(me(), k), 0);
    quiet<M>();
    all_gather(olds.get(), mine, K);
    const T last = Ops::template fetch<M>(p, 0);
    std::vector<T> got(olds.get(), olds.get() + static_cast<std::size_t>(n) * K), want{initial()};
    got.push_back(last);
    for (int pe = 0; pe < n; ++pe)
      for (std::size_t k = 0; k < K; ++k) want.push_back(token(pe, k));
    EXPECT_TRUE(sorted_bits(got) == sorted_bits(want))
        << "PE " << me() << ": the values returned by the concurrent swaps on PE 0 plus the final "
        << show_amo(last) << " are not exactly the initial value plus every token swapped in";
    shmem_barrier_all();  // everyone fetched `last` before anything else changes

    T* q = base + slot_index(3);
    Ops::template set<M>(q, token(me(), K), n - 1);
    quiet<M>();
    shmem_barrier_all();
    const T v = Ops::template fetch<M>(q, n - 1);
    all_gather(seen.get(), &v, 1);
    bool is_token = false;
    for (int pe = 0; pe < n; ++pe) is_token = is_token || same(v, token(pe, K));
    EXPECT_TRUE(is_token) << "PE " << me() << ": after concurrent sets the last PE holds "
                          << show_amo(v) << ", which no PE wrote";
    for (int pe = 0; pe < n; ++pe)
      SHOAL_EXPECT_AMO("the value PE " + std::to_string(pe) + " fetched after the concurrent sets",
                       seen[static_cast<std::size_t>(pe)], v);
    check_array(base, [&](int s, T& want_s) {
      if (s == 2 && me() == 0) {
        want_s = last;
        return true;
      }
      if (s == 3 && me() == n - 1) {
        want_s = v;
        return true;
      }
      want_s = s == 2 ? initial() : start_value<T>(me(), s);
      return true;
    });
    shmem_barrier_all();
  });
}

// fetch_nbi and swap_nbi on several slots of the next PE, one quiet.
template <class Ops, bool Ctx>
void extended_nbi_batch() {
  using T = typename Ops::type;
  constexpr Mode M = Ctx ? Mode::ctx_nbi : Mode::nbi;
  for_each_place<T>([](T* base) {
    fill(base, [](int s) { return start_value<T>(me(), s); });
    shmem_barrier_all();
    T fetched[kSlots];
    const std::vector<T> v = extended_values<T>(me());
    for (int s = 0; s < kSlots; ++s) {
      fetched[s] = poison<T>();
      if (s < kSlots / 2) {
        Ops::template fetch_nbi<Ctx>(&fetched[s], base + slot_index(s), right());
      } else {
        Ops::template swap_nbi<Ctx>(&fetched[s], base + slot_index(s),
                                    v[static_cast<std::size_t>(s) % v.size()], right());
      }
    }
    quiet<M>();
    for (int s = 0; s < kSlots; ++s)
      SHOAL_EXPECT_AMO(std::string(s < kSlots / 2 ? "fetch_nbi" : "swap_nbi") + " of slot " +
                           std::to_string(s) + " on the next PE",
                       fetched[s], start_value<T>(right(), s));
    shmem_barrier_all();
    const std::vector<T> lv = extended_values<T>(left());
    check_array(base, [&](int s, T& want) {
      want = s < kSlots / 2 ? start_value<T>(me(), s) : lv[static_cast<std::size_t>(s) % lv.size()];
      return true;
    });
    shmem_barrier_all();
  });
}

// =================================================================================================
// Bitwise AMOs: fetch_and, and, fetch_or, or, fetch_xor, xor
// =================================================================================================

template <class T>
T bit_final(int caller) {
  return wor(top_bit<T>(), from_u<T>(static_cast<std::uint64_t>(caller) + 1));
}

template <class Ops, Mode M>
void bitwise_steps(typename Ops::type* p, int t, int s) {
  using T = typename Ops::type;
  const int caller = me();
  T cur = start_value<T>(t, s);
  const T m1 = pick<T>(0x40000000000000F0ull, 0x400000F0u);
  const T m2 = pick<T>(0x7FFFFFFFFFFFFF0Full, 0x7FFFFF0Fu);  // clears the top bit
  const T m3 = pick<T>(0xFFFFFFFF00000000ull, 0xFFFF0000u);
  const T m4 = top_bit<T>();
  const T m5 = pick<T>(0xFFFFFFFFFFFFFFFEull, 0xFFFFFFFEu);
  const T m6 = pick<T>(0x8000000000000001ull ^ (static_cast<std::uint64_t>(caller) << 8),
                       0x80000001u ^ (static_cast<std::uint32_t>(caller) << 8));
  SHOAL_EXPECT_AMO("fetch_or", Ops::template fetch_or<M>(p, m1, t), cur);
  cur = wor(cur, m1);
  SHOAL_EXPECT_AMO("fetch_and clearing the top bit", Ops::template fetch_and<M>(p, m2, t), cur);
  cur = wand(cur, m2);
  SHOAL_EXPECT_AMO("fetch_xor of the upper half", Ops::template fetch_xor<M>(p, m3, t), cur);
  cur = wxor(cur, m3);
  Ops::template bit_or<M>(p, m4, t);
  cur = wor(cur, m4);
  Ops::template bit_and<M>(p, m5, t);
  cur = wand(cur, m5);
  Ops::template bit_xor<M>(p, m6, t);
  cur = wxor(cur, m6);
  quiet<M>();
  SHOAL_EXPECT_AMO("fetch after or, and, xor", Ops::template fetch<M>(p, t), cur);
  SHOAL_EXPECT_AMO("fetch_xor with all ones", Ops::template fetch_xor<M>(p, wnot(from_u<T>(0)), t),
                   cur);
  cur = wnot(cur);
  SHOAL_EXPECT_AMO("fetch_and with zero", Ops::template fetch_and<M>(p, from_u<T>(0), t), cur);
  SHOAL_EXPECT_AMO("fetch_or into zero", Ops::template fetch_or<M>(p, bit_final<T>(caller), t),
                   from_u<T>(0));
  Ops::template bit_xor<M>(p, top_bit<T>(), t);
  Ops::template bit_xor<M>(p, top_bit<T>(), t);  // toggled back: bit_final(caller)
  Ops::template bit_and<M>(p, wnot(from_u<T>(0)), t);
  Ops::template bit_or<M>(p, from_u<T>(0), t);
}

template <class Ops, Mode M>
void bitwise_sequence() {
  using T = typename Ops::type;
  for_each_place<T>([](T* base) {
    fill(base, [](int s) { return start_value<T>(me(), s); });
    shmem_barrier_all();
    {
      SCOPED_TRACE("target: the calling PE");
      bitwise_steps<Ops, M>(base + slot_index(0), me(), 0);
    }
    {
      SCOPED_TRACE("target: the next PE");
      bitwise_steps<Ops, M>(base + slot_index(1), right(), 1);
    }
    quiet<M>();
    shmem_barrier_all();
    check_array(base, [](int s, T& want) {
      want = s == 0 ? bit_final<T>(me()) : s == 1 ? bit_final<T>(left()) : start_value<T>(me(), s);
      return true;
    });
    shmem_barrier_all();
  });
}

// All PEs at once on slot 2 of PE 0, each owning the bits pe and width-1-pe (the top bit for
// PE 0): fetch_or, fetch_xor, or, fetch_and, xor, and. Needs 2 * npes <= width.
template <class Ops, Mode M>
void bitwise_concurrent() {
  using T = typename Ops::type;
  constexpr int width = 8 * sizeof(T);
  if (2 * npes() > width) GTEST_SKIP() << "needs at most " << width / 2 << " PEs";
  const int n = npes();
  auto mask = [](int pe) {
    return from_bits<T>(
        static_cast<Word<T>>((Word<T>{1} << pe) | (Word<T>{1} << (width - 1 - pe))));
  };
  T all = from_u<T>(0);
  for (int pe = 0; pe < n; ++pe) all = wor(all, mask(pe));
  const T mine = mask(me());
  const T zero = from_u<T>(0);
  for_each_place<T>([&](T* base) {
    fill(base, [](int s) { return s == 2 ? from_u<T>(0) : start_value<T>(me(), s); });
    shmem_barrier_all();
    T* p = base + slot_index(2);
    auto check_phase = [&](const char* what, T want) {
      quiet<M>();
      shmem_barrier_all();
      SHOAL_EXPECT_AMO(what, Ops::template fetch<M>(p, 0), want);
      shmem_barrier_all();
    };
    T r = Ops::template fetch_or<M>(p, mine, 0);
    SHOAL_EXPECT_AMO("concurrent fetch_or: own bits not yet set", wand(r, mine), zero);
    check_phase("after every PE's fetch_or", all);
    r = Ops::template fetch_xor<M>(p, mine, 0);
    SHOAL_EXPECT_AMO("concurrent fetch_xor: own bits still set", wand(r, mine), mine);
    check_phase("after every PE's fetch_xor", zero);
    Ops::template bit_or<M>(p, mine, 0);
    check_phase("after every PE's or", all);
    r = Ops::template fetch_and<M>(p, wnot(mine), 0);
    SHOAL_EXPECT_AMO("concurrent fetch_and: own bits still set", wand(r, mine), mine);
    check_phase("after every PE's fetch_and", zero);
    Ops::template bit_xor<M>(p, mine, 0);
    check_phase("after every PE's xor", all);
    Ops::template bit_and<M>(p, wnot(mine), 0);
    check_phase("after every PE's and", zero);
    check_array(base, [](int s, T& want) {
      want = s == 2 ? from_u<T>(0) : start_value<T>(me(), s);
      return true;
    });
    shmem_barrier_all();
  });
}

// fetch_and_nbi, fetch_or_nbi, fetch_xor_nbi on different slots of the next PE, one quiet.
template <class Ops, bool Ctx>
void bitwise_nbi_batch() {
  using T = typename Ops::type;
  constexpr Mode M = Ctx ? Mode::ctx_nbi : Mode::nbi;
  for_each_place<T>([](T* base) {
    fill(base, [](int s) { return start_value<T>(me(), s); });
    shmem_barrier_all();
    const T m = pick<T>(0x8000000000000F0Full, 0x80000F0Fu);
    T f[3] = {poison<T>(), poison<T>(), poison<T>()};
    Ops::template fetch_and_nbi<Ctx>(&f[0], base + slot_index(0), m, right());
    Ops::template fetch_or_nbi<Ctx>(&f[1], base + slot_index(1), m, right());
    Ops::template fetch_xor_nbi<Ctx>(&f[2], base + slot_index(2), m, right());
    quiet<M>();
    for (int s = 0; s < 3; ++s)
      SHOAL_EXPECT_AMO("fetch_{and,or,xor}_nbi #" + std::to_string(s), f[s],
                       start_value<T>(right(), s));
    shmem_barrier_all();
    check_array(base, [&](int s, T& want) {
      const T v = start_value<T>(me(), s);
      want = s == 0 ? wand(v, m) : s == 1 ? wor(v, m) : s == 2 ? wxor(v, m) : v;
      return true;
    });
    shmem_barrier_all();
  });
}

}  // namespace shoal::test::amo

// Four tests per scenario: default-context routines, shmem_ctx_* on SHMEM_CTX_DEFAULT, and the
// nbi routines followed by a quiet (plain and ctx).
#define SHOAL_AMO_FOUR_MODES(SUITE, NAME, FN)                               \
  TYPED_TEST(SUITE, NAME) {                                                 \
    ::shoal::test::amo::FN<TypeParam, ::shoal::test::amo::Mode::plain>();   \
  }                                                                         \
  TYPED_TEST(SUITE, Ctx##NAME) {                                            \
    ::shoal::test::amo::FN<TypeParam, ::shoal::test::amo::Mode::ctx>();     \
  }                                                                         \
  TYPED_TEST(SUITE, Nbi##NAME) {                                            \
    ::shoal::test::amo::FN<TypeParam, ::shoal::test::amo::Mode::nbi>();     \
  }                                                                         \
  TYPED_TEST(SUITE, CtxNbi##NAME) {                                         \
    ::shoal::test::amo::FN<TypeParam, ::shoal::test::amo::Mode::ctx_nbi>(); \
  }
