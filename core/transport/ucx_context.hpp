// The UCP context: transports chosen by UCX, and the memory regions it can reach remotely.
#pragma once

#include <ucp/api/ucp.h>

#include <cstddef>
#include <vector>

#include "status.hpp"

namespace shoal::ucx {

Status from_ucs(ucs_status_t status, const char *what) noexcept;

// A registered memory region and its packed remote key, ready to publish to other PEs.
struct MemRegion {
  ucp_mem_h handle = nullptr;
  std::vector<std::byte> packed_rkey;
};

class UcxContext {
 public:
  UcxContext() = default;
  UcxContext(const UcxContext &) = delete;
  UcxContext &operator=(const UcxContext &) = delete;
  ~UcxContext();

  // Unless the user chose transports with UCX_TLS:
  // - `one_node` (every peer is on this node): no network transport is needed, and UCX is
  //   limited to shared memory and loopback, so the job opens no listening socket on a network
  //   address;
  // - where the directory of UCX's posix shared-memory files (/dev/shm, or UCX_POSIX_DIR)
  //   cannot hold what `local_pes` PEs need (a container's 64 MiB /dev/shm), the System V
  //   transport replaces the posix one.
  Status init(int expected_peers, bool one_node = false, int local_pes = 1);
  Status map(void *base, std::size_t length, MemRegion &out);
  void unmap(MemRegion &region) noexcept;
  ucp_context_h handle() const noexcept { return context_; }

 private:
  ucp_context_h context_ = nullptr;
};

}  // namespace shoal::ucx
