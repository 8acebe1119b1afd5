#include "observe/observe.hpp"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "log/log.hpp"
#include "observe/hang.hpp"
#include "observe/profile.hpp"
#include "observe/record.hpp"
#include "observe/state.hpp"
#include "runtime.hpp"
#include "team/team.hpp"

namespace shoal::observe {

// Plain globals, not State members: every entry point branches on g_on (observe.hpp), one
// PC-relative load; start() sets them from the bound State and finish() clears them.
bool g_on = false;
bool g_profile = false;

namespace {

// The bound state (observe/state.hpp): the running library's, else null.
State *bound() noexcept { return detail::g_bound; }

// The call this thread is in (the outermost one).
struct ThreadCall {
  bool inside = false;
  Family family = Family::count;
  std::uint64_t bytes = 0;
  std::uint64_t start_ns = 0;
};
thread_local ThreadCall t_call;

std::uint64_t now_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

// The record's sequence lock, writer side: seq odd while `write` changes the fields.
template <typename Write>
void publish(State &s, Write &&write) noexcept {
  while (s.record_lock.test_and_set(std::memory_order_acquire)) {
  }
  Record &r = *s.record;
  const std::uint64_t seq = __atomic_load_n(&r.seq, __ATOMIC_RELAXED);
  __atomic_store_n(&r.seq, seq + 1, __ATOMIC_RELAXED);
  std::atomic_thread_fence(std::memory_order_release);
  write(r.fields);
  __atomic_store_n(&r.seq, seq + 2, __ATOMIC_RELEASE);
  s.record_lock.clear(std::memory_order_release);
}

void describe_team(shoal_team *t, Fields &f) noexcept {
  if (t == nullptr || !team::is_live(t)) return;
  f.team_kind = t == &shoal_team_world    ? TeamKind::world
                : t == &shoal_team_shared ? TeamKind::shared
                : t->active_set           ? TeamKind::active_set
                                          : TeamKind::split;
  f.team_size = t->n_pes;
  f.team_rank = t->my_pe;
  f.team_first = t->n_pes > 0 ? t->members[0] : -1;
  f.team_stride = t->n_pes > 1 ? t->members[1] - t->members[0] : 0;
  for (int i = 2; i < t->n_pes; ++i)
    if (t->members[static_cast<std::size_t>(i)] - t->members[static_cast<std::size_t>(i) - 1] !=
        f.team_stride)
      f.team_stride = 0;
  f.team_call = t->observed_calls;
}

bool is_collective(Family f) noexcept { return f >= Family::barrier && f <= Family::scan; }

PeProfile snapshot(State &s) {
  PeProfile p;
  for (int f = 0; f < kFamilies; ++f) {
    p.families[f].calls = s.counts[f].calls.load(std::memory_order_relaxed);
    p.families[f].bytes = s.counts[f].bytes.load(std::memory_order_relaxed);
    p.families[f].ns = s.counts[f].ns.load(std::memory_order_relaxed);
  }
  std::lock_guard lock(s.algorithms_mutex);
  p.algorithms = s.algorithms;
  return p;
}

// Every PE hands its counters to PE 0 through the bootstrap's key-value store, which needs no
// symmetric memory and moves nothing through the library's own counted paths.
void report_profile(Runtime &rt, State &s) noexcept {
  try {
    const std::string key = "shoal.profile";
    const std::string text = serialize(snapshot(s));
    if (rt.bootstrap->put(key, text.data(), text.size()) != Status::ok) {
      SMA_LOG_ERROR("core", "SMA_PROFILE: pe {} could not publish its profile", rt.my_pe);
      return;
    }
    const Status fenced =
        rt.config.progress_thread
            ? rt.bootstrap->fence()
            : rt.bootstrap->fence_progressing(
                  [](void *w) { static_cast<ucx::UcxWorker *>(w)->progress(); }, &rt.worker);
    if (fenced != Status::ok || rt.my_pe != 0) return;
    std::vector<PeProfile> pes(static_cast<std::size_t>(rt.n_pes));
    for (int pe = 0; pe < rt.n_pes; ++pe) {
      std::vector<std::byte> bytes;
      if (rt.bootstrap->get(pe, key, bytes) != Status::ok ||
          !parse_profile(std::string(reinterpret_cast<const char *>(bytes.data()), bytes.size()),
                         pes[static_cast<std::size_t>(pe)])) {
        SMA_LOG_ERROR("core", "SMA_PROFILE: the profile of pe {} could not be read", pe);
        return;
      }
    }
    if (s.request.table) {
      const std::string table = format_table(pes);
      std::fflush(stdout);
      std::fputs(table.c_str(), stderr);
      std::fflush(stderr);
    }
    if (!s.request.json_path.empty()) {
      const std::string json = format_json(pes);
      std::FILE *out = std::fopen(s.request.json_path.c_str(), "w");
      bool written = out != nullptr && std::fputs(json.c_str(), out) >= 0;
      if (out != nullptr && std::fclose(out) != 0) written = false;
      if (!written)
        SMA_LOG_ERROR("core", "SMA_PROFILE: pe 0 cannot write the profile to {}: {}",
                      s.request.json_path, std::strerror(errno));
    }
  } catch (const std::exception &e) {
    SMA_LOG_ERROR("core", "SMA_PROFILE: pe {}: {}", rt.my_pe, e.what());
  }
}

}  // namespace

std::byte *area_of(const Runtime &rt, int pe) noexcept {
  if (rt.observe_area == nullptr) return nullptr;
  if (pe == rt.my_pe) return rt.observe_area;
  std::byte *heap = rt.peers[static_cast<std::size_t>(pe)].heap_mapped;
  if (heap == nullptr) return nullptr;
  return heap + (reinterpret_cast<std::uintptr_t>(rt.observe_area) - rt.heap_base);
}

bool enter(Family family, const char *routine, std::size_t bytes, const Detail &d) noexcept {
  ThreadCall &t = t_call;
  if (t.inside) return false;
  t.inside = true;
  t.family = family;
  t.bytes = bytes;
  const std::uint64_t now = now_ns();
  t.start_ns = now;
  // A collective's number among this PE's calls on its team (counted while observing).
  if (is_collective(family) && d.team != nullptr && team::is_live(d.team)) ++d.team->observed_calls;
  if (State *s = bound(); s != nullptr && s->publish) {
    publish(*s, [&](Fields &f) {
      f = Fields{};
      f.inside = 1;
      f.family = family;
      f.entered_ns = now;
      f.bytes = bytes;
      f.pe = d.pe;
      describe_team(d.team, f);
      f.addr = reinterpret_cast<std::uintptr_t>(d.addr);
      f.nvars = d.nvars;
      f.cmp = static_cast<std::uint8_t>(d.cmp);
      f.kind = d.kind;
      f.value_size = d.value_size;
      f.value = d.value;
      if (routine != nullptr) {
        const std::size_t n = strnlen(routine, sizeof f.routine - 1);
        std::memcpy(f.routine, routine, n);
        f.routine[n] = '\0';
      }
    });
  }
  return true;
}

bool enter_pe(Family family, const char *routine, std::size_t bytes, int pe) noexcept {
  Detail d;
  d.pe = pe;
  return enter(family, routine, bytes, d);
}

bool enter_team(Family family, const char *routine, std::size_t bytes, shoal_team *team) noexcept {
  Detail d;
  d.team = team;
  return enter(family, routine, bytes, d);
}

void leave() noexcept {
  ThreadCall &t = t_call;
  t.inside = false;
  State *s = bound();
  if (s == nullptr) return;  // the library stopped observing meanwhile
  if (g_profile) {
    State::Counts &c = s->counts[static_cast<int>(t.family)];
    c.calls.fetch_add(1, std::memory_order_relaxed);
    c.bytes.fetch_add(t.bytes, std::memory_order_relaxed);
    c.ns.fetch_add(now_ns() - t.start_ns, std::memory_order_relaxed);
  }
  if (s->publish) publish(*s, [](Fields &f) { f.inside = 0; });
}

void record_algorithm(const char *collective, const char *algorithm) noexcept {
  try {
    const ThreadCall &t = t_call;
    // Collectives the library runs for itself (shmem_malloc's barrier, a team split's
    // agreement, shmem_init's and shmem_finalize's barriers) are not the program's calls.
    if (!t.inside || !is_collective(t.family)) return;
    const std::string family = family_name(t.family);
    std::string label = algorithm;
    if (family != collective) label = std::string(collective) + ":" + algorithm;
    State *s = bound();
    if (s == nullptr) return;
    std::lock_guard lock(s->algorithms_mutex);
    ++s->algorithms[family][label];
  } catch (...) {  // a profile that misses a count is better than a job that ends
  }
}

bool read_record(const Record *r, Fields &out) noexcept {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const std::uint64_t before = __atomic_load_n(&r->seq, __ATOMIC_ACQUIRE);
    if (before % 2 == 0) {
      std::memcpy(&out, const_cast<const Fields *>(&r->fields), sizeof out);
      std::atomic_thread_fence(std::memory_order_acquire);
      if (__atomic_load_n(&r->seq, __ATOMIC_RELAXED) == before) return true;
    }
    const timespec pause{0, 1000};
    nanosleep(&pause, nullptr);
  }
  return false;
}

void start(Runtime &rt) noexcept {
  State &s = *bound();                                // a fresh State, bound by the library
  (void)parse_request(rt.config.profile, s.request);  // checked when the configuration was read
  s.record = reinterpret_cast<Record *>(rt.observe_area);
  s.publish = rt.config.hang_timeout > 0 && s.record != nullptr;
  g_profile = s.request.any();
  g_on = g_profile || s.publish;
  if (s.publish) hang::start_watchdog(rt, rt.config.hang_timeout);
}

void finish(Runtime &rt) noexcept {
  if (g_profile) report_profile(rt, *bound());
  hang::stop_watchdog();
  g_on = false;
  g_profile = false;
}

}  // namespace shoal::observe
