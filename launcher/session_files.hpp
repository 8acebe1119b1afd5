// Files that belong to one oshrun job and must not outlive it: the private directory of the
// PMIx server, and the library's shared-memory segments in /dev/shm.
#pragma once

#include <string>
#include <string_view>

namespace shoal::launcher {

// A fresh directory "oshrun.<pid>.XXXXXX" (mode 0700, from mkdtemp) under $TMPDIR, else /tmp;
// removed with its whole content by remove() or the destructor. While it exists oshrun holds
// an flock() on it, which the kernel drops however oshrun dies: that is how a later oshrun
// tells the directory of a killed (SIGKILL) job from one in use (see sweep_stale_sessions).
class SessionDir {
 public:
  SessionDir() = default;
  ~SessionDir() { remove(); }
  SessionDir(const SessionDir &) = delete;
  SessionDir &operator=(const SessionDir &) = delete;

  bool create(std::string &error);
  const std::string &path() const { return path_; }
  const std::string &base() const { return base_; }  // the directory it was made in
  void remove();

 private:
  std::string path_;
  std::string base_;
  int lock_fd_ = -1;
};

// Removes what jobs killed outright (no chance to clean up, e.g. by a test timeout) left:
// their unlocked session directories under `base` (ours, not modified in the last minute so
// that a directory being created is never taken for a stale one) and the /dev/shm segments of
// their namespaces, unless a live job uses the same pid.
void sweep_stale_sessions(const std::string &base);

// The library's rule for putting a namespace into a file name: every character outside
// [A-Za-z0-9._-] becomes '_'.
std::string sanitize_for_file_name(std::string_view name);

// Unlinks every /dev/shm/shoal-<sanitized nspace>-* (segments of PEs that died, or of PEs that
// never cleaned up). Returns how many were removed.
int remove_shm_segments(const std::string &nspace);

}  // namespace shoal::launcher
