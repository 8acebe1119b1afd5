#include "status.hpp"

#include <cstdio>
#include <cstdlib>

#include "log/log.hpp"
#include "runtime.hpp"

namespace shoal {
namespace {
thread_local std::string t_last_error;
}

const char *to_string(Status s) noexcept {
  switch (s) {
    case Status::ok: return "success";
    case Status::no_memory: return "out of memory";
    case Status::invalid_param: return "invalid parameter";
    case Status::not_supported: return "not supported";
    case Status::unreachable: return "unreachable";
    case Status::io_error: return "input/output error";
    case Status::already_exists: return "already exists";
    case Status::bootstrap_error: return "bootstrap (PMIx) error";
    case Status::transport_error: return "transport (UCX) error";
  }
  return "unknown status";
}

void set_last_error(const std::string &message) noexcept {
  try {
    t_last_error = message;
  } catch (...) {
  }
}

const char *last_error() noexcept { return t_last_error.c_str(); }

void fatal(const std::string &message) noexcept {
  set_last_error(message);
  log::logger().error("{}", message);
  std::fflush(stdout);
  // PMIx_Abort asks the launcher to end every PE of the job with this status.
  if (g_runtime && g_runtime->bootstrap) g_runtime->bootstrap->abort(1, message.c_str());
  std::_Exit(1);
}

}  // namespace shoal
