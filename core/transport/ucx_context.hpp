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

  // `one_node`: every peer is on this node, so no network transport is needed. Then, unless
  // the user chose transports with UCX_TLS, UCX is limited to shared memory and loopback
  // ("self,sm"): a single-node job opens no listening socket on a network address.
  Status init(int expected_peers, bool one_node = false);
  Status map(void *base, std::size_t length, MemRegion &out);
  void unmap(MemRegion &region) noexcept;
  ucp_context_h handle() const noexcept { return context_; }

 private:
  ucp_context_h context_ = nullptr;
};

}  // namespace shoal::ucx
