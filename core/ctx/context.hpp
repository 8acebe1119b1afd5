// struct shoal_ctx is what the public shmem_ctx_t points to. SHMEM_CTX_DEFAULT is the address of
// shoal_ctx_default, whose worker is the runtime's own.
#pragma once

#include <atomic>

#include "transport/ucx_worker.hpp"

struct shoal_ctx {
  shoal::ucx::UcxWorker *worker = nullptr;  // set by shmem_init, cleared by shmem_finalize
  // Set before an operation is handed to UCX, cleared by quiet: a quiet with nothing handed to
  // UCX since the last one (on-node traffic only) skips the flush.
  std::atomic<bool> ucx_pending{false};
  long options = 0;
};

extern "C" {
__attribute__((visibility("default"))) extern shoal_ctx shoal_ctx_default;
}
