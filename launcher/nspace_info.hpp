// The job description a PMIx server hands to its clients: the standard job-level keys and one
// PMIX_PROC_DATA array per PE, for a job whose PEs all run on this node.
#pragma once

#include <pmix_common.h>

#include <string>

namespace shoal::launcher {

// Owns a pmix_info_t array built with the PMIx_Info_list API (released with PMIx's own
// destructor, since PMIx allocated every value inside it).
class InfoArray {
 public:
  InfoArray() = default;
  ~InfoArray();
  InfoArray(const InfoArray &) = delete;
  InfoArray &operator=(const InfoArray &) = delete;

  pmix_info_t *data() { return static_cast<pmix_info_t *>(array_.array); }
  std::size_t size() const { return array_.size; }
  pmix_data_array_t *raw() { return &array_; }

 private:
  pmix_data_array_t array_{PMIX_UNDEF, 0, nullptr};
};

// Fills `out` for namespace `nspace` with `np` PEs on host `hostname`. False (with `error`) when
// PMIx refuses a value.
bool build_nspace_info(const std::string &nspace, int np, const std::string &hostname,
                       InfoArray &out, std::string &error);

}  // namespace shoal::launcher
