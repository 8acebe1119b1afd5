// The PMIx client: rank, size and node layout from the standard PMIx keys, and the exchange of
// connection data through PMIx_Put / PMIx_Commit / PMIx_Fence / PMIx_Get.
#include <pmix.h>

#include <algorithm>
#include <cstring>
#include <sstream>

#include "bootstrap/bootstrap.hpp"
#include "log/log.hpp"

namespace shoal::boot {
namespace {

Status from_pmix(pmix_status_t rc, const char *what) {
  if (rc == PMIX_SUCCESS) return Status::ok;
  SMA_LOG_ERROR("boot", "{} failed: {}", what, PMIx_Error_string(rc));
  return Status::bootstrap_error;
}

class PmixBootstrap final : public Bootstrap {
 public:
  Status init() {
    if (Status s = from_pmix(PMIx_Init(&self_, nullptr, 0), "PMIx_Init"); s != Status::ok)
      return s;
    initialized_ = true;
    rank_ = static_cast<int>(self_.rank);
    job_name_ = sanitize_for_file_name(self_.nspace);

    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, self_.nspace, PMIX_RANK_WILDCARD);
    uint32_t job_size = 0;
    SMA_TRY(get_uint32(job, PMIX_JOB_SIZE, job_size));
    size_ = static_cast<int>(job_size);

    std::string peers;
    SMA_TRY(get_string(job, PMIX_LOCAL_PEERS, peers));
    local_peers_.clear();
    std::stringstream list(peers);
    for (std::string item; std::getline(list, item, ',');)
      if (!item.empty()) local_peers_.push_back(std::stoi(item));
    if (local_peers_.empty()) local_peers_.push_back(rank_);

    // The node of every PE: PMIX_NODEID where the server provides it, otherwise our local-peer
    // list (PEs not in it are treated as remote, which is always safe).
    node_of_.assign(size_, -1);
    for (int pe = 0; pe < size_; ++pe) {
      pmix_proc_t proc;
      PMIX_LOAD_PROCID(&proc, self_.nspace, static_cast<pmix_rank_t>(pe));
      uint32_t node = 0;
      if (get_uint32(proc, PMIX_NODEID, node, /*quiet=*/true) == Status::ok)
        node_of_[pe] = static_cast<int>(node);
    }
    const int my_node = node_of_[rank_];
    for (int pe = 0; pe < size_; ++pe) {
      const bool local = std::find(local_peers_.begin(), local_peers_.end(), pe) != local_peers_.end();
      if (my_node < 0 || node_of_[pe] < 0) node_of_[pe] = local ? 0 : 1 + pe;
      else if (local) node_of_[pe] = my_node;  // the local-peer list is authoritative
    }
    return Status::ok;
  }

  ~PmixBootstrap() override {
    if (initialized_) PMIx_Finalize(nullptr, 0);
  }

  Status put(std::string_view key, const void *data, std::size_t size) override {
    pmix_value_t value;
    PMIX_VALUE_CONSTRUCT(&value);
    value.type = PMIX_BYTE_OBJECT;
    value.data.bo.bytes = static_cast<char *>(const_cast<void *>(data));
    value.data.bo.size = size;
    const std::string k(key);
    // PMIx_Put copies the value; the caller's buffer stays theirs (so no destruct here).
    return from_pmix(PMIx_Put(PMIX_GLOBAL, k.c_str(), &value), "PMIx_Put");
  }

  Status fence() override {
    SMA_TRY(from_pmix(PMIx_Commit(), "PMIx_Commit"));
    pmix_info_t info;
    bool collect = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, self_.nspace, PMIX_RANK_WILDCARD);
    const Status s = from_pmix(PMIx_Fence(&all, 1, &info, 1), "PMIx_Fence");
    PMIX_INFO_DESTRUCT(&info);
    return s;
  }

  Status get(int pe, std::string_view key, std::vector<std::byte> &out) override {
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, self_.nspace, static_cast<pmix_rank_t>(pe));
    pmix_value_t *value = nullptr;
    const std::string k(key);
    SMA_TRY(from_pmix(PMIx_Get(&proc, k.c_str(), nullptr, 0, &value), "PMIx_Get"));
    Status s = Status::ok;
    if (value->type == PMIX_BYTE_OBJECT) {
      auto *bytes = reinterpret_cast<const std::byte *>(value->data.bo.bytes);
      out.assign(bytes, bytes + value->data.bo.size);
    } else {
      SMA_LOG_ERROR("boot", "PMIx key {} of pe {} has unexpected type {}", k, pe, value->type);
      s = Status::bootstrap_error;
    }
    PMIX_VALUE_RELEASE(value);
    return s;
  }

  void abort(int code, const char *message) noexcept override {
    PMIx_Abort(code, message ? message : "", nullptr, 0);
  }

  Status finalize() override {
    if (!initialized_) return Status::ok;
    initialized_ = false;
    return from_pmix(PMIx_Finalize(nullptr, 0), "PMIx_Finalize");
  }

 private:
  Status get_uint32(const pmix_proc_t &proc, const char *key, uint32_t &out, bool quiet = false) {
    pmix_value_t *value = nullptr;
    const pmix_status_t rc = PMIx_Get(&proc, key, nullptr, 0, &value);
    if (rc != PMIX_SUCCESS) return quiet ? Status::bootstrap_error : from_pmix(rc, key);
    Status s = Status::ok;
    switch (value->type) {
      case PMIX_UINT32: out = value->data.uint32; break;
      case PMIX_UINT16: out = value->data.uint16; break;
      case PMIX_INT: out = static_cast<uint32_t>(value->data.integer); break;
      case PMIX_UINT64: out = static_cast<uint32_t>(value->data.uint64); break;
      default: s = Status::bootstrap_error;
    }
    PMIX_VALUE_RELEASE(value);
    if (s != Status::ok && !quiet) SMA_LOG_ERROR("boot", "PMIx key {} has an unexpected type", key);
    return s;
  }

  Status get_string(const pmix_proc_t &proc, const char *key, std::string &out) {
    pmix_value_t *value = nullptr;
    SMA_TRY(from_pmix(PMIx_Get(&proc, key, nullptr, 0, &value), key));
    Status s = Status::ok;
    if (value->type == PMIX_STRING && value->data.string) out = value->data.string;
    else s = Status::bootstrap_error;
    PMIX_VALUE_RELEASE(value);
    return s;
  }

  pmix_proc_t self_{};
  bool initialized_ = false;
};

}  // namespace

std::unique_ptr<Bootstrap> make_pmix_bootstrap(Status &status) {
  auto boot = std::make_unique<PmixBootstrap>();
  status = boot->init();
  return boot;
}

}  // namespace shoal::boot
