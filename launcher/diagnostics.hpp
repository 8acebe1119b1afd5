// How oshrun talks to the user: one-line diagnostics on stderr and loss-free writes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace shoal::launcher {

// The name used as the prefix of every diagnostic ("oshrun" or "shmemrun").
void set_program_name(std::string_view argv0);
const std::string &program_name();

// Writes "<program>: <text>\n" to stderr with a single write, so that lines from oshrun and
// forwarded PE output do not interleave within a line.
void diag(std::string_view text);

// Writes all of `data` to `fd`, retrying on EINTR and waiting with poll() when the descriptor
// is non-blocking and full. Returns false when the reader is gone (EPIPE) or on another error;
// the caller then drops the data, as there is nobody left to deliver it to.
bool write_all(int fd, const char *data, std::size_t size);
inline bool write_all(int fd, std::string_view s) { return write_all(fd, s.data(), s.size()); }

}  // namespace shoal::launcher
