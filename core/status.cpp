#include "status.hpp"

#include <cxxabi.h>
#include <time.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <typeinfo>

#include "log/log.hpp"
#include "runtime.hpp"

namespace shoal {

const char *to_string(Status s) noexcept {
  switch (s) {
    case Status::ok:
      return "success";
    case Status::no_memory:
      return "out of memory";
    case Status::invalid_param:
      return "invalid parameter";
    case Status::not_supported:
      return "not supported";
    case Status::unreachable:
      return "unreachable";
    case Status::io_error:
      return "input/output error";
    case Status::already_exists:
      return "already exists";
    case Status::bootstrap_error:
      return "bootstrap (PMIx) error";
    case Status::transport_error:
      return "transport (UCX) error";
  }
  return "unknown status";
}

namespace {
// Outlives the library: a PE ending the job (fatal errors, shmem_global_exit) may be anywhere.
std::atomic<bool> g_job_ending{false};
// How long a PE that learnt another is ending the job waits for the launcher to end it.
constexpr int kJobEndWaitMs = 10'000;
}  // namespace

void note_job_ending() noexcept { g_job_ending.store(true, std::memory_order_relaxed); }
bool job_ending() noexcept { return g_job_ending.load(std::memory_order_relaxed); }

void fatal(const std::string &message) noexcept {
  if (job_ending())
    log::write(log::Level::debug, "after another PE began to end the job: ", "{}", message);
  else
    log::write_line(log::Level::error, message);
  end_job(message);
}

void end_job(const std::string &message) noexcept {
  set_last_error(message);
  std::fflush(stdout);
  // Another PE is ending the job and asked the launcher first: its status must be the job's,
  // not this PE's 1, which could reach the launcher sooner (mpirun takes the first abort it
  // hears of). Let the launcher end this PE too; abort only if it does not.
  if (job_ending()) {
    const timespec step{0, 50'000'000};  // 50 ms
    for (int waited = 0; waited < kJobEndWaitMs; waited += 50) nanosleep(&step, nullptr);
  }
  // PMIx_Abort asks the launcher to end every PE of the job with this status.
  if (g_runtime && g_runtime->bootstrap) g_runtime->bootstrap->abort(1, message.c_str());
  std::_Exit(1);
}

namespace {

// "std::bad_alloc" rather than "St9bad_alloc".
std::string demangled(const char *name) {
  int status = -1;
  std::unique_ptr<char, void (*)(void *)> text(abi::__cxa_demangle(name, nullptr, nullptr, &status),
                                               std::free);
  return status == 0 && text ? std::string(text.get()) : std::string(name);
}

std::string describe_current_exception() {
  const std::exception_ptr current = std::current_exception();
  if (!current) return "std::terminate was called without an active exception";
  const std::type_info *type = abi::__cxa_current_exception_type();
  const std::string type_name = type ? demangled(type->name()) : std::string("unknown type");
  try {
    std::rethrow_exception(current);
  } catch (const std::exception &e) {
    return "uncaught C++ exception " + type_name + ": " + e.what();
  } catch (...) {
  }
  return "uncaught C++ exception of type " + type_name;
}

[[noreturn]] void on_terminate() noexcept {
  std::string message;
  try {
    message = describe_current_exception();
  } catch (...) {
    message = "uncaught C++ exception (its description failed)";
  }
  const int pe = g_runtime ? g_runtime->my_pe : -1;
  fatal("pe " + (pe < 0 ? std::string("?") : std::to_string(pe)) + ": " + message +
        "; ending the job");
}

}  // namespace

void install_terminate_handler() noexcept {
  static std::once_flag once;
  std::call_once(once, [] { std::set_terminate(on_terminate); });
}

}  // namespace shoal
