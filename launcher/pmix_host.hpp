// oshrun's side of PMIx: the server library, the job's namespace and clients, and the upcalls
// through which PMIx tells us what the PEs do (connect, finalize, abort, fence).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <memory>
#include <string>

#include "event_queue.hpp"

namespace shoal::launcher {

class PmixHost {
 public:
  explicit PmixHost(EventQueue &events) : events_(events) {}
  ~PmixHost() { stop(); }
  PmixHost(const PmixHost &) = delete;
  PmixHost &operator=(const PmixHost &) = delete;

  // PMIx_server_init with its rendezvous files under `tmpdir`. Only one PmixHost may be started
  // per process (the PMIx server library is a singleton).
  bool start(const std::string &tmpdir, std::string &error);
  // Registers namespace `nspace` with `np` PEs on this node; `np` clients may then be added.
  bool register_job(const std::string &nspace, int np, std::string &error);
  bool register_client(int rank, std::string &error);
  // Adds the PMIx variables of PE `rank` to `env`, a malloc'ed NULL-terminated array that PMIx
  // may reallocate.
  bool setup_fork(int rank, char **&env, std::string &error);
  // Records the pid of PE `rank`; must happen before the PE can run (see process_group.hpp).
  void set_pid(int rank, pid_t pid);

  // Deregisters the namespace and finalizes the server; idempotent. `clients_lost`: some PE
  // ended without PMIx_Finalize (it died, was killed or aborted), perhaps inside a fence; the
  // server is then not finalized (see pmix_host.cpp) and oshrun must exit soon after.
  void stop(bool clients_lost = false);

  // Upcall plumbing (used by the C callbacks in pmix_host.cpp only).
  bool owns(const char *nspace, unsigned rank) const;
  pid_t pid_of(int rank) const;
  EventQueue &events() { return events_; }

 private:
  EventQueue &events_;
  std::string nspace_;
  int np_ = 0;
  std::unique_ptr<std::atomic<pid_t>[]> pids_;
  bool started_ = false;
  bool registered_ = false;
};

}  // namespace shoal::launcher
