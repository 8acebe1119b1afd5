// Command-line parsing for oshrun / shmemrun.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace shoal::launcher {

struct Options {
  int np = 1;
  // -x arguments in the order given: "VAR" (export oshrun's current value) or "VAR=value".
  std::vector<std::string> exports;
  bool tag_output = false;
  // --bind-to: core binds PE k to the k-th CPU oshrun may use (round robin); none leaves the
  // scheduler free; automatic binds when there are at least as many CPUs as PEs.
  enum class Binding { automatic, core, none } bind_to = Binding::automatic;
  // The program and its arguments; never empty after a successful parse.
  std::vector<std::string> program;
};

enum class ParseAction { run, help, version, usage_error };

struct ParseResult {
  ParseAction action = ParseAction::run;
  Options options;
  std::string error;  // set for usage_error
};

ParseResult parse_options(int argc, char **argv);

std::string usage_text();
std::string version_text();

}  // namespace shoal::launcher
