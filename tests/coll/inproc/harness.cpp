#include "harness.hpp"

#include <cstdio>

namespace shoal::coll {

// The algorithm objects, one per row of algorithms.def (the algorithm sources are built into
// the test).
#define SMA_ALGORITHM(collective, name, summary) extern const Algorithm collective##_##name;
#include "collectives/algorithms.def"
#undef SMA_ALGORITHM

namespace inproc {
namespace {

const Algorithm *const kAll[] = {
#define SMA_ALGORITHM(collective, name, summary) &collective##_##name,
#include "collectives/algorithms.def"
#undef SMA_ALGORITHM
};

constexpr std::size_t kReportedFailures = 8;

}  // namespace

std::vector<const Algorithm *> algorithms(Collective c) {
  std::vector<const Algorithm *> all;
  for (const Algorithm *a : kAll)
    if (a->collective == c) all.push_back(a);
  return all;
}

std::vector<int> team_sizes() {
  std::vector<int> sizes;
  for (int pes = kMinPes; pes <= kMaxPes; ++pes)
#ifdef SHOAL_TEST_SAMPLE
    if (pes <= 8)
#else
    if (pes <= 9 || pes == 12 || pes == kMaxPes)
#endif
      sizes.push_back(pes);
  return sizes;
}

std::vector<TeamParam> team_params() {
  std::vector<TeamParam> all;
  for (const Mode mode : {Mode::mapped, Mode::remote, Mode::nodes, Mode::nodes3})
    for (const int pes : team_sizes()) all.push_back({pes, mode});
  return all;
}

std::string team_param_name(const testing::TestParamInfo<TeamParam> &info) {
  return "np" + std::to_string(info.param.pes) + "_" + mode_name(info.param.mode);
}

std::vector<Param> params(Collective c) {
  std::vector<Param> all;
  for (const Algorithm *a : kAll)
    if (a->collective == c)
      for (const Mode mode : {Mode::mapped, Mode::remote, Mode::nodes, Mode::nodes3})
        for (const int pes : team_sizes()) all.push_back({a, pes, mode});
  return all;
}

std::string param_name(const testing::TestParamInfo<Param> &info) {
  const Param &p = info.param;
  return std::string(p.algorithm->name) + "_np" + std::to_string(p.pes) + "_" + mode_name(p.mode);
}

bool PeLog::applies(const Algorithm &algorithm, const Channel &channel, const Args &args) {
  // Calls the dispatcher hands no algorithm (alone.hpp) run too: run_call() completes them.
  const bool yes = needs_no_algorithm(algorithm.collective, channel.size(), args) ||
                   algorithm.applies == nullptr || algorithm.applies(channel, args);
  answers_.push_back(yes ? 1 : 0);
  ran_ += yes ? 1 : 0;
  return yes;
}

void PeLog::fail(std::string what) {
  if (failures_.size() < kReportedFailures) failures_.push_back(std::move(what));
}

void PeLog::check_nothing_pending(const ThreadsChannel &channel, const std::string &what) {
  if (channel.pending_puts() != 0)
    fail(what + ": returned with " + std::to_string(channel.pending_puts()) +
         " put(s) never signalled");
}

void PeLog::check_result(const std::string &what, const std::byte *dest, const std::byte *expected,
                         std::size_t bytes) {
  const std::string diff = first_difference(dest, expected, bytes);
  if (!diff.empty()) fail(what + ": dest " + diff);
  if (!untouched(dest + bytes, kGuardBytes)) fail(what + ": wrote past dest");
}

int Report::finish() {
  for (std::size_t pe = 0; pe < logs_.size(); ++pe) {
    for (const std::string &f : logs_[pe].failures_) ADD_FAILURE() << "PE " << pe << ": " << f;
    if (logs_[pe].answers_ != logs_[0].answers_)
      ADD_FAILURE() << "PE " << pe << " and PE 0 disagree on which calls applies() accepts";
  }
  return logs_[0].ran_;
}

std::string first_difference(const std::byte *got, const std::byte *expected, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i)
    if (got[i] != expected[i]) {
      char text[96];
      std::snprintf(text, sizeof text, "byte %zu of %zu is 0x%02x, expected 0x%02x", i, bytes,
                    static_cast<unsigned>(got[i]), static_cast<unsigned>(expected[i]));
      return text;
    }
  return "";
}

bool untouched(const std::byte *got, std::size_t bytes) noexcept {
  for (std::size_t i = 0; i < bytes; ++i)
    if (got[i] != kSentinel) return false;
  return true;
}

}  // namespace inproc
}  // namespace shoal::coll
