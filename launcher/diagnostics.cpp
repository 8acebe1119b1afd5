#include "diagnostics.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace shoal::launcher {
namespace {
std::string g_program_name = "oshrun";
}

void set_program_name(std::string_view argv0) {
  const auto slash = argv0.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? argv0 : argv0.substr(slash + 1);
  // Only the two names we install under; anything else (a renamed copy, a libtool wrapper)
  // still reports as oshrun so that messages stay recognisable.
  g_program_name = base == "shmemrun" ? "shmemrun" : "oshrun";
}

const std::string &program_name() { return g_program_name; }

void diag(std::string_view text) {
  std::string line;
  line.reserve(g_program_name.size() + text.size() + 3);
  line.append(g_program_name).append(": ").append(text).push_back('\n');
  write_all(STDERR_FILENO, line);
}

bool write_all(int fd, const char *data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n > 0) {
      data += n;
      size -= static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      // Our stdout may be a non-blocking descriptor shared with someone else: wait for room.
      pollfd p{fd, POLLOUT, 0};
      ::poll(&p, 1, -1);
      continue;
    }
    return false;
  }
  return true;
}

}  // namespace shoal::launcher
