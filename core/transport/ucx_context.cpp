#include "transport/ucx_context.hpp"

#include <sys/statvfs.h>

#include <algorithm>
#include <cstdlib>

#include "log/log.hpp"
#include "transport/tcp_segments.hpp"

namespace shoal::ucx {

Status from_ucs(ucs_status_t status, const char *what) noexcept {
  if (status == UCS_OK) return Status::ok;
  SMA_LOG_ERROR("ucx", "{} failed: {}", what, ucs_status_string(status));
  return status == UCS_ERR_NO_MEMORY ? Status::no_memory : Status::transport_error;
}

namespace {

// UCX's posix transport keeps its shared memory in files of /dev/shm (or UCX_POSIX_DIR), about
// 8 MiB per worker: a PE has two, and one more per context. Below this much free space per PE
// of the node, the System V transport (the same shared-memory transport, memory not counted
// against /dev/shm) takes its place.
constexpr std::size_t kPosixBytesPerPe = std::size_t{32} << 20;

bool posix_files_would_not_fit(int local_pes) {
  const char *dir = std::getenv("UCX_POSIX_DIR");
  if (dir == nullptr || *dir == '\0') dir = "/dev/shm";
  struct statvfs fs {};
  if (statvfs(dir, &fs) != 0) return false;  // UCX reports what it finds there
  const std::size_t free_bytes = static_cast<std::size_t>(fs.f_bavail) * fs.f_frsize;
  const std::size_t needed = static_cast<std::size_t>(std::max(local_pes, 1)) * kPosixBytesPerPe;
  if (free_bytes >= needed) return false;
  SMA_LOG_DEBUG("ucx",
                "{} has {} bytes free, less than {} for {} PEs: UCX's posix transport is "
                "left out for sysv",
                dir, free_bytes, needed, local_pes);
  return true;
}

// The transports UCX may use when UCX_TLS is not set, or null for all of them. The one-node set
// carries everything the library uses (RMA, AMOs, active messages, wake-up).
const char *transports(bool one_node, int local_pes) {
  const bool small_shm = posix_files_would_not_fit(local_pes);
  if (one_node) return small_shm ? "self,sysv,cma" : "self,sm";
  return small_shm ? "^posix" : nullptr;
}

// Larger pieces for UCX's TCP transport (transport/tcp_segments.hpp), unless the user sized
// either buffer or UCX will not open TCP (a setting no transport takes draws a warning).
void set_tcp_segments(ucp_config_t *config, const char *tls) {
  if (std::getenv("UCX_TCP_TX_SEG_SIZE") != nullptr ||
      std::getenv("UCX_TCP_RX_SEG_SIZE") != nullptr ||
      !ucx_opens_tcp(tls, std::getenv("UCX_NET_DEVICES"), network_interface_usable))
    return;
  for (const UcxSetting &setting : kTcpSegmentSettings) {
    if (ucp_config_modify(config, setting.name, setting.value) != UCS_OK) {
      SMA_LOG_DEBUG("ucx", "UCX does not take {}: its TCP buffers stay as they are", setting.name);
      return;
    }
  }
  SMA_LOG_DEBUG("ucx", "UCX_TCP_TX_SEG_SIZE and UCX_TCP_RX_SEG_SIZE: {}",
                kTcpSegmentSettings[0].value);
}

}  // namespace

Status UcxContext::init(int expected_peers, bool one_node, int local_pes) {
  ucp_config_t *config = nullptr;
  SMA_TRY(from_ucs(ucp_config_read(nullptr, nullptr, &config), "ucp_config_read"));
  // Without a one-node set, UCX also brings up its TCP transport, which listens on every
  // network address of the machine although no peer will ever connect to it.
  const char *user_tls = std::getenv("UCX_TLS");
  const char *tls = user_tls != nullptr ? user_tls : transports(one_node, local_pes);
  if (user_tls == nullptr && tls != nullptr) {
    const ucs_status_t rc = ucp_config_modify(config, "TLS", tls);
    if (rc != UCS_OK) {
      ucp_config_release(config);
      return from_ucs(rc, "ucp_config_modify(TLS)");
    }
    SMA_LOG_DEBUG("ucx", "UCX_TLS={} ({} of {} PEs on this node)", tls, local_pes, expected_peers);
  }
  set_tcp_segments(config, tls);
  // UCX's shared-memory transport fills a pool of 512 receive buffers of 8 KiB per interface
  // (two per worker) when it starts: 17 MiB of zeroes written per PE, most of the kernel time
  // of its start, for a transport the library uses only where loads and stores cannot reach
  // (SMA_SHARED_MEMORY=0, a peer's private globals). Grown 64 at a time, as it needs them.
  if (std::getenv("UCX_MM_RX_BUFS_GROW") == nullptr &&
      ucp_config_modify(config, "MM_RX_BUFS_GROW", "64") != UCS_OK)
    SMA_LOG_DEBUG("ucx", "UCX does not take MM_RX_BUFS_GROW: its default pool stays");
  ucp_params_t params{};
  params.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_ESTIMATED_NUM_EPS |
                      UCP_PARAM_FIELD_MT_WORKERS_SHARED;
  params.features =
      UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 | UCP_FEATURE_AM | UCP_FEATURE_WAKEUP;
  params.estimated_num_eps = static_cast<size_t>(expected_peers);
  // Workers of this context run on different threads (the progress thread's, contexts of
  // other threads), so the context's shared resources need their lock.
  params.mt_workers_shared = 1;
  const ucs_status_t rc = ucp_init(&params, config, &context_);
  ucp_config_release(config);
  return from_ucs(rc, "ucp_init");
}

UcxContext::~UcxContext() {
  if (context_) ucp_cleanup(context_);
}

Status UcxContext::map(void *base, std::size_t length, MemRegion &out) {
  ucp_mem_map_params_t params{};
  params.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH;
  params.address = base;
  params.length = length;
  SMA_TRY(from_ucs(ucp_mem_map(context_, &params, &out.handle), "ucp_mem_map"));
  void *packed = nullptr;
  size_t packed_size = 0;
  if (Status s =
          from_ucs(ucp_rkey_pack(context_, out.handle, &packed, &packed_size), "ucp_rkey_pack");
      s != Status::ok) {
    unmap(out);
    return s;
  }
  auto *bytes = static_cast<const std::byte *>(packed);
  out.packed_rkey.assign(bytes, bytes + packed_size);
  ucp_rkey_buffer_release(packed);
  return Status::ok;
}

void UcxContext::unmap(MemRegion &region) noexcept {
  if (region.handle) {
    if (ucs_status_t rc = ucp_mem_unmap(context_, region.handle); rc != UCS_OK)
      SMA_LOG_WARN("ucx", "ucp_mem_unmap failed: {}", ucs_status_string(rc));
    region.handle = nullptr;
  }
}

}  // namespace shoal::ucx
