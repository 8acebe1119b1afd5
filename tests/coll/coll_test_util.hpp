// Helpers shared by the team-based collective tests (tests/coll).
//
// Every program loops internally over
//   * teams: SHMEM_TEAM_WORLD and splits of it with shmem_team_split_strided (sizes 1, 2, 3, 4,
//     5, 7 and the whole world with stride 1, sizes 3 and 4 with stride 2, size 3 with stride 3,
//     size 2 with stride 3, offset starts), created once per program by teams() and destroyed
//     at the end (TeamsEnvironment). Every PE of the world calls every split; a PE that is not
//     in a team gets SHMEM_TEAM_INVALID and calls nothing on it;
//   * sizes: 0, 1, odd counts, and counts above the library's scratch (kLargeBytes);
//   * types: the typed routines of the specification's tables through the adapters of
//     coll_ops.hpp.
// Every PE computes the expected result itself from inputs that depend only on (world PE,
// index, salt), so any PE can compute any other PE's input. Checks use EXPECT_* so every PE
// always reaches the next collective (no PE may leave a collective loop early: that would hang
// the others).
//
// Back-to-back collectives run without barriers in between: the library's channels only write
// into a peer's dest after the peer entered the call (docs/collectives.md), so a PE may check
// its dest and refill its source right after a call returns while peers are already in the next.
#pragma once

#include "mpp_test.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace shoal::test::coll {

// Above the default SMA_COLL_SCRATCH_SIZE (128 KiB): large cases move at least this many bytes.
inline constexpr std::size_t kLargeBytes = 300000;

// ---- teams ---------------------------------------------------------------------------------

struct TeamCase {
  std::string name;  // "world(8)" or "split(start=1,stride=2,size=4)"
  int start = 0, stride = 1, size = 0;
  bool world = false;                      // SHMEM_TEAM_WORLD itself (not a split)
  shmem_team_t team = SHMEM_TEAM_INVALID;  // valid on members only
  bool member = false;  // this PE is in the team (and the split worked everywhere)
  int my = -1;          // this PE's number in the team
  int world_pe(int j) const { return start + j * stride; }
};

namespace detail {
inline std::vector<TeamCase>& team_store() {
  static std::vector<TeamCase> teams;
  return teams;
}
inline bool& teams_made() {
  static bool made = false;
  return made;
}
}  // namespace detail

// Every team of the program, SHMEM_TEAM_WORLD first. Collective on first use (every PE of the
// world calls every split, in the same order); later calls only return the list.
inline const std::vector<TeamCase>& teams() {
  auto& all = detail::team_store();
  if (detail::teams_made()) return all;
  detail::teams_made() = true;

  const int n = npes();
  const int self = me();
  TeamCase world;
  world.name = "world(" + std::to_string(n) + ")";
  world.size = n;
  world.world = true;
  world.team = SHMEM_TEAM_WORLD;
  world.member = true;
  world.my = self;
  all.push_back(world);

  // (size, stride, preferred start); the start is lowered so the team fits, and a team that
  // does not fit at all (or repeats an earlier one) is left out. At 8 PEs this gives sizes
  // 1 (PE 0 and PE 7), 2, 3 (from 1), 4, 5 (PEs 3-7), 7 (PEs 1-7) and 8 with stride 1;
  // {0,2,4}; {1,3,5,7}; {1,4,7}; {0,3}.
  struct Spec {
    int size, stride, start;
  };
  constexpr int kLast = 1 << 20;
  const Spec specs[] = {{1, 1, 0}, {1, 1, kLast}, {2, 1, 0},     {3, 1, 1},
                        {4, 1, 0}, {5, 1, kLast}, {7, 1, kLast}, {n, 1, 0},
                        {3, 2, 0}, {4, 2, 1},     {3, 3, 1},     {2, 3, 0}};
  for (const Spec& s : specs) {
    const int last_start = n - 1 - (s.size - 1) * s.stride;
    if (s.size < 1 || last_start < 0) continue;
    const int start = std::min(s.start, last_start);
    bool dup = false;
    for (const TeamCase& t : all)
      dup = dup || (!t.world && t.start == start && t.stride == s.stride && t.size == s.size);
    if (dup) continue;

    TeamCase c;
    c.name = "split(start=" + std::to_string(start) + ",stride=" + std::to_string(s.stride) +
             ",size=" + std::to_string(s.size) + ")";
    c.start = start;
    c.stride = s.stride;
    c.size = s.size;
    const bool expect_member =
        self >= start && (self - start) % s.stride == 0 && (self - start) / s.stride < s.size;
    shmem_team_t t = SHMEM_TEAM_INVALID;
    const int rc =
        shmem_team_split_strided(SHMEM_TEAM_WORLD, start, s.stride, s.size, nullptr, 0, &t);
    bool ok = true;
    EXPECT_EQ(rc, 0) << c.name << ": shmem_team_split_strided failed";
    ok = ok && rc == 0;
    EXPECT_EQ(t != SHMEM_TEAM_INVALID, expect_member)
        << c.name << ": PE " << self
        << (expect_member ? " got SHMEM_TEAM_INVALID" : " got a team it is not in");
    ok = ok && (t != SHMEM_TEAM_INVALID) == expect_member;
    if (ok && expect_member) {
      EXPECT_EQ(shmem_team_n_pes(t), s.size) << c.name;
      EXPECT_EQ(shmem_team_my_pe(t), (self - start) / s.stride) << c.name;
      ok = shmem_team_n_pes(t) == s.size && shmem_team_my_pe(t) == (self - start) / s.stride;
    }
    c.team = t;
    // A team some PE got wrong is left out on every PE (otherwise members would wait forever
    // for a PE that does not know it is one).
    if (all_pes(ok)) {
      c.member = expect_member;
      c.my = expect_member ? (self - start) / s.stride : -1;
    } else {
      ADD_FAILURE() << c.name << ": split failed on some PE; the team is not tested";
    }
    all.push_back(c);
  }
  return all;
}

// Destroys the split teams after the last test (shmem_team_destroy is collective over the team:
// every member destroys the teams in the same order).
class TeamsEnvironment : public ::testing::Environment {
 public:
  void TearDown() override {
    for (TeamCase& c : detail::team_store()) {
      if (!c.world && c.team != SHMEM_TEAM_INVALID) shmem_team_destroy(c.team);
      c.team = SHMEM_TEAM_INVALID;
      c.member = false;
    }
  }
};
inline ::testing::Environment* const kTeamsEnvironment =
    ::testing::AddGlobalTestEnvironment(new TeamsEnvironment);

// World plus one split with a stride (an odd size where the world allows): the teams the
// type-table loops run on.
inline std::vector<const TeamCase*> representative_teams() {
  std::vector<const TeamCase*> out;
  const auto& all = teams();
  out.push_back(&all.front());
  const TeamCase* pick = nullptr;
  for (const TeamCase& t : all)  // strided odd team first ({0,2,4} at 5+ PEs)
    if (!pick && !t.world && t.stride > 1 && t.size == 3) pick = &t;
  for (const TeamCase& t : all)  // else the largest proper split of 2+ PEs
    if (!pick && !t.world && t.size >= 2 && t.size < npes()) pick = &t;
  if (pick) out.push_back(pick);
  return out;
}

inline std::vector<const TeamCase*> all_teams() {
  std::vector<const TeamCase*> out;
  for (const TeamCase& t : teams()) out.push_back(&t);
  return out;
}

// The first split (not SHMEM_TEAM_WORLD) of `size` PEs with the given stride, or null.
inline const TeamCase* find_split(int size, int stride) {
  for (const TeamCase& t : teams())
    if (!t.world && t.size == size && t.stride == stride) return &t;
  return nullptr;
}

// The teams the large (above-scratch) cases run on: the world, the strided team of 3 and a team
// of 7 (or else 5) consecutive PEs, whichever exist.
inline std::vector<const TeamCase*> large_teams() {
  std::vector<const TeamCase*> out{&teams().front()};
  if (const TeamCase* t = find_split(3, 2)) out.push_back(t);
  const TeamCase* big = find_split(7, 1);
  if (big == nullptr || big->size == npes()) big = find_split(5, 1);
  if (big != nullptr && big->size < npes()) out.push_back(big);
  return out;
}

// Salt of the inputs of a team's cases: depends only on the team (never on which teams this PE
// is in), so every member derives the same inputs for every other member.
// The calls of the MixedBackToBack tests: on the world team and the largest split team, 48
// calls in a row without barriers whose block size switches between mailbox-sized and larger
// ones and whose buffers alternate between the heap (first two of three calls) and the data
// segment, which the on-node "direct" algorithms never use. call(team, k, n, dest, source)
// makes call k with n elements per block.
template <typename Call>
void mixed_back_to_back(void* heap_dest, void* heap_source, void* static_dest, void* static_source,
                        Call&& call) {
  std::vector<const TeamCase*> ts{&teams().front()};
  if (const TeamCase* s = large_teams().back(); s != ts.front()) ts.push_back(s);
  for (const TeamCase* t : ts) {
    if (!t->member) continue;
    for (unsigned k = 0; k < 48; ++k) {
      const bool heap = k % 3 != 2;
      const std::size_t n = k % 4 == 0 ? 1 + k % 16 : k % 4 == 1 ? 17 + k : 300 + 7 * k;
      call(*t, k, n, heap ? heap_dest : static_dest, heap ? heap_source : static_source);
    }
  }
}

inline unsigned team_salt(unsigned base, const TeamCase& t) {
  return base + 4096u * static_cast<unsigned>(&t - teams().data());
}

// ---- messages ------------------------------------------------------------------------------

// The algorithm variables in force, for failure messages ("auto" when none is set).
inline const std::string& algorithm_env() {
  static const std::string text = [] {
    std::string s;
    for (const char* v :
         {"SMA_BARRIER_ALGORITHM", "SMA_BCAST_ALGORITHM", "SMA_REDUCE_ALGORITHM",
          "SMA_COLLECT_ALGORITHM", "SMA_FCOLLECT_ALGORITHM", "SMA_ALLTOALL_ALGORITHM",
          "SMA_SCAN_ALGORITHM", "SMA_COLL_SCRATCH_SIZE", "SMA_SHARED_MEMORY"})
      if (const char* val = std::getenv(v); val != nullptr && *val != '\0')
        s += std::string(s.empty() ? "" : " ") + v + "=" + val;
    return s.empty() ? std::string("auto") : s;
  }();
  return text;
}

// "<what> on <team> [<type>, n=<n>] (<algorithm env>)" for failure messages.
inline std::string where(const char* what, const TeamCase& t, const char* type, std::size_t n) {
  std::ostringstream os;
  os << what << " on " << t.name << " [" << type << ", n=" << n << "] (" << algorithm_env() << ")";
  return os.str();
}

// ---- deterministic inputs ------------------------------------------------------------------

inline std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
inline std::uint64_t hash3(int pe, std::size_t i, unsigned salt) {
  return mix64(mix64((static_cast<std::uint64_t>(salt) << 32) ^ static_cast<std::uint32_t>(pe)) +
               static_cast<std::uint64_t>(i));
}

template <class T>
struct is_complex : std::false_type {};
template <>
struct is_complex<float _Complex> : std::true_type {};
template <>
struct is_complex<double _Complex> : std::true_type {};
template <class T>
inline constexpr bool is_complex_v = is_complex<T>::value;

template <class T>
struct complex_part;
template <>
struct complex_part<float _Complex> {
  using type = float;
};
template <>
struct complex_part<double _Complex> {
  using type = double;
};

template <class T>
T make_complex(double re, double im) {
  T v;
  __real__ v = static_cast<typename complex_part<T>::type>(re);
  __imag__ v = static_cast<typename complex_part<T>::type>(im);
  return v;
}

// Data element of the data-movement collectives (broadcast, collect, alltoall): a hash of
// (world PE, index, salt); floating values are exactly representable in float.
template <class T>
T data_value(int pe, std::size_t i, unsigned salt) {
  const std::uint64_t h = hash3(pe, i, salt);
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(static_cast<double>(h % 2000003u) - 1000001.0 + 0.5);
  } else {
    return static_cast<T>(h);
  }
}

// ---- comparisons ---------------------------------------------------------------------------

template <class T>
bool same(const T& a, const T& b) {
  if constexpr (is_complex_v<T>) {
    return __real__ a == __real__ b && __imag__ a == __imag__ b;
  } else if constexpr (std::is_arithmetic_v<T>) {
    return a == b;
  } else {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
  }
}

template <class T>
std::string show_value(const T& v) {
  if constexpr (is_complex_v<T>) {
    std::ostringstream os;
    os.precision(17);
    os << "(" << static_cast<double>(__real__ v) << "," << static_cast<double>(__imag__ v) << ")";
    return os.str();
  } else {
    return show(v);
  }
}

// a[i] == expected(i) for i in [begin, end); first mismatch and the count on failure.
template <class T, class Expected>
::testing::AssertionResult check_elems(const std::string& what, const T* a, std::size_t begin,
                                       std::size_t end, Expected expected) {
  std::size_t bad = 0, first = 0;
  std::string got, want;
  for (std::size_t i = begin; i < end; ++i) {
    const T e = expected(i);
    if (!same(a[i], e)) {
      if (bad++ == 0) {
        first = i;
        got = show_value(a[i]);
        want = show_value(e);
      }
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << what << ": " << bad << " of " << (end - begin) << " elements wrong in [" << begin
         << ", " << end << "); first at index " << first << ": got " << got << ", expected "
         << want;
}

// Guard bytes: memory a collective must not write is filled with a pattern first.
inline unsigned char guard_byte(std::size_t i) {
  return static_cast<unsigned char>(0x5a ^ (i * 13));
}
inline void fill_guard(void* p, std::size_t begin, std::size_t end) {
  auto* b = static_cast<unsigned char*>(p);
  for (std::size_t i = begin; i < end; ++i) b[i] = guard_byte(i);
}
inline ::testing::AssertionResult check_guard(const std::string& what, const void* p,
                                              std::size_t begin, std::size_t end) {
  const auto* b = static_cast<const unsigned char*>(p);
  std::size_t bad = 0, first = 0;
  for (std::size_t i = begin; i < end; ++i)
    if (b[i] != guard_byte(i) && bad++ == 0) first = i;
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << what << ": " << bad << " bytes written outside the result, first at byte " << first
         << " of [" << begin << ", " << end << ")";
}

// Symmetric byte buffer viewed as T (shmem_malloc alignment suits every table type).
class SymBuffer {
 public:
  explicit SymBuffer(std::size_t bytes) : bytes_(bytes) {
    p_ = shmem_malloc(bytes > 0 ? bytes : 1);
  }
  ~SymBuffer() {
    if (p_ != nullptr) shmem_free(p_);
  }
  SymBuffer(const SymBuffer&) = delete;
  SymBuffer& operator=(const SymBuffer&) = delete;
  template <class T>
  T* as() const {
    return static_cast<T*>(p_);
  }
  void* get() const { return p_; }
  std::size_t bytes() const { return bytes_; }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  void* p_ = nullptr;
  std::size_t bytes_ = 0;
};

// Elements of T that make at least `bytes` bytes, rounded up to an odd count.
template <class T>
std::size_t odd_count_for(std::size_t bytes) {
  std::size_t n = (bytes + sizeof(T) - 1) / sizeof(T);
  return n | 1u;
}

}  // namespace shoal::test::coll
