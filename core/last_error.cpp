// The last error reported on each thread (shmemx_last_error_string), apart from status.cpp so
// that what logs errors (log/log.cpp) needs nothing else of the runtime.
#include <string>

#include "status.hpp"

namespace shoal {
namespace {
thread_local std::string t_last_error;
}

void set_last_error(const std::string &message) noexcept {
  try {
    t_last_error = message;
  } catch (...) {  // out of memory: the previous message stays
  }
}

const char *last_error() noexcept { return t_last_error.c_str(); }

}  // namespace shoal
