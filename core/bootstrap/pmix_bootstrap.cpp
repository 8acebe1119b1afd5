// The PMIx client: rank, size and the PEs of this node from the standard PMIx keys
// (PMIX_JOB_SIZE, PMIX_LOCAL_PEERS), and the exchange of connection data through PMIx_Put /
// PMIx_Commit / PMIx_Fence / PMIx_Get, with a full or a direct modex.
#include <pmix.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
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
  explicit PmixBootstrap(bool collect_data) : collect_data_(collect_data) {}

  Status init() {
    if (Status s = from_pmix(PMIx_Init(&self_, nullptr, 0), "PMIx_Init"); s != Status::ok) return s;
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
    SMA_TRY(parse_local_peers(peers));
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
    const std::string k = key_of_this_session(key);
    // PMIx_Put copies the value; the caller's buffer stays theirs (so no destruct here).
    return from_pmix(PMIx_Put(PMIX_GLOBAL, k.c_str(), &value), "PMIx_Put");
  }

  Status fence() override {
    SMA_TRY(from_pmix(PMIx_Commit(), "PMIx_Commit"));
    pmix_info_t info;
    // With collect_data_ false the fence only synchronizes, and each PMIx_Get asks the server
    // for that one PE's data (direct modex): cheaper for large jobs where a PE talks to few.
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect_data_, PMIX_BOOL);
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, self_.nspace, PMIX_RANK_WILDCARD);
    const Status s = from_pmix(PMIx_Fence(&all, 1, &info, 1), "PMIx_Fence");
    PMIX_INFO_DESTRUCT(&info);
    return s;
  }

  Status fence_progressing(void (*progress)(void *), void *arg) override {
    struct Outcome {
      std::atomic<bool> done{false};
      pmix_status_t status = PMIX_SUCCESS;
    } outcome;
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, self_.nspace, PMIX_RANK_WILDCARD);
    auto on_done = [](pmix_status_t status, void *cbdata) {
      auto *o = static_cast<Outcome *>(cbdata);
      o->status = status;
      o->done.store(true, std::memory_order_release);
    };
    SMA_TRY(from_pmix(PMIx_Fence_nb(&all, 1, nullptr, 0, on_done, &outcome), "PMIx_Fence_nb"));
    while (!outcome.done.load(std::memory_order_acquire)) {
      progress(arg);
      sched_yield();  // PMIx's own thread delivers the callback; leave it the core
    }
    return from_pmix(outcome.status, "PMIx_Fence_nb");
  }

  Status get(int pe, std::string_view key, std::vector<std::byte> &out) override {
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, self_.nspace, static_cast<pmix_rank_t>(pe));
    pmix_value_t *value = nullptr;
    const std::string k = key_of_this_session(key);
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
  // The PMIx key under which this session exchanges `key`. PMIx stays initialized from one
  // shmem_init to the next, and its stores keep what a PE put before: the hash store
  // (PMIX_MCA_gds=hash) hands that old value to a get, even after the PE put a new one.
  std::string key_of_this_session(std::string_view key) const {
    return std::string(key) + "@" + std::to_string(session());
  }

  // PMIX_LOCAL_PEERS: the comma-separated ranks of this node's PEs. It decides which PEs share
  // memory, so it is checked: ranks of this job, and this PE among them.
  Status parse_local_peers(const std::string &text) {
    local_peers_.clear();
    std::stringstream list(text);
    for (std::string item; std::getline(list, item, ',');) {
      if (item.empty()) continue;
      char *end = nullptr;
      const long pe = std::strtol(item.c_str(), &end, 10);
      if (*end != '\0' || pe < 0 || pe >= size_) {
        SMA_LOG_ERROR("boot",
                      "PMIx gave PMIX_LOCAL_PEERS \"{}\", whose entry \"{}\" is not a "
                      "rank of this job of {} PEs",
                      text, item, size_);
        return Status::bootstrap_error;
      }
      local_peers_.push_back(static_cast<int>(pe));
    }
    std::sort(local_peers_.begin(), local_peers_.end());
    local_peers_.erase(std::unique(local_peers_.begin(), local_peers_.end()), local_peers_.end());
    if (!std::binary_search(local_peers_.begin(), local_peers_.end(), rank_)) {
      SMA_LOG_ERROR("boot",
                    "PMIx gave PMIX_LOCAL_PEERS \"{}\", which does not contain this PE "
                    "(rank {}): the launcher's view of this node is wrong",
                    text, rank_);
      return Status::bootstrap_error;
    }
    return Status::ok;
  }

  Status get_uint32(const pmix_proc_t &proc, const char *key, uint32_t &out) {
    pmix_value_t *value = nullptr;
    const pmix_status_t rc = PMIx_Get(&proc, key, nullptr, 0, &value);
    if (rc != PMIX_SUCCESS) return from_pmix(rc, key);
    Status s = Status::ok;
    switch (value->type) {
      case PMIX_UINT32:
        out = value->data.uint32;
        break;
      case PMIX_UINT16:
        out = value->data.uint16;
        break;
      case PMIX_INT:
        out = static_cast<uint32_t>(value->data.integer);
        break;
      case PMIX_UINT64:
        out = static_cast<uint32_t>(value->data.uint64);
        break;
      default:
        s = Status::bootstrap_error;
    }
    PMIX_VALUE_RELEASE(value);
    if (s != Status::ok) SMA_LOG_ERROR("boot", "PMIx key {} has an unexpected type", key);
    return s;
  }

  Status get_string(const pmix_proc_t &proc, const char *key, std::string &out) {
    pmix_value_t *value = nullptr;
    SMA_TRY(from_pmix(PMIx_Get(&proc, key, nullptr, 0, &value), key));
    Status s = Status::ok;
    if (value->type == PMIX_STRING && value->data.string)
      out = value->data.string;
    else
      s = Status::bootstrap_error;
    PMIX_VALUE_RELEASE(value);
    return s;
  }

  pmix_proc_t self_{};
  bool initialized_ = false;
  bool collect_data_ = true;
};

}  // namespace

std::unique_ptr<Bootstrap> make_pmix_bootstrap(bool collect_data, Status &status) {
  auto boot = std::make_unique<PmixBootstrap>(collect_data);
  status = boot->init();
  return boot;
}

}  // namespace shoal::boot
