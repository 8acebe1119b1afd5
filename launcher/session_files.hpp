// Files that belong to one oshrun job and must not outlive it: the private directory of the
// PMIx server, and the library's shared-memory segments in /dev/shm.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

namespace shoal::launcher {

// A fresh directory "oshrun.<pid>.XXXXXX" (mode 0700, from mkdtemp), removed with its whole
// content by remove() or the destructor. While it exists oshrun holds an flock() on it, which
// the kernel drops however oshrun dies: that is how a later oshrun tells the directory of a
// killed (SIGKILL) job from one in use (see sweep_stale_sessions).
class SessionDir {
 public:
  SessionDir() = default;
  ~SessionDir() { remove(); }
  SessionDir(const SessionDir &) = delete;
  SessionDir &operator=(const SessionDir &) = delete;

  // Under $TMPDIR, else /tmp: the PMIx server's files.
  bool create(std::string &error);
  // Under `base` only (e.g. /dev/shm, for UCX's shared-memory files).
  bool create_in(const std::string &base, std::string &error);
  const std::string &path() const { return path_; }
  const std::string &base() const { return base_; }  // the directory it was made in
  void remove();

 private:
  bool create_under(const std::vector<std::string> &bases, std::string &error);

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

// Unlinks every /dev/shm/shoal-<sanitized nspace>-* of this user (segments of PEs that died, or
// of PEs that never cleaned up); other users' files are left alone. Returns how many were
// removed.
int remove_shm_segments(const std::string &nspace);

// Removes the System V shared-memory segments that one of `creators` (the job's PEs, all gone)
// made and nobody has attached: UCX's sysv transport marks a segment for removal only after it
// attached it, so a PE killed in between leaves one behind. Returns how many were removed.
int remove_orphan_sysv_segments(const std::vector<pid_t> &creators);

}  // namespace shoal::launcher
