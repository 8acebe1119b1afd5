// oshrun / shmemrun: starts the PEs of an OpenSHMEM job on this node, acting as their PMIx
// server. See options.cpp for the command line and job.cpp for the life of a job.
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <exception>

#include "diagnostics.hpp"
#include "environment.hpp"
#include "job.hpp"
#include "options.hpp"
#include "program_lookup.hpp"

using namespace shoal::launcher;

namespace {

// With one of 0, 1, 2 closed, the next pipe or /dev/null we open would take its number and be
// mistaken for a standard stream (ours or, after dup2, a PE's).
void ensure_standard_fds() {
  for (int fd = 0; fd <= 2; ++fd)
    if (::fcntl(fd, F_GETFD) == -1) {
      const int null_fd = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
      if (null_fd >= 0 && null_fd != fd) {
        ::dup2(null_fd, fd);
        ::close(null_fd);
      }
    }
}

int run(int argc, char **argv) {
  const ParseResult parsed = parse_options(argc, argv);
  switch (parsed.action) {
    case ParseAction::help: write_all(STDOUT_FILENO, usage_text()); return 0;
    case ParseAction::version: write_all(STDOUT_FILENO, version_text()); return 0;
    case ParseAction::usage_error:
      diag(parsed.error);
      write_all(STDERR_FILENO, usage_text());
      return 2;
    case ParseAction::run: break;
  }

  JobConfig config;
  config.options = parsed.options;
  config.environment = build_pe_environment(config.options.exports);

  // Checked once, here, before any PE exists: a typo gives one message, not N failing PEs.
  const std::string &program = config.options.program.front();
  const ProgramLookup found =
      lookup_program(program, find_variable(config.environment, "PATH"));
  if (found.error != 0) {
    diag("cannot run '" + program + "': " + std::strerror(found.error));
    return found.exit_status();
  }
  config.program_path = found.path;
  return run_job(config);
}

}  // namespace

int main(int argc, char **argv) {
  set_program_name(argc > 0 ? argv[0] : "oshrun");
  ensure_standard_fds();
  try {
    return run(argc, argv);
  } catch (const std::exception &e) {
    diag(std::string("fatal: ") + e.what());
  } catch (...) {
    diag("fatal: unknown error");
  }
  return 1;
}
