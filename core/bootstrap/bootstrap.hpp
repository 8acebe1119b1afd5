// How a PE learns who it is and exchanges the few bytes needed to connect (worker addresses,
// memory keys): PMIx when a PMIx server started us, a single-process stand-in otherwise.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "status.hpp"

namespace shoal::boot {

class Bootstrap {
 public:
  virtual ~Bootstrap() = default;

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  // Ranks of the PEs on this node, in increasing order (this PE included).
  const std::vector<int> &local_peers() const noexcept { return local_peers_; }
  // Whether `pe` runs on this node (shares memory with this PE): it is in local_peers().
  bool on_this_node(int pe) const noexcept;
  // A name unique to this job on this machine, safe for file names ([A-Za-z0-9._-]).
  const std::string &job_name() const noexcept { return job_name_; }

  // Starts a session of the exchange below: one per shmem_init, on every PE in step. A key's
  // value is that of the current session; what a PE published in an earlier one is gone.
  void begin_session() noexcept { ++session_; }
  unsigned session() const noexcept { return session_; }

  // Publishes a value under key; visible to every PE after the next fence().
  virtual Status put(std::string_view key, const void *data, std::size_t size) = 0;
  // Commits what was put and waits for every PE to do the same.
  virtual Status fence() = 0;
  // A fence that calls `progress` until every PE has entered it: for the end of a job, when a
  // peer may still need this PE's UCX worker to complete what it closes (fence() would block
  // without serving it).
  virtual Status fence_progressing(void (*progress)(void *), void *arg) = 0;
  // Reads the value another PE published under key (after a fence).
  virtual Status get(int pe, std::string_view key, std::vector<std::byte> &out) = 0;
  // Ends the whole job with this exit code; the launcher ends every PE.
  virtual void abort(int code, const char *message) noexcept = 0;
  virtual Status finalize() = 0;

 protected:
  int rank_ = 0;
  int size_ = 1;
  std::vector<int> local_peers_{0};
  std::string job_name_;

 private:
  unsigned session_ = 0;
};

// PMIx when the environment says a PMIx server started this process, otherwise one PE alone.
// `collect_data`: whether a fence gathers every PE's published data at once (the PMIx
// server's full modex) or leaves each get to fetch it on demand (direct modex).
Status make_bootstrap(std::unique_ptr<Bootstrap> &out, bool collect_data);

std::unique_ptr<Bootstrap> make_pmix_bootstrap(bool collect_data, Status &status);
std::unique_ptr<Bootstrap> make_single_bootstrap();

// Keeps [A-Za-z0-9._-] and turns everything else into '_'.
std::string sanitize_for_file_name(std::string_view text);

}  // namespace shoal::boot
