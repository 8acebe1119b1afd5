#include "environment.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

#include "diagnostics.hpp"

extern char **environ;

namespace shoal::launcher {
namespace {

std::string name_of(const std::string &entry) { return entry.substr(0, entry.find('=')); }

// PMIX_* variables describe a PMIx client's identity and server (PMIX_NAMESPACE, PMIX_RANK,
// PMIX_SERVER_URI*, PMIX_GDS_MODULE, ...) when oshrun itself runs inside another PMIx job.
// PMIX_MCA_* (user settings for the PMIx library) and PMIX_INSTALL_PREFIX (relocation) are
// the user's and stay.
bool inherited_pmix_identity(const std::string &name) {
  return name.rfind("PMIX_", 0) == 0 && name.rfind("PMIX_MCA_", 0) != 0 &&
         name != "PMIX_INSTALL_PREFIX";
}

void set_entry(std::vector<std::string> &env, const std::string &entry) {
  const std::string name = name_of(entry);
  for (std::string &e : env)
    if (name_of(e) == name) {
      e = entry;
      return;
    }
  env.push_back(entry);
}

}  // namespace

std::vector<std::string> build_pe_environment(const std::vector<std::string> &exports) {
  std::vector<std::string> resolved;
  for (const std::string &x : exports) {
    if (x.find('=') != std::string::npos) {
      resolved.push_back(x);
    } else if (const char *v = std::getenv(x.c_str())) {
      resolved.push_back(x + "=" + v);
    } else {
      diag("warning: -x " + x + ": " + x + " is not set; not passed to the PEs");
    }
  }

  std::vector<std::string> doomed;
  for (char **e = environ; e && *e; ++e) {
    const std::string name = name_of(*e);
    if (inherited_pmix_identity(name)) doomed.push_back(name);
  }
  for (const std::string &name : doomed) ::unsetenv(name.c_str());

  std::vector<std::string> env;
  for (char **e = environ; e && *e; ++e) env.emplace_back(*e);
  for (const std::string &entry : resolved) set_entry(env, entry);
  return env;
}

const char *find_variable(const std::vector<std::string> &env, const std::string &name) {
  for (const std::string &e : env)
    if (e.size() > name.size() && e[name.size()] == '=' && e.compare(0, name.size(), name) == 0)
      return e.c_str() + name.size() + 1;
  return nullptr;
}

CEnvironment::CEnvironment(const std::vector<std::string> &env) {
  env_ = static_cast<char **>(std::calloc(env.size() + 1, sizeof(char *)));
  if (!env_) throw std::bad_alloc();
  for (std::size_t i = 0; i < env.size(); ++i)
    if (!(env_[i] = ::strdup(env[i].c_str()))) {
      release();  // the array is NULL-terminated at every step (calloc)
      throw std::bad_alloc();
    }
}

CEnvironment::~CEnvironment() { release(); }

void CEnvironment::release() {
  if (!env_) return;
  for (char **e = env_; *e; ++e) std::free(*e);
  std::free(env_);
  env_ = nullptr;
}

}  // namespace shoal::launcher
