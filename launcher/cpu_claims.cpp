#include "cpu_claims.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace shoal::launcher {
namespace {

// A job's record: "shoal-cpus.<pid of oshrun>", the CPUs as "0,1,5\n".
constexpr std::string_view kRecordPrefix = "shoal-cpus.";

bool is_record(const char *name) {
  if (std::strncmp(name, kRecordPrefix.data(), kRecordPrefix.size()) != 0) return false;
  const char *digits = name + kRecordPrefix.size();
  if (*digits == '\0') return false;
  for (const char *c = digits; *c; ++c)
    if (*c < '0' || *c > '9') return false;
  return true;
}

// The CPUs a record lists; a damaged one lists what it can.
void read_cpus(int fd, std::set<int> &into) {
  char text[4096];
  const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
  if (n <= 0) return;
  text[n] = '\0';
  for (char *p = text; *p;) {
    char *end = nullptr;
    const long cpu = std::strtol(p, &end, 10);
    if (end == p) {
      ++p;
      continue;
    }
    if (cpu >= 0 && cpu < CPU_SETSIZE) into.insert(static_cast<int>(cpu));
    p = end;
  }
}

// Every oshrun of the machine holds an flock on the records' directory itself while it reads the
// records and writes its own (a lock file would be left behind in /dev/shm). Taken within
// kLockTries x kLockRetryUs, or -1: a directory that cannot be opened, or something else that holds
// it, must not keep a job from starting.
constexpr int kLockTries = 200;
constexpr useconds_t kLockRetryUs = 5'000;  // 1 s in all
int lock_directory(const std::string &dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return -1;
  for (int i = 0; i < kLockTries; ++i) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return fd;
    if (errno != EWOULDBLOCK && errno != EINTR) break;
    ::usleep(kLockRetryUs);
  }
  ::close(fd);
  return -1;
}

}  // namespace

std::vector<int> choose_cpus(const std::vector<int> &allowed, const std::set<int> &taken, int np,
                             bool must_bind) {
  std::vector<int> order;  // the free CPUs, then (for must_bind) the taken ones
  for (int cpu : allowed)
    if (!taken.count(cpu)) order.push_back(cpu);
  const std::size_t free = order.size();
  std::vector<int> cpus(static_cast<std::size_t>(np > 0 ? np : 0), -1);
  if (static_cast<std::size_t>(np) > free) {
    if (!must_bind) return cpus;
    for (int cpu : allowed)
      if (taken.count(cpu)) order.push_back(cpu);
  }
  if (order.empty()) return cpus;
  for (std::size_t k = 0; k < cpus.size(); ++k) cpus[k] = order[k % order.size()];
  return cpus;
}

std::vector<int> CpuClaim::claim(const std::vector<int> &allowed, int np, bool must_bind) {
  release();
  const int lock = lock_directory(dir_);
  if (lock < 0) return choose_cpus(allowed, {}, np, must_bind);
  const std::vector<int> cpus = choose_cpus(allowed, cpus_of_live_jobs(), np, must_bind);
  std::vector<int> bound;
  for (int cpu : cpus)
    if (cpu >= 0) bound.push_back(cpu);
  if (!bound.empty()) record(bound);
  ::close(lock);  // drops the flock
  return cpus;
}

std::set<int> CpuClaim::cpus_of_live_jobs() const {
  std::set<int> cpus;
  DIR *dir = ::opendir(dir_.c_str());
  if (!dir) return cpus;
  while (const dirent *e = ::readdir(dir)) {
    if (!is_record(e->d_name)) continue;
    const int fd = ::openat(::dirfd(dir), e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    if (::flock(fd, LOCK_SH | LOCK_NB) != 0) {
      read_cpus(fd, cpus);  // its job holds it: live
    } else {
      ::unlinkat(::dirfd(dir), e->d_name, 0);  // dead; another user's stays (sticky /dev/shm)
    }
    ::close(fd);
  }
  ::closedir(dir);
  return cpus;
}

bool CpuClaim::record(const std::vector<int> &cpus) {
  const std::string path = dir_ + "/" + std::string(kRecordPrefix) + std::to_string(::getpid());
  ::unlink(path.c_str());  // a dead job's with the same pid
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return false;
  ::fchmod(fd, 0644);  // readable by the other users' jobs
  std::string text;
  for (int cpu : cpus) text += (text.empty() ? "" : ",") + std::to_string(cpu);
  text += '\n';
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0 ||
      ::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    ::unlink(path.c_str());
    ::close(fd);
    return false;
  }
  path_ = path;
  fd_ = fd;
  return true;
}

void CpuClaim::release() {
  if (fd_ < 0) return;
  ::unlink(path_.c_str());
  ::close(fd_);
  fd_ = -1;
  path_.clear();
}

}  // namespace shoal::launcher
