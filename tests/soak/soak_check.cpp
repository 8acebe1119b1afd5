#include "soak_check.hpp"

#include <shmem.h>

#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace soak {

Run g_run;

namespace {
std::atomic<long> g_round{-1};
std::atomic<const char*> g_kind{"init"};
std::atomic<bool> g_fault_injected{false};
}  // namespace

void enter_round(long round) { g_round.store(round, std::memory_order_relaxed); }
void set_kind(const char* kind) { g_kind.store(kind, std::memory_order_relaxed); }
long current_round() { return g_round.load(std::memory_order_relaxed); }
const char* current_kind() { return g_kind.load(std::memory_order_relaxed); }

std::string strf(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

void trace(const char* fmt, ...) {
  if (!g_run.trace || g_run.me != 0) return;
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  std::printf("soak: round %ld: %s\n", current_round(), buf);
  std::fflush(stdout);
}

void fail(const std::string& what, const std::string& expected, const std::string& got) {
  std::fprintf(stdout, "soak: seed %" PRIu64 " round %ld kind %s pe %d: %s expected %s got %s\n",
               g_run.seed, current_round(), current_kind(), g_run.me, what.c_str(),
               expected.c_str(), got.c_str());
  std::fflush(stdout);
  shmem_global_exit(1);
}

bool fault_due() {
  if (g_run.inject_fault_round < 0 || current_round() < g_run.inject_fault_round) return false;
  if (g_run.me != (g_run.n > 1 ? 1 : 0)) return false;
  return !g_fault_injected.exchange(true);
}

void expect_bytes_impl(const void* want, const void* got, std::size_t len,
                       const std::string& (*describe)(const void*), const void* ctx) {
  const bool inject = fault_due();
  // memcmp with len 0 may still not be given null (an empty vector's data()).
  if (!inject && (len == 0 || std::memcmp(want, got, len) == 0)) return;
  const auto* w = static_cast<const std::uint8_t*>(want);
  const auto* g = static_cast<const std::uint8_t*>(got);
  std::size_t wrong = 0, first = len;
  std::uint8_t first_got = 0;
  for (std::size_t i = 0; i < len; ++i) {
    const std::uint8_t gi = (inject && i == 0) ? static_cast<std::uint8_t>(~g[0]) : g[i];
    if (gi != w[i]) {
      if (wrong++ == 0) {
        first = i;
        first_got = gi;
      }
    }
  }
  if (wrong == 0) return;
  fail(describe(ctx) + strf(": %zu of %zu bytes wrong, first at byte %zu", wrong, len, first),
       strf("0x%02x", w[first]), strf("0x%02x", first_got));
}

void start_watchdog() {
  std::thread([] {
    long seen = current_round();
    auto since = std::chrono::steady_clock::now();
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      const long now_round = current_round();
      const auto now = std::chrono::steady_clock::now();
      if (now_round != seen) {
        seen = now_round;
        since = now;
        continue;
      }
      if (now - since < std::chrono::seconds(g_run.stall_seconds)) continue;
      // No library call from this thread: the main thread may be inside one, and the job's
      // thread level may be SINGLE. Leaving the process makes the launcher end the job.
      std::fprintf(stdout,
                   "soak: seed %" PRIu64
                   " round %ld kind %s pe %d: no progress for %d s (a hang)"
                   " expected the round to end got still inside it\n",
                   g_run.seed, now_round, current_kind(), g_run.me, g_run.stall_seconds);
      std::fflush(stdout);
      std::_Exit(3);
    }
  }).detach();
}

}  // namespace soak
