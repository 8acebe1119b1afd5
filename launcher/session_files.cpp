#include "session_files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <set>
#include <vector>

namespace shoal::launcher {
namespace {

// PMIx puts Unix-domain sockets in this directory, and their paths must fit sun_path (108
// bytes including PMIx's own file names), so an overly long $TMPDIR is not used.
constexpr std::size_t kMaxBaseLength = 64;

// A stale directory must be at least this old, so a directory just made by mkdtemp (not yet
// locked) is never taken for one.
constexpr std::time_t kStaleAge = 60;

int remove_entry(const char *path, const struct stat *, int, struct FTW *) {
  ::remove(path);
  return 0;  // keep going: remove as much as possible
}

void remove_tree(const std::string &path) {
  // Depth-first, without following symlinks out of the directory.
  ::nftw(path.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

// The pid in a session directory name "oshrun.<pid>.XXXXXX", or -1.
long session_pid(const char *name) {
  if (std::strncmp(name, "oshrun.", 7) != 0) return -1;
  char *end = nullptr;
  const long pid = std::strtol(name + 7, &end, 10);
  return end != name + 7 && *end == '.' && pid > 0 ? pid : -1;
}

}  // namespace

bool SessionDir::create(std::string &error) {
  std::vector<std::string> bases;
  if (const char *t = std::getenv("TMPDIR"); t && *t && std::strlen(t) <= kMaxBaseLength)
    bases.emplace_back(t);
  bases.emplace_back("/tmp");
  int last_errno = 0;
  for (const std::string &base : bases) {
    std::string templ = base + (base.back() == '/' ? "" : "/") + "oshrun." +
                        std::to_string(::getpid()) + ".XXXXXX";
    if (::mkdtemp(templ.data())) {  // mkdtemp creates it with mode 0700
      path_ = templ;
      base_ = base;
      lock_fd_ = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (lock_fd_ >= 0) ::flock(lock_fd_, LOCK_EX | LOCK_NB);
      return true;
    }
    last_errno = errno;
  }
  error = std::string("cannot create a temporary directory: ") + std::strerror(last_errno);
  return false;
}

void SessionDir::remove() {
  if (path_.empty()) return;
  remove_tree(path_);
  path_.clear();
  if (lock_fd_ >= 0) ::close(lock_fd_);
  lock_fd_ = -1;
}

void sweep_stale_sessions(const std::string &base) {
  DIR *dir = ::opendir(base.c_str());
  if (!dir) return;
  std::set<long> stale, live;
  const std::time_t now = std::time(nullptr);
  while (const dirent *e = ::readdir(dir)) {
    const long pid = session_pid(e->d_name);
    if (pid < 0) continue;
    struct stat st {};
    if (::fstatat(::dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != ::geteuid())
      continue;
    const int fd = ::openat(::dirfd(dir), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    if (now - st.st_mtime < kStaleAge || ::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      live.insert(pid);  // in use, or too young to tell
    } else {
      remove_tree(base + "/" + e->d_name);
      stale.insert(pid);
    }
    ::close(fd);
  }
  ::closedir(dir);
  for (long pid : stale)
    if (!live.count(pid)) remove_shm_segments("oshrun-" + std::to_string(pid));
}

std::string sanitize_for_file_name(std::string_view name) {
  std::string out(name);
  for (char &c : out) {
    const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '_' || c == '-';
    if (!keep) c = '_';
  }
  return out;
}

int remove_shm_segments(const std::string &nspace) {
  const std::string prefix = "shoal-" + sanitize_for_file_name(nspace) + "-";
  DIR *dir = ::opendir("/dev/shm");
  if (!dir) return 0;
  std::vector<std::string> doomed;
  while (const dirent *e = ::readdir(dir))
    if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) == 0) doomed.emplace_back(e->d_name);
  ::closedir(dir);
  int removed = 0;
  for (const std::string &name : doomed)
    if (::unlink(("/dev/shm/" + name).c_str()) == 0) ++removed;
  return removed;
}

}  // namespace shoal::launcher
