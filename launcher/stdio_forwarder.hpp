// The PEs' standard streams. Output: one pipe per PE and stream, copied to oshrun's stdout or
// stderr, either as it comes or line by line with a "[PE n] " tag. Input: oshrun's stdin is
// copied to PE 0; the other PEs read /dev/null.
#pragma once

#include <poll.h>

#include <string>
#include <vector>

namespace shoal::launcher {

class OutputForwarder {
 public:
  explicit OutputForwarder(bool tag_output) : tag_(tag_output) {}
  ~OutputForwarder();
  OutputForwarder(const OutputForwarder &) = delete;
  OutputForwarder &operator=(const OutputForwarder &) = delete;

  // Creates the pipes of PE `rank`; `child_out` / `child_err` are the write ends for the PE,
  // to be closed by the caller once the PE is forked.
  bool add_pe(int rank, int &child_out, int &child_err, std::string &error);

  // Poll set: append our open descriptors (returns how many), then handle their results.
  std::size_t add_pollfds(std::vector<pollfd> &fds) const;
  void handle(const std::vector<pollfd> &fds, std::size_t first, std::size_t count);

  // Copies whatever PE `rank` has written so far, without waiting (used when it exits, so its
  // last words come before oshrun's report about it).
  void drain_available(int rank);

  bool all_closed() const;
  // Final drain without waiting, then closes everything; a tagged partial last line is
  // completed with a newline.
  void finish();

 private:
  struct Stream {
    int rank;
    int fd;                 // read end; -1 once closed
    int dest;               // STDOUT_FILENO or STDERR_FILENO
    std::string partial;    // tagged mode: bytes after the last newline
    bool mid_line = false;  // tagged mode: a long partial line was already emitted (tag sent)
  };
  enum class ReadResult { data, would_block, closed };
  ReadResult read_once(Stream &s);
  void forward(Stream &s, const char *data, std::size_t size);
  void close_stream(Stream &s);

  bool tag_;
  std::vector<Stream> streams_;
};

class StdinForwarder {
 public:
  StdinForwarder() = default;
  ~StdinForwarder();
  StdinForwarder(const StdinForwarder &) = delete;
  StdinForwarder &operator=(const StdinForwarder &) = delete;

  // Decides whether oshrun's stdin is forwarded and returns the descriptor PE 0 should get as
  // its stdin (a pipe, or /dev/null), to be closed by the caller once PE 0 is forked.
  bool prepare(int &child_stdin, std::string &error);

  std::size_t add_pollfds(std::vector<pollfd> &fds) const;
  void handle(const std::vector<pollfd> &fds, std::size_t first, std::size_t count);

  // PE 0 is gone: stop reading our stdin and drop what was not delivered.
  void stop();

 private:
  void read_source();
  void flush();
  void close_target();

  int source_ = -1;  // oshrun's stdin while it is being read
  int target_ = -1;  // write end of PE 0's stdin pipe (non-blocking)
  bool eof_ = false;
  std::string pending_;  // read from stdin, not yet written to PE 0
};

// /dev/null for reading, close-on-exec; -1 on failure.
int open_dev_null();

}  // namespace shoal::launcher
