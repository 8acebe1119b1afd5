// Helpers shared by the context, thread and progress tests (tests/ctx).
//
// Completion rule used throughout: an operation issued on a created context is completed only
// by shmem_ctx_quiet (or shmem_ctx_destroy) on *that* context. shmem_barrier_all is only
// relied on for the default context, so every test quiets its contexts explicitly before a
// barrier. SHMEM_CTX_NOSTORE only relaxes what a quiet does for the PE's *local* stores
// (specification: "not required to enforce completion and ordering of memory store
// operations"), so the tests never use a NOSTORE context to publish local stores.
#pragma once

#include "mpp_test.hpp"

#include <dirent.h>

#include <cctype>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace shoal::test::ctx {

struct OptionCase {
  long options;
  const char* name;
};

// Every combination of the three context options.
inline constexpr OptionCase kOptionCases[] = {
    {0, "0"},
    {SHMEM_CTX_SERIALIZED, "SERIALIZED"},
    {SHMEM_CTX_PRIVATE, "PRIVATE"},
    {SHMEM_CTX_NOSTORE, "NOSTORE"},
    {SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE, "SERIALIZED|NOSTORE"},
    {SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE, "PRIVATE|NOSTORE"},
    {SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE, "SERIALIZED|PRIVATE"},
    {SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE, "SERIALIZED|PRIVATE|NOSTORE"},
};
inline constexpr int kOptionCaseCount = sizeof(kOptionCases) / sizeof(kOptionCases[0]);

// A created context, destroyed when the object goes out of scope. Creation is local, so a
// test checks ok() on every PE with SHOAL_ASSERT_ALL_PES before using it.
class ScopedCtx {
 public:
  explicit ScopedCtx(long options) { rc_ = shmem_ctx_create(options, &ctx_); }
  ScopedCtx(shmem_team_t team, long options) { rc_ = shmem_team_create_ctx(team, options, &ctx_); }
  ~ScopedCtx() { reset(); }
  ScopedCtx(const ScopedCtx&) = delete;
  ScopedCtx& operator=(const ScopedCtx&) = delete;

  bool ok() const { return rc_ == 0 && ctx_ != SHMEM_CTX_INVALID; }
  int rc() const { return rc_; }
  shmem_ctx_t get() const { return ctx_; }
  operator shmem_ctx_t() const { return ctx_; }
  void reset() {
    if (rc_ == 0 && ctx_ != SHMEM_CTX_INVALID) shmem_ctx_destroy(ctx_);
    ctx_ = SHMEM_CTX_INVALID;
    rc_ = -1;
  }

 private:
  shmem_ctx_t ctx_ = SHMEM_CTX_INVALID;
  int rc_ = -1;
};

// Open file descriptors of this process (UCX workers own event fds, sockets and shared
// memory handles, so a context that is not released shows up here).
inline int open_fd_count() {
  DIR* d = opendir("/proc/self/fd");
  if (d == nullptr) return -1;
  int n = 0;
  while (readdir(d) != nullptr) ++n;
  closedir(d);
  return n;
}

// Memory mappings of this process (lines of /proc/self/maps). A UCX worker maps shared memory
// segments of its own and of the workers it is connected to; a context whose resources are
// kept after shmem_ctx_destroy, here or at a peer, shows up as mappings that stay.
inline int mapping_count() {
  FILE* f = std::fopen("/proc/self/maps", "r");
  if (f == nullptr) return -1;
  int n = 0;
  for (int c; (c = std::fgetc(f)) != EOF;)
    if (c == '\n') ++n;
  std::fclose(f);
  return n;
}

// A boolean knob of the library read the way its parse_bool does: unset (or unparsable)
// means the default.
inline bool env_flag(const char* name, bool fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr) return fallback;
  std::string s(v);
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "1" || s == "y" || s == "yes" || s == "true" || s == "on") return true;
  if (s == "0" || s == "n" || s == "no" || s == "false" || s == "off") return false;
  return fallback;
}
// Whether the library runs its progress thread (SMA_PROGRESS_THREAD, default on).
inline bool progress_thread_enabled() { return env_flag("SMA_PROGRESS_THREAD", true); }
// Whether on-node heaps are reached with loads and stores (SMA_SHARED_MEMORY, default on).
inline bool shared_memory_enabled() { return env_flag("SMA_SHARED_MEMORY", true); }

}  // namespace shoal::test::ctx
