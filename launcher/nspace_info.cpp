#include "nspace_info.hpp"

#include <pmix.h>
#include <pmix_server.h>

#include <cstdlib>
#include <memory>

namespace shoal::launcher {
namespace {

// RAII for a PMIx_Info_list_start() handle.
struct InfoList {
  void *handle = PMIx_Info_list_start();
  ~InfoList() { PMIx_Info_list_release(handle); }
  InfoList() = default;
  InfoList(const InfoList &) = delete;
  InfoList &operator=(const InfoList &) = delete;
};

struct FreeDeleter {
  void operator()(char *p) const { std::free(p); }
};
using CString = std::unique_ptr<char, FreeDeleter>;

class Builder {
 public:
  Builder(void *list, std::string &error) : list_(list), error_(error) {}

  bool ok() const { return ok_; }

  void add(const char *key, const void *value, pmix_data_type_t type) {
    if (!ok_) return;
    if (const pmix_status_t rc = PMIx_Info_list_add(list_, key, value, type); rc != PMIX_SUCCESS)
      fail(key, rc);
  }
  void u32(const char *key, uint32_t v) { add(key, &v, PMIX_UINT32); }
  void u16(const char *key, uint16_t v) { add(key, &v, PMIX_UINT16); }
  void rank(const char *key, pmix_rank_t v) { add(key, &v, PMIX_PROC_RANK); }
  void str(const char *key, const std::string &v) { add(key, v.c_str(), PMIX_STRING); }

  void fail(const char *what, pmix_status_t rc) {
    if (!ok_) return;
    ok_ = false;
    error_ = std::string(what) + ": " + PMIx_Error_string(rc);
  }

 private:
  void *list_;
  std::string &error_;
  bool ok_ = true;
};

std::string rank_list(int np) {
  std::string s;
  for (int r = 0; r < np; ++r) {
    if (r) s.push_back(',');
    s += std::to_string(r);
  }
  return s;
}

}  // namespace

InfoArray::~InfoArray() {
  if (array_.array) PMIx_Data_array_destruct(&array_);
}

bool build_nspace_info(const std::string &nspace, int np, const std::string &hostname,
                       InfoArray &out, std::string &error) {
  InfoList job;
  Builder b(job.handle, error);
  const auto n = static_cast<uint32_t>(np);
  const std::string peers = rank_list(np);

  // Sizes: one job, one app, one node, every PE local.
  b.u32(PMIX_UNIV_SIZE, n);
  b.u32(PMIX_JOB_SIZE, n);
  b.u32(PMIX_MAX_PROCS, n);
  b.u32(PMIX_LOCAL_SIZE, n);
  b.u32(PMIX_NODE_SIZE, n);
  b.u32(PMIX_JOB_NUM_APPS, 1);
  b.u32(PMIX_NUM_NODES, 1);
  b.str(PMIX_LOCAL_PEERS, peers);
  b.str(PMIX_JOBID, nspace);
  b.str(PMIX_HOSTNAME, hostname);
  b.str(PMIX_NODE_LIST, hostname);
  b.u32(PMIX_NODEID, 0);
  b.u32(PMIX_APPNUM, 0);
  b.rank(PMIX_NPROC_OFFSET, 0);
  b.rank(PMIX_LOCALLDR, 0);
  b.rank(PMIX_APPLDR, 0);

  // Node and proc maps in PMIx's own compressed form; PMIX_REGEX lets PMIx copy whichever
  // representation ("pmix:" text or a "blob:") its generator chose.
  char *raw = nullptr;
  if (const pmix_status_t rc = PMIx_generate_regex(hostname.c_str(), &raw); rc != PMIX_SUCCESS)
    b.fail("PMIx_generate_regex", rc);
  const CString node_map(raw);
  raw = nullptr;
  if (const pmix_status_t rc = PMIx_generate_ppn(peers.c_str(), &raw); rc != PMIX_SUCCESS)
    b.fail("PMIx_generate_ppn", rc);
  const CString proc_map(raw);
  if (node_map) b.add(PMIX_NODE_MAP, node_map.get(), PMIX_REGEX);
  if (proc_map) b.add(PMIX_PROC_MAP, proc_map.get(), PMIX_REGEX);

  // Per-PE data. PMIx requires PMIX_RANK to be the first entry of each array.
  for (int r = 0; r < np && b.ok(); ++r) {
    InfoList proc;
    Builder p(proc.handle, error);
    const auto rank = static_cast<pmix_rank_t>(r);
    p.rank(PMIX_RANK, rank);
    p.u16(PMIX_LOCAL_RANK, static_cast<uint16_t>(r));
    p.u16(PMIX_NODE_RANK, static_cast<uint16_t>(r));
    p.rank(PMIX_GLOBAL_RANK, rank);
    p.rank(PMIX_APP_RANK, rank);
    p.u32(PMIX_APPNUM, 0);
    p.str(PMIX_HOSTNAME, hostname);
    p.u32(PMIX_NODEID, 0);
    if (!p.ok()) return false;
    InfoArray array;
    if (const pmix_status_t rc = PMIx_Info_list_convert(proc.handle, array.raw());
        rc != PMIX_SUCCESS) {
      b.fail("PMIx_Info_list_convert", rc);
      break;
    }
    b.add(PMIX_PROC_DATA, array.raw(), PMIX_DATA_ARRAY);  // deep copy
  }
  if (!b.ok()) return false;
  if (const pmix_status_t rc = PMIx_Info_list_convert(job.handle, out.raw()); rc != PMIX_SUCCESS) {
    b.fail("PMIx_Info_list_convert", rc);
    return false;
  }
  return true;
}

}  // namespace shoal::launcher
