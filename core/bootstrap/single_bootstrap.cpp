// A program started without a launcher runs as one PE: the exchange is a local map.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>

#include "bootstrap/bootstrap.hpp"
#include "bootstrap/launcher_env.hpp"
#include "log/log.hpp"

namespace shoal::boot {
namespace {

class SingleBootstrap final : public Bootstrap {
 public:
  SingleBootstrap() { job_name_ = "single-" + std::to_string(getpid()); }

  Status put(std::string_view key, const void *data, std::size_t size) override {
    auto *bytes = static_cast<const std::byte *>(data);
    values_[std::string(key)].assign(bytes, bytes + size);
    return Status::ok;
  }
  Status fence() override { return Status::ok; }
  Status fence_progressing(void (*)(void *), void *) override { return Status::ok; }
  Status get(int, std::string_view key, std::vector<std::byte> &out) override {
    auto it = values_.find(std::string(key));
    if (it == values_.end()) return Status::invalid_param;
    out = it->second;
    return Status::ok;
  }
  void abort(int code, const char *) noexcept override { std::_Exit(code); }
  Status finalize() override { return Status::ok; }

 private:
  std::map<std::string, std::vector<std::byte>> values_;
};

}  // namespace

std::unique_ptr<Bootstrap> make_single_bootstrap() { return std::make_unique<SingleBootstrap>(); }

std::string sanitize_for_file_name(std::string_view text) {
  std::string out(text);
  for (auto &c : out) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '_' || c == '-';
    if (!keep) c = '_';
  }
  return out;
}

bool Bootstrap::on_this_node(int pe) const noexcept {
  return std::binary_search(local_peers_.begin(), local_peers_.end(), pe);
}

Status make_bootstrap(std::unique_ptr<Bootstrap> &out, bool collect_data) {
  // PMIx servers (ours, Open MPI's, PRRTE, Slurm) tell their clients the namespace through
  // PMIX_NAMESPACE; without it there is no server to talk to and we run as a single PE, unless
  // a launcher without PMIx meant this process to be one of several.
  if (!pmix_server_present()) {
    if (const std::string job = non_pmix_job_of_several(); !job.empty()) {
      SMA_LOG_ERROR("boot",
                    "this process was started as one of several ({}), but not by a PMIx "
                    "server, which Shoal needs to find the other PEs: start it with oshrun, "
                    "Open MPI's mpirun, prterun or srun --mpi=pmix",
                    job);
      return Status::bootstrap_error;
    }
    out = make_single_bootstrap();
    return Status::ok;
  }
  Status status = Status::ok;
  out = make_pmix_bootstrap(collect_data, status);
  return status;
}

}  // namespace shoal::boot
