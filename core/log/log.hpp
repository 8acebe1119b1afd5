// The library's only doorway to spdlog. Messages are prefixed "[host:pid pe N] [subsystem]".
#pragma once

#include <spdlog/spdlog.h>

#include <string>
#include <string_view>
#include <utility>

namespace shoal::log {

enum class Level { trace, debug, info, warn, error };

void init(Level level);  // creates the "shoal" logger on stderr (not spdlog's default)
void set_pe(int pe);     // fills "pe N" in the prefix once the bootstrap knows it
spdlog::logger &logger() noexcept;
bool enabled(Level level) noexcept;

}  // namespace shoal::log

// The level test runs before the arguments are evaluated, so disabled logging costs a branch.
#define SMA_LOG(_lvl, _sub, ...)                                                     \
  do {                                                                               \
    if (::shoal::log::enabled(::shoal::log::Level::_lvl))                            \
      ::shoal::log::logger().log(::shoal::log::to_spdlog(::shoal::log::Level::_lvl), \
                                 "[" _sub "] " __VA_ARGS__);                         \
  } while (0)
#define SMA_LOG_DEBUG(_sub, ...) SMA_LOG(debug, _sub, __VA_ARGS__)
#define SMA_LOG_INFO(_sub, ...) SMA_LOG(info, _sub, __VA_ARGS__)
#define SMA_LOG_WARN(_sub, ...) SMA_LOG(warn, _sub, __VA_ARGS__)
// An error the library reports and returns (fatal ones go through shoal::fatal): logged, and
// kept as this thread's last error (shmemx_last_error_string), so every routine that returns an
// error leaves its message there.
#define SMA_LOG_ERROR(_sub, ...) ::shoal::log::error("[" _sub "] ", __VA_ARGS__)

namespace shoal::log {
constexpr spdlog::level::level_enum to_spdlog(Level l) {
  switch (l) {
    case Level::trace:
      return spdlog::level::trace;
    case Level::debug:
      return spdlog::level::debug;
    case Level::info:
      return spdlog::level::info;
    case Level::warn:
      return spdlog::level::warn;
    case Level::error:
      return spdlog::level::err;
  }
  return spdlog::level::err;
}
}  // namespace shoal::log

namespace shoal::log {
// Logs "[subsystem] message" at error level and records message as the last error.
void report_error(std::string_view subsystem, const std::string &message) noexcept;

template <typename... Args>
void error(std::string_view subsystem, fmt::format_string<Args...> format,
           Args &&...args) noexcept {
  try {
    report_error(subsystem, fmt::format(format, std::forward<Args>(args)...));
  } catch (...) {  // formatting ran out of memory: nothing to report with
  }
}
}  // namespace shoal::log
