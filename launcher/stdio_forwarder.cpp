#include "stdio_forwarder.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "diagnostics.hpp"

namespace shoal::launcher {
namespace {

constexpr std::size_t kChunk = 64 * 1024;
// A tagged line longer than this is emitted in pieces (tag on the first only) rather than
// buffered without bound.
constexpr std::size_t kMaxTaggedLine = 1024 * 1024;

bool make_pipe(int fds[2], std::string &error) {
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  return true;
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace

int open_dev_null() { return ::open("/dev/null", O_RDONLY | O_CLOEXEC); }

// ---------------------------------------------------------------- output

OutputForwarder::~OutputForwarder() {
  for (Stream &s : streams_)
    if (s.fd >= 0) ::close(s.fd);
}

bool OutputForwarder::add_pe(int rank, int &child_out, int &child_err, std::string &error) {
  int out[2], err[2];
  if (!make_pipe(out, error)) return false;
  if (!make_pipe(err, error)) {
    ::close(out[0]);
    ::close(out[1]);
    return false;
  }
  // Our ends never block: one slow PE must not stall the others or the signal handling.
  set_nonblocking(out[0]);
  set_nonblocking(err[0]);
  streams_.push_back({rank, out[0], STDOUT_FILENO, {}, false});
  streams_.push_back({rank, err[0], STDERR_FILENO, {}, false});
  child_out = out[1];
  child_err = err[1];
  return true;
}

std::size_t OutputForwarder::add_pollfds(std::vector<pollfd> &fds) const {
  std::size_t n = 0;
  for (const Stream &s : streams_)
    if (s.fd >= 0) {
      fds.push_back({s.fd, POLLIN, 0});
      ++n;
    }
  return n;
}

void OutputForwarder::handle(const std::vector<pollfd> &fds, std::size_t first, std::size_t count) {
  for (std::size_t i = first; i < first + count; ++i) {
    if (fds[i].revents == 0) continue;
    // Looked up by descriptor: a stream may have been drained and closed since poll().
    for (Stream &s : streams_)
      if (s.fd == fds[i].fd) {
        read_once(s);
        break;
      }
  }
}

void OutputForwarder::drain_available(int rank) {
  for (Stream &s : streams_)
    if (s.rank == rank)
      while (s.fd >= 0 && read_once(s) == ReadResult::data) {
      }
}

bool OutputForwarder::all_closed() const {
  for (const Stream &s : streams_)
    if (s.fd >= 0) return false;
  return true;
}

void OutputForwarder::finish() {
  for (Stream &s : streams_) {
    while (s.fd >= 0 && read_once(s) == ReadResult::data) {
    }
    if (s.fd >= 0) close_stream(s);
  }
}

OutputForwarder::ReadResult OutputForwarder::read_once(Stream &s) {
  char buf[kChunk];
  for (;;) {
    const ssize_t n = ::read(s.fd, buf, sizeof buf);
    if (n > 0) {
      forward(s, buf, static_cast<std::size_t>(n));
      return ReadResult::data;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return ReadResult::would_block;
    close_stream(s);  // EOF: every writer (the PE and anything it started) is gone
    return ReadResult::closed;
  }
}

void OutputForwarder::forward(Stream &s, const char *data, std::size_t size) {
  if (!tag_) {
    // Failure means our own stdout/stderr is gone; keep draining so the PEs never block.
    write_all(s.dest, data, size);
    return;
  }
  const std::string tag = "[PE " + std::to_string(s.rank) + "] ";
  s.partial.append(data, size);
  std::string out;
  std::size_t start = 0;
  for (std::size_t nl; (nl = s.partial.find('\n', start)) != std::string::npos; start = nl + 1) {
    if (!s.mid_line) out += tag;
    out.append(s.partial, start, nl + 1 - start);
    s.mid_line = false;
  }
  s.partial.erase(0, start);
  if (s.partial.size() > kMaxTaggedLine) {
    if (!s.mid_line) out += tag;
    out += s.partial;
    s.partial.clear();
    s.mid_line = true;
  }
  // Whole lines in one write, so lines of different PEs never mix.
  if (!out.empty()) write_all(s.dest, out);
}

void OutputForwarder::close_stream(Stream &s) {
  if (tag_ && (!s.partial.empty() || s.mid_line)) {
    std::string out = s.mid_line ? "" : "[PE " + std::to_string(s.rank) + "] ";
    out += s.partial;
    out += '\n';  // the next tagged line must start on a line of its own
    write_all(s.dest, out);
    s.partial.clear();
    s.mid_line = false;
  }
  ::close(s.fd);
  s.fd = -1;
}

// ---------------------------------------------------------------- input

StdinForwarder::~StdinForwarder() { close_target(); }

bool StdinForwarder::prepare(int &child_stdin, std::string &error) {
  bool forward = ::fcntl(STDIN_FILENO, F_GETFL) != -1;
  // A background job reading the terminal would be stopped (or get EIO): give PE 0 nothing
  // rather than fight the shell's job control.
  if (forward && ::isatty(STDIN_FILENO) && ::tcgetpgrp(STDIN_FILENO) != ::getpgrp())
    forward = false;
  if (!forward) {
    child_stdin = open_dev_null();
    if (child_stdin < 0) error = std::string("/dev/null: ") + std::strerror(errno);
    return child_stdin >= 0;
  }
  int fds[2];
  if (!make_pipe(fds, error)) return false;
  // Only our end is non-blocking; oshrun's own stdin is left alone, as its flags are shared
  // with whoever else holds it (the shell, for a terminal).
  set_nonblocking(fds[1]);
  source_ = STDIN_FILENO;
  target_ = fds[1];
  child_stdin = fds[0];
  return true;
}

std::size_t StdinForwarder::add_pollfds(std::vector<pollfd> &fds) const {
  if (target_ < 0) return 0;
  if (!pending_.empty()) {
    fds.push_back({target_, POLLOUT, 0});
    return 1;
  }
  if (source_ >= 0 && !eof_) {
    fds.push_back({source_, POLLIN, 0});
    return 1;
  }
  return 0;
}

void StdinForwarder::handle(const std::vector<pollfd> &fds, std::size_t first, std::size_t count) {
  for (std::size_t i = first; i < first + count; ++i) {
    if (fds[i].revents == 0 || target_ < 0) continue;
    if (fds[i].fd == source_ && pending_.empty()) read_source();
    flush();
  }
}

void StdinForwarder::read_source() {
  char buf[kChunk];
  ssize_t n;
  do n = ::read(source_, buf, sizeof buf);
  while (n < 0 && errno == EINTR);
  if (n > 0)
    pending_.assign(buf, static_cast<std::size_t>(n));
  else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
    eof_ = true;  // EOF, EIO, ...
}

void StdinForwarder::flush() {
  while (!pending_.empty() && target_ >= 0) {
    const ssize_t n = ::write(target_, pending_.data(), pending_.size());
    if (n > 0)
      pending_.erase(0, static_cast<std::size_t>(n));
    else if (n < 0 && errno == EINTR)
      continue;
    else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      return;
    else {
      stop();  // PE 0 closed its stdin or is gone
      return;
    }
  }
  // End of our input reaches PE 0 as end of its input.
  if (eof_ && pending_.empty()) stop();
}

void StdinForwarder::stop() {
  close_target();
  source_ = -1;
  pending_.clear();
  eof_ = true;
}

void StdinForwarder::close_target() {
  if (target_ >= 0) ::close(target_);
  target_ = -1;
}

}  // namespace shoal::launcher
