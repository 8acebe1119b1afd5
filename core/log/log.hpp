// The library's logging. Messages are prefixed "[host:pid pe N] [subsystem]".
//
// Only log.cpp includes spdlog. A call site formats through fmt's type-erased arguments and
// calls one compiled function, so it instantiates no spdlog or fmt formatting code of its own:
// a file that logs compiles in a fraction of the time it took when every call site expanded
// spdlog's logger templates.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

namespace shoal::log {

enum class Level { trace, debug, info, warn, error };

void init(Level level);  // creates the "shoal" logger on stderr (not spdlog's default)
void set_pe(int pe);     // fills "pe N" in the prefix once the bootstrap knows it
bool enabled(Level level) noexcept;

// Writes one message at `level` (dropped below the level init set).
void write_line(Level level, std::string_view message) noexcept;
// Writes `prefix` followed by `format` filled in from `args`.
void vwrite(Level level, std::string_view prefix, fmt::string_view format,
            fmt::format_args args) noexcept;
template <typename... Args>
void write(Level level, std::string_view prefix, fmt::format_string<Args...> format,
           Args &&...args) noexcept {
  vwrite(level, prefix, format, fmt::make_format_args(args...));
}

// Logs "[subsystem] message" at error level and records message as the last error.
void report_error(std::string_view subsystem, const std::string &message) noexcept;

template <typename... Args>
void error(std::string_view subsystem, fmt::format_string<Args...> format,
           Args &&...args) noexcept {
  try {
    report_error(subsystem, fmt::vformat(format, fmt::make_format_args(args...)));
  } catch (...) {  // formatting ran out of memory: nothing to report with
  }
}

}  // namespace shoal::log

// The level test runs before the arguments are evaluated, so disabled logging costs a branch.
#define SMA_LOG(_lvl, _sub, ...)                                                  \
  do {                                                                            \
    if (::shoal::log::enabled(::shoal::log::Level::_lvl))                         \
      ::shoal::log::write(::shoal::log::Level::_lvl, "[" _sub "] ", __VA_ARGS__); \
  } while (0)
#define SMA_LOG_DEBUG(_sub, ...) SMA_LOG(debug, _sub, __VA_ARGS__)
#define SMA_LOG_INFO(_sub, ...) SMA_LOG(info, _sub, __VA_ARGS__)
#define SMA_LOG_WARN(_sub, ...) SMA_LOG(warn, _sub, __VA_ARGS__)
// An error the library reports and returns (fatal ones go through shoal::fatal): logged, and
// kept as this thread's last error (shmemx_last_error_string), so every routine that returns an
// error leaves its message there.
#define SMA_LOG_ERROR(_sub, ...) ::shoal::log::error("[" _sub "] ", __VA_ARGS__)
