// A program started without a launcher runs as one PE: the exchange is a local map.
#include <unistd.h>

#include <cstdlib>
#include <map>

#include "bootstrap/bootstrap.hpp"

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

Status make_bootstrap(std::unique_ptr<Bootstrap> &out) {
  // PMIx servers (ours, Open MPI's, PRRTE, Slurm) tell their clients the namespace through
  // this variable; without it there is no server to talk to and we run as a single PE.
  if (std::getenv("PMIX_NAMESPACE") == nullptr) {
    out = make_single_bootstrap();
    return Status::ok;
  }
  Status status = Status::ok;
  out = make_pmix_bootstrap(status);
  return status;
}

}  // namespace shoal::boot
