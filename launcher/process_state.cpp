#include "process_state.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace shoal::launcher {

bool process_is_exiting(pid_t pid) noexcept {
  if (pid <= 0) return false;
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return true;  // already reaped
  char buf[1024];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return true;
  buf[n] = '\0';
  // "pid (comm) state ppid pgrp session tty_nr tpgid flags ..."; comm may contain anything,
  // so parse from the last ')'.
  const char *p = std::strrchr(buf, ')');
  if (!p) return false;
  char state = 0;
  unsigned flags = 0;
  if (std::sscanf(p + 1, " %c %*d %*d %*d %*d %*d %u", &state, &flags) != 2) return false;
  constexpr unsigned kPfExiting = 0x4;  // include/linux/sched.h
  return state == 'Z' || state == 'X' || state == 'x' || (flags & kPfExiting) != 0;
}

}  // namespace shoal::launcher
