// What the library knows about the calls a program makes into it, for two features that share
// one instrumentation point (docs/profile.md, docs/debugging.md):
//   * the profile (SMA_PROFILE): per routine family, calls, bytes and time inside the library,
//     and which collective algorithm ran how often; printed or written at shmem_finalize;
//   * hang reports (SMA_HANG_TIMEOUT): where every PE is when one has waited too long inside one
//     call (observe/hang.hpp).
//
// The API entry points declare a CallScope (SMA_OBSERVE_CALL and the wait and team forms) on
// entry. With both features off a scope costs one predictable branch on g_on: no clock read, no
// store. When on, the outermost scope of a thread (a collective's internal puts, a deprecated
// name calling its successor: nested scopes do nothing) counts the call, times it (profile) and
// publishes it in this PE's record (hang reports).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

struct shoal_team;

namespace shoal {
class Runtime;
}

namespace shoal::observe {

// The routine families the profile counts, in the order its table lists them. lifecycle
// (shmem_init's and shmem_finalize's barriers) appears only in hang reports.
#define SMA_OBSERVE_FAMILIES(X) \
  X(put)                        \
  X(get)                        \
  X(nbi)                        \
  X(amo)                        \
  X(signal)                     \
  X(wait)                       \
  X(test)                       \
  X(lock)                       \
  X(quiet)                      \
  X(barrier)                    \
  X(broadcast)                  \
  X(reduce)                     \
  X(collect)                    \
  X(fcollect)                   \
  X(alltoall)                   \
  X(scan)                       \
  X(lifecycle)

enum class Family : std::uint8_t {
#define SMA_FAMILY_ENUM(name) name,
  SMA_OBSERVE_FAMILIES(SMA_FAMILY_ENUM)
#undef SMA_FAMILY_ENUM
      count
};
inline constexpr int kFamilies = static_cast<int>(Family::count);
const char *family_name(Family f) noexcept;

// Whether either feature is on (set by start(), cleared by finish()); the one branch of a scope.
// Hidden: the entry points read it PC-relative, not through the GOT.
extern bool g_on __attribute__((visibility("hidden")));
// Whether the profile is on (note_algorithm's branch).
extern bool g_profile __attribute__((visibility("hidden")));

// How the value a wait compares with is printed: the type's kind and size.
enum class ValueKind : std::uint8_t { none, signed_int, unsigned_int, floating };
template <typename T>
constexpr ValueKind value_kind() noexcept {
  if constexpr (std::is_floating_point_v<T>) return ValueKind::floating;
  if constexpr (std::is_signed_v<T>) return ValueKind::signed_int;
  return ValueKind::unsigned_int;
}

// What a call is about, beyond its routine and bytes: the target PE of RMA and AMOs, the team of
// a collective, the variable and value a wait compares.
struct Detail {
  int pe = -1;
  shoal_team *team = nullptr;
  const void *addr = nullptr;  // wait: the (first) variable
  std::size_t nvars = 0;       // wait: variables compared (arrays)
  int cmp = 0;                 // wait: SHMEM_CMP_*
  ValueKind kind = ValueKind::none;
  std::uint8_t value_size = 0;
  std::uint64_t value = 0;  // wait: the comparison value's bytes
};

template <typename T>
Detail wait_detail(const T *addr, std::size_t nvars, int cmp, const T *value) noexcept {
  static_assert(sizeof(T) <= 8, "wait values are at most 8 bytes");
  Detail d;
  d.addr = addr;
  d.nvars = nvars;
  d.cmp = cmp;
  d.kind = value_kind<T>();
  d.value_size = sizeof(T);
  if (value != nullptr) std::memcpy(&d.value, value, sizeof(T));
  return d;
}

// Out of line and cold, taken only when g_on: each enter returns whether this was the outermost
// call of the thread (and so leave() must follow). The scope passes scalars, so that what it adds
// to an entry point stays small: the RMA and AMO fast paths around it must still be inlined.
[[gnu::cold]] bool enter(Family family, const char *routine, std::size_t bytes,
                         const Detail &detail) noexcept;
[[gnu::cold]] bool enter_pe(Family family, const char *routine, std::size_t bytes, int pe) noexcept;
[[gnu::cold]] bool enter_team(Family family, const char *routine, std::size_t bytes,
                              shoal_team *team) noexcept;
[[gnu::cold]] void leave() noexcept;

class CallScope {
 public:
  [[gnu::always_inline]] CallScope(Family family, const char *routine, std::size_t bytes,
                                   int pe) noexcept {
    if (g_on) [[unlikely]]
      on_ = enter_pe(family, routine, bytes, pe);
  }
  [[gnu::always_inline]] CallScope(Family family, const char *routine, std::size_t bytes,
                                   shoal_team *team) noexcept {
    if (g_on) [[unlikely]]
      on_ = enter_team(family, routine, bytes, team);
  }
  // A wait: the detail is built only when on (make() is a callable returning a Detail).
  template <typename Make, typename = std::enable_if_t<std::is_invocable_r_v<Detail, Make>>>
  [[gnu::always_inline]] CallScope(Family family, const char *routine, Make &&make) noexcept {
    if (g_on) [[unlikely]]
      on_ = enter(family, routine, 0, make());
  }
  [[gnu::always_inline]] ~CallScope() {
    if (on_) [[unlikely]]
      leave();
  }
  CallScope(const CallScope &) = delete;
  CallScope &operator=(const CallScope &) = delete;

 private:
  bool on_ = false;
};

// The collective of the current call ran `algorithm` for `collective` (the dispatcher calls it
// for every algorithm it runs; collect's exchange of counts is an fcollect within a collect).
void record_algorithm(const char *collective, const char *algorithm) noexcept;
inline void note_algorithm(const char *collective, const char *algorithm) noexcept {
  if (g_profile) [[unlikely]]
    record_algorithm(collective, algorithm);
}

// The library's start and stop (api/library.cpp): start() after the runtime is up (the record
// area is mapped), before shmem_init's barrier; finish() after shmem_finalize's barrier, while
// every layer still runs: it gathers and reports the profile (a collective step: every PE calls
// it) and stops the hang watchdog.
void start(Runtime &rt) noexcept;
void finish(Runtime &rt) noexcept;

// Bytes of this PE's record area, which Runtime::setup_memory puts at the end of the symmetric
// heap (mapped by the PEs of the node, so a hang report reads it without this PE's help).
inline constexpr std::size_t kAreaBytes = 4096;
// Where in that area, after the record, the PE publishes the CPU it waits on (cpu_spread.hpp).
inline constexpr std::size_t kCpuSlotOffset = 2048;
// PE pe's record area as this process sees it: its own, or through the mapping of a heap of the
// node; null when that PE's heap is not mapped here (another node, SMA_SHARED_MEMORY=0).
std::byte *area_of(const Runtime &rt, int pe) noexcept;

}  // namespace shoal::observe

// The fast paths' form (RMA, AMOs, signals, quiet): the statement runs as it always did when
// both features are off, after one branch on g_on, so the compiler keeps the inlining and tail
// calls it chose before (a scope around the call would turn the call into a non-tail call); when
// on, it runs inside a scope. `...` is one statement, `return` included:
// SMA_OBSERVED(put, routine, bytes, pe, put(ctx, dest, source, bytes, pe, routine)).
#define SMA_OBSERVED(_family, _routine, _bytes, _who, ...)                                   \
  do {                                                                                       \
    if (::shoal::observe::g_on) [[unlikely]] {                                               \
      const ::shoal::observe::CallScope sma_observe_scope(::shoal::observe::Family::_family, \
                                                          _routine, _bytes, _who);           \
      __VA_ARGS__;                                                                           \
    } else {                                                                                 \
      __VA_ARGS__;                                                                           \
    }                                                                                        \
  } while (0)

#define SMA_OBSERVE_CONCAT2(a, b) a##b
#define SMA_OBSERVE_CONCAT(a, b) SMA_OBSERVE_CONCAT2(a, b)
// One scope for the rest of the enclosing block: SMA_OBSERVE_CALL(put, routine, bytes, pe).
#define SMA_OBSERVE_CALL(_family, ...)                                          \
  const ::shoal::observe::CallScope SMA_OBSERVE_CONCAT(sma_observe_, __LINE__)( \
      ::shoal::observe::Family::_family, __VA_ARGS__)
