#include "session_files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/file.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
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
  return create_under(bases, error);
}

bool SessionDir::create_in(const std::string &base, std::string &error) {
  return create_under({base}, error);
}

bool SessionDir::create_under(const std::vector<std::string> &bases, std::string &error) {
  int last_errno = 0;
  for (const std::string &base : bases) {
    std::string templ =
        base + (base.back() == '/' ? "" : "/") + "oshrun." + std::to_string(::getpid()) + ".XXXXXX";
    if (::mkdtemp(templ.data())) {  // mkdtemp creates it with mode 0700
      path_ = templ;
      base_ = base;
      lock_fd_ = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (lock_fd_ >= 0) ::flock(lock_fd_, LOCK_EX | LOCK_NB);
      return true;
    }
    last_errno = errno;
  }
  error =
      "cannot create a temporary directory in " + bases.back() + ": " + std::strerror(last_errno);
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
    const int fd =
        ::openat(::dirfd(dir), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
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
  while (const dirent *e = ::readdir(dir)) {
    if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) != 0) continue;
    // Only our own files: a name taken by another user (which makes our PEs fail rather than
    // use it) is not ours to delete, even when oshrun runs as root.
    struct stat st {};
    if (::fstatat(::dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        st.st_uid == ::geteuid())
      doomed.emplace_back(e->d_name);
  }
  ::closedir(dir);
  int removed = 0;
  for (const std::string &name : doomed)
    if (::unlink(("/dev/shm/" + name).c_str()) == 0) ++removed;
  return removed;
}

int remove_orphan_sysv_segments(const std::vector<pid_t> &creators) {
  if (creators.empty()) return 0;
  std::ifstream table("/proc/sysvipc/shm");
  std::string line;
  if (!std::getline(table, line)) return 0;
  // Columns by name: the header gives their order.
  std::vector<std::string> names;
  std::istringstream header(line);
  for (std::string name; header >> name;) names.push_back(name);
  auto column = [&](const char *name) {
    const auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? -1 : static_cast<int>(it - names.begin());
  };
  const int id_col = column("shmid"), perms_col = column("perms"), cpid_col = column("cpid"),
            nattch_col = column("nattch"), uid_col = column("uid");
  if (id_col < 0 || perms_col < 0 || cpid_col < 0 || nattch_col < 0 || uid_col < 0) return 0;
  const std::set<pid_t> ours(creators.begin(), creators.end());
  int removed = 0;
  while (std::getline(table, line)) {
    std::istringstream row(line);
    std::vector<std::string> cell;
    for (std::string x; row >> x;) cell.push_back(x);
    if (cell.size() < names.size()) continue;
    std::vector<long long> v;
    for (std::size_t i = 0; i < cell.size(); ++i)  // perms is octal, everything else decimal
      v.push_back(
          std::strtoll(cell[i].c_str(), nullptr, static_cast<int>(i) == perms_col ? 8 : 10));
    const bool marked_for_removal = (v[perms_col] & SHM_DEST) != 0;
    if (ours.count(static_cast<pid_t>(v[cpid_col])) && v[nattch_col] == 0 && !marked_for_removal &&
        v[uid_col] == static_cast<long long>(::geteuid()) &&
        ::shmctl(static_cast<int>(v[id_col]), IPC_RMID, nullptr) == 0)
      ++removed;
  }
  return removed;
}

}  // namespace shoal::launcher
