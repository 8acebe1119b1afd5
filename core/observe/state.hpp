// The observation's process state, all of it in one observe::State: what SMA_PROFILE asked for,
// the counters, the algorithms that ran and this PE's hang-report record. One State lives from
// shmem_init to shmem_finalize, owned by the library (api/library.cpp), which binds it for
// observe::start and unbinds it after observe::finish. The two flags the entry points branch on
// (g_on, g_profile, observe.hpp) stay plain globals: one PC-relative load on every call.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "observe/observe.hpp"
#include "observe/profile_request.hpp"
#include "observe/record.hpp"

namespace shoal::observe {

struct State {
  struct Counts {
    std::atomic<std::uint64_t> calls{0}, bytes{0}, ns{0};
  };
  ProfileRequest request;
  Counts counts[kFamilies];
  std::mutex algorithms_mutex;
  std::map<std::string, std::map<std::string, std::uint64_t>> algorithms;
  // Whether calls are published in this PE's record (hang reports on).
  bool publish = false;
  Record *record = nullptr;
  // Writers of the record: the threads of this PE (THREAD_MULTIPLE), one at a time.
  std::atomic_flag record_lock = ATOMIC_FLAG_INIT;
};

namespace detail {
inline State *g_bound = nullptr;  // null before start and after stop
}  // namespace detail

// The owner's call (api/library.cpp): bind before start(), unbind (null) after finish().
inline void bind_state(State *s) noexcept { detail::g_bound = s; }

}  // namespace shoal::observe
