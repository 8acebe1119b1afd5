// Puts of 1 byte to 64 KiB at odd offsets into every PE (self included): blocking, nbi, typed,
// sized and single-element forms, on the default or a created context, into the heap or into
// static memory. The receiver checks every byte of its area: payloads where they belong, the
// background everywhere else.
#include <shmem.h>

#include "soak_area.hpp"
#include "soak_check.hpp"
#include "soak_components.hpp"
#include "soak_rma_api.hpp"
#include "soak_world.hpp"

namespace soak {
namespace {

constexpr int kOps = 4;  // slots per source PE
constexpr std::size_t kMaxLen = 64 * 1024;
constexpr std::size_t kStaticBytes = 1 << 20;
alignas(64) unsigned char g_static_area[kStaticBytes];  // symmetric: in .bss on every PE

enum Method {
  putmem,
  ctx_putmem,
  typed,
  sized,
  single,
  putmem_nbi,
  ctx_putmem_nbi,
  typed_nbi,
  kMethods
};
const char* const kMethodNames[] = {"shmem_putmem",         "shmem_ctx_putmem", "typed put",
                                    "shmem_putN",           "typed p",          "shmem_putmem_nbi",
                                    "shmem_ctx_putmem_nbi", "typed put_nbi"};

// What the watchdog names if an operation hangs (string literals).
const char* const kMethodKinds[] = {"put.putmem",         "put.ctx_putmem", "put.typed",
                                    "put.sized",          "put.typed_p",    "put.putmem_nbi",
                                    "put.ctx_putmem_nbi", "put.typed_nbi"};

struct PutPlan {
  int target;
  Method method;
  std::size_t elem, off, len, misalign;
};

class PutComponent final : public Component {
 public:
  PutComponent()
      : heap_bytes_(static_cast<std::size_t>(g_run.n * kOps) * (kMaxLen + 64)),
        heap_(shmem_align(64, heap_bytes_), heap_bytes_, kOps),
        static_(g_static_area, kStaticBytes, kOps) {}

  const char* name() const override { return "put"; }

  void prepare() override {
    Rng r = shared_rng("put");
    // Size class of the round: mostly small transfers, now and then up to 64 KiB.
    static const std::size_t kClasses[] = {64, 1024, 8192, kMaxLen};
    max_len_ = kClasses[r.weighted({35, 30, 20, 15})];
    area_ = &heap_;
    if (r.percent(25) && static_.max_slot_bytes() >= max_len_ + 64) area_ = &static_;
    area_->begin_round(max_len_ + 64, "put");
    sources_.clear();
  }

  std::vector<PutPlan> plan_of(int pe) const {
    Rng r = pe_rng("put", pe);
    std::vector<PutPlan> plan(static_cast<std::size_t>(r.between(0, kOps)));
    for (PutPlan& p : plan) {
      p.target = static_cast<int>(r.below(static_cast<std::uint64_t>(g_run.n)));
      p.method = static_cast<Method>(r.below(kMethods));
      static const std::size_t kElems[] = {1, 2, 4, 8, 16};
      p.elem = 1;
      if (p.method == typed || p.method == typed_nbi || p.method == single)
        p.elem = kElems[r.below(4)];
      if (p.method == sized) p.elem = kElems[r.below(5)];
      p.len = p.method == single ? p.elem
                                 : std::max(p.elem, r.log_uniform(1, max_len_) / p.elem * p.elem);
      p.off = r.below(area_->slot_bytes() - p.len + 1) / p.elem * p.elem;
      p.misalign = r.below(16) / p.elem * p.elem;
    }
    return plan;
  }

  void ops(std::vector<Op>& out) override {
    Rng local = pe_rng("put.ctx", g_run.me);
    const std::vector<PutPlan> plan = plan_of(g_run.me);
    for (std::size_t j = 0; j < plan.size(); ++j) {
      const PutPlan p = plan[j];
      // The source stays alive (and unchanged) until the round's quiet: nbi puts read it late.
      sources_.emplace_back(p.len + 32);
      std::uint8_t* src = sources_.back().data() + p.misalign;
      Pattern(payload(g_run.me, static_cast<int>(j))).fill(src, 0, p.len);
      void* dest = area_->slot(g_run.me, static_cast<int>(j)) + p.off;
      const shmem_ctx_t ctx = g_world.any_ctx(local);
      out.push_back({kMethodKinds[p.method], [=] { issue(p, ctx, dest, src); }});
    }
  }

  void verify() override {
    std::vector<SlotArea::Write> writes;
    for (int pe = 0; pe < g_run.n; ++pe) {
      const std::vector<PutPlan> plan = plan_of(pe);
      for (std::size_t j = 0; j < plan.size(); ++j)
        if (plan[j].target == g_run.me)
          writes.push_back({pe, static_cast<int>(j), plan[j].off, plan[j].len,
                            payload(pe, static_cast<int>(j)), 0});
    }
    area_->verify(writes, [&](int src, int op) { return describe(src, op); });
  }

 private:
  static std::uint64_t payload(int pe, int op) { return round_key("put.payload", pe, op); }

  static void issue(const PutPlan& p, shmem_ctx_t ctx, void* dest, const void* src) {
    using namespace rma_api;
    const std::size_t n = p.len / p.elem;
    switch (p.method) {
      case putmem:
        shmem_putmem(dest, src, p.len, p.target);
        break;
      case ctx_putmem:
        shmem_ctx_putmem(ctx, dest, src, p.len, p.target);
        break;
      case typed:
        with_type(p.elem, [&](auto t) { t.put(ctx, dest, src, n, p.target); });
        break;
      case sized:
        sized_put(p.elem, dest, src, n, p.target);
        break;
      case single:
        with_type(p.elem, [&](auto t) { t.p(ctx, dest, src, p.target); });
        break;
      case putmem_nbi:
        shmem_putmem_nbi(dest, src, p.len, p.target);
        break;
      case ctx_putmem_nbi:
        shmem_ctx_putmem_nbi(ctx, dest, src, p.len, p.target);
        break;
      case typed_nbi:
        with_type(p.elem, [&](auto t) { t.put_nbi(ctx, dest, src, n, p.target); });
        break;
      case kMethods:
        break;
    }
  }

  std::string describe(int src, int op) const {
    const std::vector<PutPlan> plan = plan_of(src);
    const std::string where = area_ == &static_ ? "static" : "heap";
    if (op >= static_cast<int>(plan.size()) ||
        plan[static_cast<std::size_t>(op)].target != g_run.me)
      return "untouched " + where + " slot";
    const PutPlan& p = plan[static_cast<std::size_t>(op)];
    return strf("%s (%zu-byte elements) of %zu bytes at offset %zu into the %s area",
                kMethodNames[p.method], p.elem, p.len, p.off, where.c_str());
  }

  std::size_t heap_bytes_;
  SlotArea heap_, static_;
  SlotArea* area_ = nullptr;
  std::size_t max_len_ = 0;
  std::vector<std::vector<std::uint8_t>> sources_;
};

}  // namespace

std::unique_ptr<Component> make_put_component() { return std::make_unique<PutComponent>(); }

}  // namespace soak
