// Internal status codes and the fatal-error path shared by every part of the library.
#pragma once

#include <cstdint>
#include <string>

namespace shoal {

enum class Status : int8_t {
  ok = 0,
  no_memory = -1,
  invalid_param = -2,
  not_supported = -3,
  unreachable = -4,
  io_error = -5,
  already_exists = -6,  // a name that must be new was taken (UCS_ERR_ALREADY_EXISTS)
  bootstrap_error = -7,
  transport_error = -8,
};

const char *to_string(Status s) noexcept;

// The library's one error convention. A step that can fail returns a Failure: ok, or a Status
// with the words that say what failed, naming the PE, variable, size or routine involved. A
// caller that passes a failure up puts what it was doing in front (within()), so the first
// failure's words reach the user whole ("cannot start: cannot create the symmetric heap of
// ..."), and the step at the top reports it once (logged, and the last-error string). Status
// alone is the transport's return on paths that log their own reason where it happens
// (from_ucs); a C entry point returns what the specification says (0 or non-zero, NULL).
class [[nodiscard]] Failure {
 public:
  Failure() = default;  // success
  static Failure because(Status code, std::string why) {
    Failure f;
    f.code_ = code == Status::ok ? Status::invalid_param : code;
    f.why_ = std::move(why);
    return f;
  }
  bool ok() const noexcept { return code_ == Status::ok; }
  // True when failed: `if (Failure f = step()) return std::move(f).within("...");`
  explicit operator bool() const noexcept { return !ok(); }
  Status code() const noexcept { return code_; }
  const std::string &why() const noexcept { return why_; }
  // The same failure with `context` in front: "context: why".
  Failure within(const std::string &context) && {
    why_ = context + ": " + why_;
    return std::move(*this);
  }

 private:
  Status code_ = Status::ok;
  std::string why_;
};

// Reports an unrecoverable error ("[host:pid pe N] shoal error: ...") and ends the whole job
// through the bootstrap (PMIx_Abort), so the launcher stops every PE. Never returns. Once
// another PE announced that it is ending the job (job_ending()), the error is a consequence of
// that: it is logged at debug level only, and the PE waits (10 s at most) for the launcher to
// end it rather than abort the job with a status of its own.
[[noreturn]] void fatal(const std::string &message) noexcept;
// fatal() without the log line, for a caller that reported the error itself.
[[noreturn]] void end_job(const std::string &message) noexcept;

// Whether another PE said it is ending the job (it lost a peer and reported it, or called
// shmem_global_exit); set from a UCX message handler (ucx::UcxWorker::announce_job_end).
void note_job_ending() noexcept;
bool job_ending() noexcept;

// Makes std::terminate end the job through fatal(), naming the exception that caused it. Every
// C entry point is noexcept, so a C++ exception escaping the library (a bad_alloc inside a
// map, say) calls std::terminate: this turns it into a message and a job abort instead of a
// silent core dump on one PE while the others hang. Called by shmem_init; a handler the
// program installs later replaces it.
void install_terminate_handler() noexcept;

// The text of the last error reported on this thread (shmemx_last_error_string).
void set_last_error(const std::string &message) noexcept;
const char *last_error() noexcept;

}  // namespace shoal

#define SMA_TRY(_expr)                                          \
  do {                                                          \
    ::shoal::Status _sma_status = (_expr);                      \
    if (_sma_status != ::shoal::Status::ok) return _sma_status; \
  } while (0)
