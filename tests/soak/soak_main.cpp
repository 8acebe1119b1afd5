// Randomized soak test: thousands of rounds of mixed puts, gets, AMOs, signals, collectives,
// team splits, contexts and symmetric allocations, every value verified (see README.md).
//
//   oshrun -np 4 soak_test [--seed=S] [--rounds=R] [--stall=SECONDS]
//                          [--inject-fault=ROUND] [--inject-hang=ROUND]
//
// The seed, the round count and the watchdog's limit also come from SHOAL_SOAK_SEED,
// SHOAL_SOAK_ROUNDS and SHOAL_SOAK_STALL_SECONDS (arguments win); SHOAL_SOAK_TRACE=1 makes
// PE 0 print what every round does. PE 0 prints them first; the same seed on the same number of PEs
// replays the same run.
#include <shmem.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>

#include "soak_check.hpp"
#include "soak_round.hpp"
#include "soak_world.hpp"

namespace {

constexpr std::uint64_t kDefaultSeed = 20240613;
constexpr long kDefaultRounds = 2000;

bool parse_number(const char* text, long long& out) {
  char* end = nullptr;
  out = std::strtoll(text, &end, 0);
  return end != text && *end == '\0';
}

// Reads the options into soak::g_run; false (after a message) on a bad one.
bool parse_options(int argc, char** argv) {
  using soak::g_run;
  g_run.seed = kDefaultSeed;
  g_run.rounds = kDefaultRounds;
  long long v = 0;
  if (const char* s = std::getenv("SHOAL_SOAK_SEED"); s != nullptr && *s != '\0') {
    if (!parse_number(s, v))
      return std::fprintf(stderr, "soak: bad SHOAL_SOAK_SEED '%s'\n", s), false;
    g_run.seed = static_cast<std::uint64_t>(v);
  }
  if (const char* s = std::getenv("SHOAL_SOAK_ROUNDS"); s != nullptr && *s != '\0') {
    if (!parse_number(s, v) || v < 0)
      return std::fprintf(stderr, "soak: bad SHOAL_SOAK_ROUNDS '%s'\n", s), false;
    g_run.rounds = static_cast<long>(v);
  }
  if (const char* s = std::getenv("SHOAL_SOAK_TRACE"); s != nullptr && std::strcmp(s, "1") == 0)
    g_run.trace = true;
  if (const char* s = std::getenv("SHOAL_SOAK_STALL_SECONDS"); s != nullptr && *s != '\0') {
    if (!parse_number(s, v) || v < 1)
      return std::fprintf(stderr, "soak: bad SHOAL_SOAK_STALL_SECONDS '%s'\n", s), false;
    g_run.stall_seconds = static_cast<int>(v);
  }
  for (int i = 1; i < argc; ++i) {
    const char* eq = std::strchr(argv[i], '=');
    const std::string name(
        argv[i], eq != nullptr ? static_cast<std::size_t>(eq - argv[i]) : std::strlen(argv[i]));
    if (eq == nullptr || !parse_number(eq + 1, v) || v < 0) {
      std::fprintf(stderr,
                   "soak: bad argument '%s' (--seed=S --rounds=R --stall=SECONDS "
                   "--inject-fault=ROUND --inject-hang=ROUND)\n",
                   argv[i]);
      return false;
    }
    if (name == "--seed")
      g_run.seed = static_cast<std::uint64_t>(v);
    else if (name == "--rounds")
      g_run.rounds = static_cast<long>(v);
    else if (name == "--stall")
      g_run.stall_seconds = static_cast<int>(v);
    else if (name == "--inject-fault")
      g_run.inject_fault_round = static_cast<long>(v);
    else if (name == "--inject-hang")
      g_run.inject_hang_round = static_cast<long>(v);
    else
      return std::fprintf(stderr, "soak: unknown option '%s'\n", argv[i]), false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace soak;
  if (!parse_options(argc, argv)) return 2;
  shmem_init();
  g_run.me = shmem_my_pe();
  g_run.n = shmem_n_pes();
  if (g_run.me == 0) {
    std::printf("soak: seed %llu, %ld rounds, %d PEs\n",
                static_cast<unsigned long long>(g_run.seed), g_run.rounds, g_run.n);
    std::fflush(stdout);
  }
  const auto t0 = std::chrono::steady_clock::now();
  start_watchdog();
  g_world.init();
  std::map<std::string, long> kinds;
  std::map<std::string, double> seconds;
  {
    Rounds rounds;
    for (long round = 0; round < g_run.rounds; ++round) {
      if (round == g_run.inject_hang_round && g_run.me == (g_run.n > 1 ? 1 : 0)) {
        enter_round(round);
        set_kind("injected hang");
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
      }
      const auto start = std::chrono::steady_clock::now();
      const char* kind = rounds.run(round);
      ++kinds[kind];
      seconds[kind] +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    enter_round(g_run.rounds);
    set_kind("teardown");
    heap_cleanup();
    g_world.destroy_all();
    shmem_barrier_all();
    if (g_run.me == 0) {
      const double secs =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::string counts;
      for (const auto& [k, c] : kinds)
        counts += strf("%s%s %ld in %.1f s", counts.empty() ? "" : ", ", k.c_str(), c, seconds[k]);
      counts += ";";
      for (const auto& [k, c] : rounds.uses()) counts += strf(" %s %ld", k.c_str(), c);
      std::printf("soak: seed %llu passed %ld rounds on %d PEs in %.1f s (%s)\n",
                  static_cast<unsigned long long>(g_run.seed), g_run.rounds, g_run.n, secs,
                  counts.c_str());
      std::fflush(stdout);
    }
  }
  shmem_finalize();
  return 0;
}
