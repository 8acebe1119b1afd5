// Where the soak run is, and the checks that stop the job at the first wrong value.
//
// A mismatch prints
//   soak: seed S round R kind K pe P: <what> expected X got Y
// and ends the whole job with shmem_global_exit(1), so a failing soak never waits for peers that
// are still running. A watchdog thread ends the job the same way when a round stops making
// progress (a hang), naming the round and kind it was stuck in.
#pragma once

#include <cinttypes>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>

#include "soak_random.hpp"

namespace soak {

// Fixed for the whole job.
struct Run {
  std::uint64_t seed = 0;
  long rounds = 0;
  int me = 0;
  int n = 1;
  long inject_fault_round = -1;  // --inject-fault=R: corrupt one checked value at round >= R
  long inject_hang_round = -1;   // --inject-hang=R: one PE stops at round R
  int stall_seconds = 30;        // watchdog limit for one round
  bool trace = false;            // SHOAL_SOAK_TRACE=1: PE 0 prints what each round does
};
extern Run g_run;

// The position that messages report. `kind` must be a string literal (the watchdog reads it).
void enter_round(long round);
void set_kind(const char* kind);
long current_round();
const char* current_kind();

// Randomness of the current round: the same on every PE (shared) or the plan of one PE.
inline Rng shared_rng(std::string_view tag) {
  return Rng(key_of(g_run.seed, current_round(), hash_tag(tag)));
}
inline Rng pe_rng(std::string_view tag, int pe) {
  return Rng(key_of(g_run.seed, current_round(), hash_tag(tag), pe + 1));
}
// A value unique to (round, tag, parts...): payload keys, signal tags.
template <class... Parts>
std::uint64_t round_key(std::string_view tag, Parts... parts) {
  return key_of(g_run.seed, current_round(), hash_tag(tag), parts...);
}

std::string strf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
// With g_run.trace, PE 0 prints "soak: round R: <text>" (to narrow down a failing seed).
void trace(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

[[noreturn]] void fail(const std::string& what, const std::string& expected,
                       const std::string& got);

// True once, on the chosen PE, at the first check of round inject_fault_round or later: the
// check then sees a corrupted value, proving that the checks can fail.
bool fault_due();

template <class T>
std::string show(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return strf("%.17g", static_cast<double>(v));
  } else if constexpr (std::is_signed_v<T>) {
    return strf("%lld", static_cast<long long>(v));
  } else {
    return strf("%llu (0x%llx)", static_cast<unsigned long long>(v),
                static_cast<unsigned long long>(v));
  }
}

// Compares one value; `what` is called only on a mismatch.
template <class T, class What>
void expect_eq(T want, T got, What&& what) {
  if (fault_due()) got = static_cast<T>(got + 1);
  if (!(want == got)) fail(what(), show(want), show(got));
}

template <class What>
void expect_true(bool cond, What&& what, const char* expected, const char* got) {
  if (fault_due()) cond = false;
  if (!cond) fail(what(), expected, got);
}

// Compares len bytes; on a mismatch names the first wrong byte and how many are wrong.
void expect_bytes_impl(const void* want, const void* got, std::size_t len,
                       const std::string& (*describe)(const void*), const void* ctx);
template <class What>
void expect_bytes(const void* want, const void* got, std::size_t len, What&& what) {
  struct Ctx {
    What* what;
    std::string text;
  } ctx{&what, {}};
  expect_bytes_impl(
      want, got, len,
      [](const void* c) -> const std::string& {
        auto* x = static_cast<Ctx*>(const_cast<void*>(c));
        x->text = (*x->what)();
        return x->text;
      },
      &ctx);
}

// Stops the job if no round starts for g_run.stall_seconds.
void start_watchdog();

}  // namespace soak
