// Target-side progress. Transports that emulate RMA or atomics in software (TCP between hosts,
// atomics on memory UCX did not allocate) complete an operation only when the *target*
// progresses its worker. Every PE therefore receives remote operations on a worker of its own
// that a background thread drives: it sleeps on the worker's event descriptor while nothing
// arrives, so it costs no CPU when idle, and a PE busy computing still serves its peers.
#pragma once

#include <thread>

#include "status.hpp"
#include "transport/ucx_worker.hpp"

namespace shoal::ucx {

class ProgressThread {
 public:
  ProgressThread() = default;
  ProgressThread(const ProgressThread &) = delete;
  ProgressThread &operator=(const ProgressThread &) = delete;
  ~ProgressThread() { stop(); }

  Status start(UcxWorker &worker);
  void stop() noexcept;

 private:
  void run() noexcept;

  UcxWorker *worker_ = nullptr;
  int wake_fd_ = -1;  // eventfd written by stop()
  std::thread thread_;
};

}  // namespace shoal::ucx
