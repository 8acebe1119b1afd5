// Finding the program before anything is forked, the way execvp would, so that a typo gives
// one clear message and a shell-like exit status instead of N failing PEs.
#pragma once

#include <cerrno>
#include <string>

namespace shoal::launcher {

struct ProgramLookup {
  std::string path;  // what to pass to execve when error == 0
  int error = 0;     // errno-style reason it cannot run: ENOENT, EACCES, EISDIR, ...

  // Shell conventions: 127 "not found", 126 "found but cannot be executed".
  int exit_status() const { return error == ENOENT || error == ENOTDIR ? 127 : 126; }
};

// `name` containing a slash is used as is; otherwise each directory of `path_env` (PATH of the
// PEs' environment; the system default when unset) is searched in order. Like execvp, a
// candidate that exists but is not executable is skipped, and EACCES is reported only when no
// executable candidate was found at all.
ProgramLookup lookup_program(const std::string &name, const char *path_env);

}  // namespace shoal::launcher
