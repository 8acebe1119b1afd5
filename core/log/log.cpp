#include "log/log.hpp"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <string>

#include "status.hpp"

namespace shoal::log {
namespace {

// The library's logger. Never destroyed: threads of the library (the progress thread of a PE
// that exits without shmem_finalize, the hang watchdog) and of the program may still log while
// exit() runs the static destructors, as Library and the watchdog are never destroyed either.
std::shared_ptr<spdlog::logger> &logger_slot() {
  static auto *const slot = new std::shared_ptr<spdlog::logger>;
  return *slot;
}
std::atomic<int> g_level{static_cast<int>(Level::warn)};

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

std::string prefix(int pe) {
  char host[256] = "?";
  gethostname(host, sizeof host - 1);
  std::string p = "[" + std::string(host) + ":" + std::to_string(getpid()) + " pe ";
  p += pe < 0 ? std::string("?") : std::to_string(pe);
  return p + "]";
}

void apply_pattern(int pe) {
  // spdlog patterns treat '%' specially; host names and numbers never contain it.
  logger_slot()->set_pattern(prefix(pe) + " %l: %v");
}

}  // namespace

void init(Level level) {
  std::shared_ptr<spdlog::logger> &logger = logger_slot();
  if (!logger) {
    // Our own logger object, never registered in spdlog's registry, so an application that
    // uses spdlog itself keeps its own default logger and settings.
    logger = std::make_shared<spdlog::logger>("shoal",
                                              std::make_shared<spdlog::sinks::stderr_sink_mt>());
    apply_pattern(-1);
  }
  g_level.store(static_cast<int>(level), std::memory_order_relaxed);
  logger->set_level(to_spdlog(level));
  logger->flush_on(spdlog::level::trace);
}

void set_pe(int pe) {
  if (logger_slot()) apply_pattern(pe);
}

void write_line(Level level, std::string_view message) noexcept {
  if (!logger_slot()) init(Level::warn);
  logger_slot()->log(to_spdlog(level), message);
}

void vwrite(Level level, std::string_view prefix, fmt::string_view format,
            fmt::format_args args) noexcept {
  try {
    fmt::memory_buffer line;
    line.append(prefix);
    fmt::vformat_to(fmt::appender(line), format, args);
    write_line(level, std::string_view(line.data(), line.size()));
  } catch (...) {  // formatting ran out of memory: nothing to write with
  }
}

void report_error(std::string_view subsystem, const std::string &message) noexcept {
  set_last_error(message);
  if (enabled(Level::error)) write(Level::error, subsystem, "{}", message);
}

bool enabled(Level level) noexcept {
  return static_cast<int>(level) >= g_level.load(std::memory_order_relaxed);
}

}  // namespace shoal::log
