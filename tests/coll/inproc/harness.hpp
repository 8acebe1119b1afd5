// What the in-process tests of the collective algorithms share: the parameters (every
// algorithm of collectives/algorithms.def for a collective x team sizes 1 to 16 x every mode of
// the threads backend), the per-PE log of each run, and deterministic data.
//
// A test body runs on every PE's thread (Team::run) and loops over its cases, calling the
// algorithm directly whenever the call would reach it: the dispatcher (collectives/
// dispatch.cpp) completes calls on teams of one PE and calls that move nothing itself, and
// the algorithms rely on that (several divide by the number of rounds, or grant credits on
// entry that only a nonempty call consumes), so those cases are left out here too; then
// whenever its applies() accepts the case. Calls go back to back on the same buffers and the
// same slot, so credits and buffer reuse are exercised between calls as well as within them.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/alone.hpp"
#include "threads_team.hpp"

namespace shoal::coll::inproc {

// The runtime's minimum scratch (SMA_COLL_SCRATCH_SIZE=1k), so vectors above 1 KiB go through
// the scratch in pieces; and a heap large enough for the largest case of any test.
constexpr std::size_t kScratchBytes = 1024;
constexpr std::size_t kHeapBytes = 512 << 10;
constexpr int kMinPes = 1, kMaxPes = 16;

// The team sizes every algorithm runs at: 1 to 9, 12 and kMaxPes (16). Trees of one to four
// levels with full and partial last levels, every remainder of a power of two up to 4 (1 to 7
// and 12), even and uneven nodes in every mode, and the largest team, in half the time of every
// size from 1 to 16 (teams of 10 to 15 threads took half of it, for paths the others take).
// Builds configured with SHOAL_TEST_SAMPLE (the sanitizer presets) take 1 to 8: a run's time
// grows with the team's size (under ASan, coll_inproc_broadcast took 0.5 s at 2 threads, 2.5 at
// 9, 3.6 at 12, 5.1 at 16; the five families 115 s of the asan stage at 1 to 9), and 8 already
// makes a tree of four levels with a partial last (seven in three full levels, and one).
std::vector<int> team_sizes();

struct Param {
  const Algorithm *algorithm;
  int pes;
  Mode mode;
};

// Every algorithm of `c` (algorithms.def order) x team_sizes() x every mode.
std::vector<Param> params(Collective c);
// "<algorithm>_np<pes>_<mode>", for the test names.
std::string param_name(const testing::TestParamInfo<Param> &info);

// Every algorithm of `c`, in algorithms.def order.
std::vector<const Algorithm *> algorithms(Collective c);

// A team without an algorithm: for tests that mix a collective's algorithms on one team.
struct TeamParam {
  int pes;
  Mode mode;
};
// team_sizes() x every mode; "np<pes>_<mode>".
std::vector<TeamParam> team_params();
std::string team_param_name(const testing::TestParamInfo<TeamParam> &info);

// One PE's record of a run: failures, cases run, and applies() answers (which must be the same
// on every PE).
class PeLog {
 public:
  // Whether the call runs: it needs no algorithm (alone.hpp) or the algorithm's applies()
  // accepts it; remembered for the comparison across PEs.
  bool applies(const Algorithm &algorithm, const Channel &channel, const Args &args);
  // Records a failure (the first few are reported).
  void fail(std::string what);
  // Fails when the backend still holds puts the algorithm never signalled.
  void check_nothing_pending(const ThreadsChannel &channel, const std::string &what);
  // Fails when the `bytes` at dest differ from `expected`, or when any of the kGuardBytes after
  // them no longer holds kSentinel (dest was filled with it before the call).
  void check_result(const std::string &what, const std::byte *dest, const std::byte *expected,
                    std::size_t bytes);
  int ran() const noexcept { return ran_; }

 private:
  friend class Report;
  std::vector<std::string> failures_;
  std::vector<char> answers_;
  int ran_ = 0;
};

class Report {
 public:
  explicit Report(int pes) : logs_(static_cast<std::size_t>(pes)) {}
  PeLog &pe(int pe) noexcept { return logs_[static_cast<std::size_t>(pe)]; }
  // Reports every PE's failures and disagreeing applies() answers; returns the number of calls
  // that ran (0: the algorithm served no case, the test is skipped).
  int finish();

 private:
  std::vector<PeLog> logs_;
};

// Runs body(team, me, channel, log) on every PE of a fresh team of `pes` threads in `mode`,
// each with heap_bytes of heap and the mailboxes of a job of job_pes PEs (0: pes), then
// reports every PE's failures; returns the calls that ran (0: the test should skip).
template <typename Body>
int run_every_pe(int pes, Mode mode, Body &&body, std::size_t heap_bytes = kHeapBytes,
                 int job_pes = 0) {
  Team team(pes, mode, kScratchBytes, heap_bytes, job_pes);
  Report report(pes);
  team.run([&](int me) { body(team, me, team.channel(me), report.pe(me)); });
  return report.finish();
}

// Deterministic contents: element i of PE pe's data in call `salt`, small enough that sums
// of 16 of them are exact in any type used.
template <typename T>
T value(int pe, std::size_t i, int salt) {
  return static_cast<T>((static_cast<long>(pe) * 37 + static_cast<long>(i) * 11 + salt * 5) % 97 -
                        40);
}

// What a call must not write: dest is filled with it before the call.
constexpr std::byte kSentinel{0xEE};
// Bytes past the end of every result that must still hold kSentinel afterwards.
constexpr std::size_t kGuardBytes = 64;

// The first difference between `bytes` at `got` and `expected`, described, or "".
std::string first_difference(const std::byte *got, const std::byte *expected, std::size_t bytes);
// Fails unless [from, from + bytes) of got all hold kSentinel.
bool untouched(const std::byte *got, std::size_t bytes) noexcept;

}  // namespace shoal::coll::inproc
