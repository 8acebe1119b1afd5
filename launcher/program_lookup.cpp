#include "program_lookup.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace shoal::launcher {
namespace {

// 0 when `path` is an executable regular file, otherwise the errno execve would (roughly) give.
int check_candidate(const std::string &path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return errno;
  if (S_ISDIR(st.st_mode)) return EISDIR;
  if (::access(path.c_str(), X_OK) != 0) return errno;
  // root passes access(X_OK) for any file with one x bit, like execve; a file without any x
  // bit fails above even for root.
  return 0;
}

std::string default_path() {
  const size_t n = ::confstr(_CS_PATH, nullptr, 0);
  if (n == 0) return "/bin:/usr/bin";
  std::string s(n, '\0');
  ::confstr(_CS_PATH, s.data(), n);
  s.resize(n - 1);
  return s;
}

}  // namespace

ProgramLookup lookup_program(const std::string &name, const char *path_env) {
  ProgramLookup r;
  if (name.empty()) {
    r.error = ENOENT;
    return r;
  }
  if (name.find('/') != std::string::npos) {
    r.path = name;
    r.error = check_candidate(name);
    return r;
  }
  const std::string search = path_env ? std::string(path_env) : default_path();
  bool saw_denied = false;
  std::size_t start = 0;
  while (start <= search.size()) {
    std::size_t end = search.find(':', start);
    if (end == std::string::npos) end = search.size();
    // An empty PATH element means the current directory.
    const std::string dir = end > start ? search.substr(start, end - start) : std::string(".");
    const std::string candidate = dir + "/" + name;
    const int err = check_candidate(candidate);
    if (err == 0) {
      r.path = candidate;
      return r;
    }
    if (err == EACCES || err == EISDIR) saw_denied = true;
    start = end + 1;
  }
  r.error = saw_denied ? EACCES : ENOENT;
  return r;
}

}  // namespace shoal::launcher
