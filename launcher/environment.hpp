// The environment the PEs start with: oshrun's own, minus what a PMIx server of our own
// caller may have left in it, plus the -x variables. PMIx_server_setup_fork adds each PE's
// PMIx variables on top.
#pragma once

#include <string>
#include <vector>

namespace shoal::launcher {

// Resolves the -x arguments against oshrun's environment as it was at start ("VAR" takes the
// current value; an unset VAR is reported and skipped), then removes inherited PMIx client
// variables from oshrun's own environment (so that neither our PMIx server nor the PEs mistake
// an enclosing job's identity or server address for ours), and returns the PEs' base
// environment as "NAME=value" strings.
std::vector<std::string> build_pe_environment(const std::vector<std::string> &exports);

// Value of NAME in an environment built above, or nullptr.
const char *find_variable(const std::vector<std::string> &env, const std::string &name);

// A malloc'ed, NULL-terminated copy of an environment, as PMIx_server_setup_fork wants it (it
// may realloc the array and append malloc'ed strings).
class CEnvironment {
 public:
  explicit CEnvironment(const std::vector<std::string> &env);
  ~CEnvironment();
  CEnvironment(const CEnvironment &) = delete;
  CEnvironment &operator=(const CEnvironment &) = delete;

  char **&get() { return env_; }

 private:
  void release();
  char **env_ = nullptr;
};

}  // namespace shoal::launcher
