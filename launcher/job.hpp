// One oshrun job from start to exit status: PMIx server up, PEs forked, then an event loop
// (signals, PMIx upcalls, PE output, stdin) until every PE is gone, then cleanup.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "options.hpp"

namespace shoal::launcher {

struct JobConfig {
  Options options;
  std::string program_path;              // resolved executable
  std::vector<std::string> environment;  // the PEs' base environment
  mode_t pe_umask = 022;                 // the caller's umask, given back to the PEs
};

// Runs the job and returns oshrun's exit status.
int run_job(const JobConfig &config);

}  // namespace shoal::launcher
