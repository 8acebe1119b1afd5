#include "pmix_host.hpp"

#include <pmix.h>
#include <pmix_server.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "nspace_info.hpp"
#include "process_state.hpp"
#include "socket_owners.hpp"

namespace shoal::launcher {
namespace {

// The PMIx server library is a process-wide singleton, and its upcalls carry no pointer of
// ours, so they find the host through this.
std::atomic<PmixHost *> g_host{nullptr};

// Waits for a pmix_op_cbfunc_t. Heap-allocated so that a callback arriving after we gave up
// waiting (timeout) still has somewhere to write; in that case the object is leaked on purpose.
class OpWait {
 public:
  static void done(pmix_status_t status, void *self) noexcept {
    auto *w = static_cast<OpWait *>(self);
    std::lock_guard lock(w->mutex_);
    w->status_ = status;
    w->done_ = true;
    w->cv_.notify_all();
  }

  // `rc` is what the non-blocking PMIx call returned. Returns the operation's final status;
  // on timeout the object is abandoned (see above) and PMIX_ERR_TIMEOUT returned.
  static pmix_status_t finish(OpWait *w, pmix_status_t rc) {
    if (rc == PMIX_OPERATION_SUCCEEDED)
      rc = PMIX_SUCCESS;  // done inline, no callback
    else if (rc == PMIX_SUCCESS) {
      std::unique_lock lock(w->mutex_);
      if (!w->cv_.wait_for(lock, std::chrono::seconds(30), [w] { return w->done_; }))
        return PMIX_ERR_TIMEOUT;
      rc = w->status_;
    }
    delete w;
    return rc;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  pmix_status_t status_ = PMIX_SUCCESS;
};

bool check(pmix_status_t rc, const char *what, std::string &error) {
  if (rc == PMIX_SUCCESS || rc == PMIX_OPERATION_SUCCEEDED) return true;
  error = std::string(what) + " failed: " + PMIx_Error_string(rc);
  return false;
}

// ---- Upcalls. They run in PMIx's progress thread: record, release the caller, return. ----

PmixHost *host_for(const pmix_proc_t *proc) {
  PmixHost *h = g_host.load();
  return h && proc && h->owns(proc->nspace, proc->rank) ? h : nullptr;
}

void release(pmix_op_cbfunc_t cbfunc, void *cbdata) {
  if (cbfunc) cbfunc(PMIX_SUCCESS, cbdata);
}

pmix_status_t on_connected(const pmix_proc_t *proc, void *, pmix_op_cbfunc_t cbfunc,
                           void *cbdata) noexcept {
  if (PmixHost *h = host_for(proc)) {
    HostEvent e;
    e.kind = HostEvent::Kind::connected;
    e.rank = static_cast<int>(proc->rank);
    h->events().push(std::move(e));
  }
  release(cbfunc, cbdata);
  return PMIX_SUCCESS;
}

// PMIx calls this in its progress thread once a client's handshake is done, before it reads
// the client's first request. PMIx has checked the uid the client claims against the one we
// registered, but over TCP that claim is the client's word; the kernel knows who owns the
// sockets connected to us. Any other user's connection is shut down here, so the server never
// serves it a request (and PMIx's files, in our 0700 session directory, are closed to it too).
pmix_status_t on_connected2(const pmix_proc_t *proc, void *object, pmix_info_t *, size_t,
                            pmix_op_cbfunc_t cbfunc, void *cbdata) noexcept {
  // The handshake at hand may be a PE's while another user's connection is merely open, so
  // the PE's connection is recorded in any case (an intruder posing as a rank only records
  // what that rank's own connection will).
  shut_out_foreign_peers();
  return on_connected(proc, object, cbfunc, cbdata);
}

// PMIx calls this for PMIx_Finalize, and (depending on its version) also when it loses the
// connection to a client that did not finalize. Only the first means the PE finalized, and the
// two cannot be told apart from the arguments. A client in PMIx_Finalize is alive and blocked
// until we release it; a PE's connection is lost when the kernel closes its sockets as it
// exits. So the state of the process at this moment decides.
pmix_status_t on_finalized(const pmix_proc_t *proc, void *, pmix_op_cbfunc_t cbfunc,
                           void *cbdata) noexcept {
  if (PmixHost *h = host_for(proc)) {
    HostEvent e;
    e.kind = HostEvent::Kind::finalized;
    e.rank = static_cast<int>(proc->rank);
    e.process_exiting = process_is_exiting(h->pid_of(e.rank));
    h->events().push(std::move(e));
  }
  release(cbfunc, cbdata);
  return PMIX_SUCCESS;
}

pmix_status_t on_abort(const pmix_proc_t *proc, void *, int status, const char msg[], pmix_proc_t *,
                       size_t, pmix_op_cbfunc_t cbfunc, void *cbdata) noexcept {
  // Whatever the list of procs, an OpenSHMEM abort (shmem_global_exit or a fatal error) ends
  // the whole job, so the main thread ends every PE.
  if (PmixHost *h = host_for(proc)) {
    try {
      HostEvent e;
      e.kind = HostEvent::Kind::aborted;
      e.rank = static_cast<int>(proc->rank);
      e.status = status;
      if (msg) e.message = msg;
      h->events().push(std::move(e));
    } catch (...) {
    }
  }
  // The event is queued before the client is released, so the main thread learns of the abort
  // before it can see the aborting PE exit.
  release(cbfunc, cbdata);
  return PMIX_SUCCESS;
}

// Every PE is local, so the data PMIx gathered here is already everything: hand it back.
pmix_status_t on_fence(const pmix_proc_t *, size_t, const pmix_info_t *, size_t, char *data,
                       size_t ndata, pmix_modex_cbfunc_t cbfunc, void *cbdata) noexcept {
  if (cbfunc) cbfunc(PMIX_SUCCESS, data, ndata, cbdata, nullptr, nullptr);
  return PMIX_SUCCESS;
}

// Only asked for data of processes on other nodes, which a single-node job does not have.
pmix_status_t on_direct_modex(const pmix_proc_t *, const pmix_info_t *, size_t, pmix_modex_cbfunc_t,
                              void *) noexcept {
  return PMIX_ERR_NOT_SUPPORTED;
}

pmix_server_module_t make_module() {
  pmix_server_module_t m;
  std::memset(&m, 0, sizeof m);  // every upcall we do not provide is NULL: "not supported"
  m.client_connected = on_connected;
  m.client_connected2 = on_connected2;
  m.client_finalized = on_finalized;
  m.abort = on_abort;
  m.fence_nb = on_fence;
  m.direct_modex = on_direct_modex;
  return m;
}

pmix_server_module_t g_module = make_module();

}  // namespace

bool PmixHost::start(const std::string &tmpdir, std::string &error) {
  PmixHost *expected = nullptr;
  if (!g_host.compare_exchange_strong(expected, this)) {
    error = "PMIx server already started";
    return false;
  }
  // Both directories point into our private session directory so that every file PMIx creates
  // (rendezvous sockets, shared-memory stores) goes away with it.
  //
  // The job's data lives in PMIx's hash store (gds "hash") unless the user chose otherwise:
  // the default shared-memory stores (ds12, ds21) clear megabytes of new shared memory for
  // each job, a quarter of the CPU time of a 1-PE job from start to end and a tenth of a
  // 4-PE one's, for lookups that a job of one node's PEs does a handful of. Set here, before
  // PMIx reads its settings, it also reaches the PEs, whose environment passes PMIX_MCA_*
  // on (environment.cpp).
  ::setenv("PMIX_MCA_gds", "hash", /*overwrite=*/0);
  pmix_info_t info[2];
  PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, tmpdir.c_str(), PMIX_STRING);
  PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, tmpdir.c_str(), PMIX_STRING);
  const pmix_status_t rc = PMIx_server_init(&g_module, info, 2);
  PMIX_INFO_DESTRUCT(&info[0]);
  PMIX_INFO_DESTRUCT(&info[1]);
  if (!check(rc, "PMIx_server_init", error)) {
    g_host.store(nullptr);
    return false;
  }
  started_ = true;
  return true;
}

bool PmixHost::register_job(const std::string &nspace, int np, std::string &error) {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') std::strcpy(host, "localhost");
  InfoArray info;
  if (!build_nspace_info(nspace, np, host, info, error)) return false;

  nspace_ = nspace;
  np_ = np;
  pids_ = std::make_unique<std::atomic<pid_t>[]>(static_cast<std::size_t>(np));
  for (int r = 0; r < np; ++r) pids_[r].store(0);

  auto *w = new OpWait;
  pmix_status_t rc =
      PMIx_server_register_nspace(nspace.c_str(), np, info.data(), info.size(), OpWait::done, w);
  if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED)
    delete w;
  else
    rc = OpWait::finish(w, rc);  // `info` must stay alive until PMIx is done with it
  if (!check(rc, "PMIx_server_register_nspace", error)) return false;
  registered_ = true;
  return true;
}

bool PmixHost::register_client(int rank, std::string &error) {
  pmix_proc_t proc;
  PMIX_LOAD_PROCID(&proc, nspace_.c_str(), static_cast<pmix_rank_t>(rank));
  auto *w = new OpWait;
  // The PEs run as ourselves; PMIx checks a connecting client's credentials against these.
  pmix_status_t rc =
      PMIx_server_register_client(&proc, ::getuid(), ::getgid(), nullptr, OpWait::done, w);
  if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED)
    delete w;
  else
    rc = OpWait::finish(w, rc);
  return check(rc, "PMIx_server_register_client", error);
}

bool PmixHost::setup_fork(int rank, char **&env, std::string &error) {
  pmix_proc_t proc;
  PMIX_LOAD_PROCID(&proc, nspace_.c_str(), static_cast<pmix_rank_t>(rank));
  return check(PMIx_server_setup_fork(&proc, &env), "PMIx_server_setup_fork", error);
}

void PmixHost::set_pid(int rank, pid_t pid) {
  if (rank >= 0 && rank < np_) pids_[rank].store(pid);
}

bool PmixHost::owns(const char *nspace, unsigned rank) const {
  return rank < static_cast<unsigned>(np_) && nspace_ == nspace;
}

pid_t PmixHost::pid_of(int rank) const { return rank >= 0 && rank < np_ ? pids_[rank].load() : 0; }

void PmixHost::stop(bool clients_lost) {
  if (!started_) return;
  if (registered_) {
    // Also drops every client of the namespace.
    auto *w = new OpWait;
    PMIx_server_deregister_nspace(nspace_.c_str(), OpWait::done, w);
    OpWait::finish(w, PMIX_SUCCESS);
    registered_ = false;
  }
  // PMIx 4.2.2's PMIx_server_finalize sometimes crashes (it releases a corrupt object from one
  // of its server lists) after PEs died inside a PMIx_Fence, e.g. when a PE fails in shmem_init
  // while the others wait in its fence: about one such job in 20 under load, turning a clean
  // "PE 1 aborted the job" into a segfault of oshrun. oshrun exits right after stop(), and
  // everything the server made is in the session directory that oshrun removes itself, so in
  // that case the server is simply left to the kernel.
  if (!clients_lost) PMIx_server_finalize();
  started_ = false;
  g_host.store(nullptr);
}

}  // namespace shoal::launcher
