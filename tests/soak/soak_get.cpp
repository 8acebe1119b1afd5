// Gets of 1 byte to 64 KiB at odd offsets from every PE (self included): blocking, nbi, typed,
// sized and single-element forms, on the default or a created context, from the heap or from
// static memory, into private memory or into this PE's own symmetric heap. Each landing buffer
// is checked byte for byte, guards around it included.
#include <shmem.h>

#include "soak_check.hpp"
#include "soak_components.hpp"
#include "soak_rma_api.hpp"
#include "soak_world.hpp"

namespace soak {
namespace {

constexpr int kOps = 6;
constexpr std::size_t kMaxLen = 64 * 1024;
constexpr std::size_t kRegion = kMaxLen + 64;        // source region of each PE
constexpr std::size_t kGuard = 24;                   // bytes checked around each landing
alignas(64) unsigned char g_static_source[kRegion];  // symmetric: in .bss on every PE

enum Method {
  getmem,
  ctx_getmem,
  typed,
  sized,
  single,
  getmem_nbi,
  ctx_getmem_nbi,
  typed_nbi,
  kMethods
};
const char* const kMethodNames[] = {"shmem_getmem",         "shmem_ctx_getmem", "typed get",
                                    "shmem_getN",           "typed g",          "shmem_getmem_nbi",
                                    "shmem_ctx_getmem_nbi", "typed get_nbi"};

// What the watchdog names if an operation hangs (string literals).
const char* const kMethodKinds[] = {"get.getmem",         "get.ctx_getmem", "get.typed",
                                    "get.sized",          "get.typed_g",    "get.getmem_nbi",
                                    "get.ctx_getmem_nbi", "get.typed_nbi"};

struct GetOp {
  int target;
  Method method;
  std::size_t elem, off, len, misalign;
  bool symmetric_landing;
  std::uint8_t* landing;  // buffer of len + 2 * kGuard + misalign bytes
};

class GetComponent final : public Component {
 public:
  GetComponent()
      : heap_source_(static_cast<std::uint8_t*>(shmem_align(64, kRegion))),
        landing_(static_cast<std::uint8_t*>(shmem_align(64, kOps * (kRegion + 2 * kGuard + 16)))) {}

  const char* name() const override { return "get"; }

  void prepare() override {
    Rng r = shared_rng("get");
    static const std::size_t kClasses[] = {64, 1024, 8192, kMaxLen};
    max_len_ = kClasses[r.weighted({35, 30, 20, 15})];
    from_static_ = r.percent(25);
    Pattern(source_key(g_run.me)).fill(source(), 0, max_len_ + 64);
    private_.clear();
    ops_.clear();
  }

  void ops(std::vector<Op>& out) override {
    Rng r = pe_rng("get", g_run.me);
    const int m = static_cast<int>(r.between(0, kOps));
    private_.resize(static_cast<std::size_t>(m));
    for (int j = 0; j < m; ++j) {
      GetOp g;
      g.target = static_cast<int>(r.below(static_cast<std::uint64_t>(g_run.n)));
      g.method = static_cast<Method>(r.below(kMethods));
      static const std::size_t kElems[] = {1, 2, 4, 8, 16};
      g.elem = 1;
      if (g.method == typed || g.method == typed_nbi || g.method == single)
        g.elem = kElems[r.below(4)];
      if (g.method == sized) g.elem = kElems[r.below(5)];
      g.len = g.method == single ? g.elem
                                 : std::max(g.elem, r.log_uniform(1, max_len_) / g.elem * g.elem);
      g.off = r.below(max_len_ + 64 - g.len + 1) / g.elem * g.elem;
      g.misalign = r.below(16) / g.elem * g.elem;
      g.symmetric_landing = r.percent(30);
      const std::size_t bytes = g.len + 2 * kGuard + g.misalign;
      if (g.symmetric_landing) {
        g.landing = landing_ + static_cast<std::size_t>(j) * (kRegion + 2 * kGuard + 16);
      } else {
        private_[static_cast<std::size_t>(j)].resize(bytes);
        g.landing = private_[static_cast<std::size_t>(j)].data();
      }
      Pattern(guard_key()).fill(g.landing, 0, bytes);
      ops_.push_back(g);
      const shmem_ctx_t ctx = g_world.any_ctx(r);
      const std::uint8_t* src = source() + g.off;
      out.push_back({kMethodKinds[g.method],
                     [g, ctx, src] { issue(g, ctx, g.landing + kGuard + g.misalign, src); }});
    }
  }

  void verify() override {
    for (std::size_t j = 0; j < ops_.size(); ++j) {
      const GetOp& g = ops_[j];
      const std::size_t bytes = g.len + 2 * kGuard + g.misalign;
      std::vector<std::uint8_t> want(bytes);
      Pattern(guard_key()).fill(want.data(), 0, bytes);
      Pattern(source_key(g.target)).fill(want.data() + kGuard + g.misalign, g.off, g.len);
      expect_bytes(want.data(), g.landing, bytes, [&] {
        return strf(
            "%s (%zu-byte elements) of %zu bytes from offset %zu of pe %d's %s source "
            "into %s memory (landing with %zu guard bytes each side)",
            kMethodNames[g.method], g.elem, g.len, g.off, g.target,
            from_static_ ? "static" : "heap", g.symmetric_landing ? "symmetric" : "private",
            kGuard);
      });
    }
  }

 private:
  std::uint8_t* source() const { return from_static_ ? g_static_source : heap_source_; }
  static std::uint64_t source_key(int pe) { return round_key("get.source", pe); }
  static std::uint64_t guard_key() { return round_key("get.guard", g_run.me); }

  static void issue(const GetOp& g, shmem_ctx_t ctx, void* dest, const void* src) {
    using namespace rma_api;
    const std::size_t n = g.len / g.elem;
    switch (g.method) {
      case getmem:
        shmem_getmem(dest, src, g.len, g.target);
        break;
      case ctx_getmem:
        shmem_ctx_getmem(ctx, dest, src, g.len, g.target);
        break;
      case typed:
        with_type(g.elem, [&](auto t) { t.get(ctx, dest, src, n, g.target); });
        break;
      case sized:
        sized_get(g.elem, dest, src, n, g.target);
        break;
      case single:
        with_type(g.elem, [&](auto t) { t.g(ctx, dest, src, g.target); });
        break;
      case getmem_nbi:
        shmem_getmem_nbi(dest, src, g.len, g.target);
        break;
      case ctx_getmem_nbi:
        shmem_ctx_getmem_nbi(ctx, dest, src, g.len, g.target);
        break;
      case typed_nbi:
        with_type(g.elem, [&](auto t) { t.get_nbi(ctx, dest, src, n, g.target); });
        break;
      case kMethods:
        break;
    }
  }

  std::uint8_t* heap_source_;
  std::uint8_t* landing_;
  std::size_t max_len_ = 0;
  bool from_static_ = false;
  std::vector<std::vector<std::uint8_t>> private_;
  std::vector<GetOp> ops_;
};

}  // namespace

std::unique_ptr<Component> make_get_component() { return std::make_unique<GetComponent>(); }

}  // namespace soak
