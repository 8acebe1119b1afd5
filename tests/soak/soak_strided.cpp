// Strided transfers: iput / iget (typed on a context, or sized shmem_iputN / igetN) and the
// blocked ibput / ibget, with random element sizes, strides and counts, to and from every PE.
// A strided put must write exactly its elements: the receiver checks the gaps too.
#include <shmem.h>

#include "soak_area.hpp"
#include "soak_check.hpp"
#include "soak_components.hpp"
#include "soak_rma_api.hpp"
#include "soak_world.hpp"

namespace soak {
namespace {

constexpr int kPutSlots = 2;               // slots per source PE
constexpr std::size_t kSlotBytes = 16384;  // fits 256 elements of 8 bytes at stride 8
constexpr std::size_t kSourceBytes = 16384;

enum Kind { iput, sized_iput, ibput, iget, sized_iget, ibget, kKinds };
const char* const kKindNames[] = {"typed iput", "shmem_iputN", "typed ibput",
                                  "typed iget", "shmem_igetN", "typed ibget"};
const char* const kOpKinds[] = {"strided.iput", "strided.sized_iput", "strided.ibput",
                                "strided.iget", "strided.sized_iget", "strided.ibget"};
bool is_put(Kind k) { return k == iput || k == sized_iput || k == ibput; }

struct StridedOp {
  Kind kind;
  int target, slot;           // slot: put kinds only
  std::size_t elem, off;      // off: bytes into the remote slot or source region
  std::ptrdiff_t dst, sst;    // strides in elements (between blocks for ib*)
  std::size_t nelems, bsize;  // bsize: elements per block (1 for i*)
  // Element k of block b travels from source element b * sst + k to dest element b * dst + k.
  std::size_t src_elems() const { return (nelems - 1) * static_cast<std::size_t>(sst) + bsize; }
  std::size_t dst_elems() const { return (nelems - 1) * static_cast<std::size_t>(dst) + bsize; }
};

class StridedComponent final : public Component {
 public:
  StridedComponent()
      : area_bytes_(static_cast<std::size_t>(g_run.n * kPutSlots) * kSlotBytes),
        area_(shmem_align(64, area_bytes_), area_bytes_, kPutSlots),
        source_(static_cast<std::uint8_t*>(shmem_align(64, kSourceBytes))) {}

  const char* name() const override { return "strided"; }

  void prepare() override {
    area_.begin_round(kSlotBytes, "strided");
    Pattern(source_key(g_run.me)).fill(source_, 0, kSourceBytes);
    buffers_.clear();
    gets_.clear();
  }

  static std::vector<StridedOp> plan_of(int pe) {
    Rng r = pe_rng("strided", pe);
    std::vector<StridedOp> plan(static_cast<std::size_t>(r.between(0, 3)));
    int next_slot = 0;
    for (StridedOp& s : plan) {
      s.kind = static_cast<Kind>(r.below(kKinds));
      if (is_put(s.kind) && next_slot == kPutSlots) s.kind = static_cast<Kind>(s.kind + 3);
      s.slot = is_put(s.kind) ? next_slot++ : -1;
      s.target = static_cast<int>(r.below(static_cast<std::uint64_t>(g_run.n)));
      static const std::size_t kElems[] = {1, 2, 4, 8, 16};
      s.elem = kElems[r.below(s.kind == sized_iput || s.kind == sized_iget ? 5 : 4)];
      const bool blocked = s.kind == ibput || s.kind == ibget;
      s.bsize = blocked ? static_cast<std::size_t>(r.between(1, 6)) : 1;
      const long min_stride = static_cast<long>(s.bsize);
      s.dst = r.between(min_stride, min_stride + 5);
      s.sst = r.between(min_stride, min_stride + 5);
      s.nelems = static_cast<std::size_t>(r.log_uniform(1, blocked ? 24 : 200));
      // Keep both sides inside their buffers: the remote side is a slot or the source region.
      const std::size_t remote_cap = (is_put(s.kind) ? kSlotBytes : kSourceBytes) / s.elem;
      auto remote_elems_of = [&] { return is_put(s.kind) ? s.dst_elems() : s.src_elems(); };
      while (remote_elems_of() > remote_cap) s.nelems = (s.nelems + 1) / 2;
      const std::size_t remote_elems = remote_elems_of();
      s.off = r.below(remote_cap - remote_elems + 1) * s.elem;
    }
    return plan;
  }

  void ops(std::vector<Op>& out) override {
    Rng local = pe_rng("strided.ctx", g_run.me);
    const std::vector<StridedOp> plan = plan_of(g_run.me);
    for (std::size_t j = 0; j < plan.size(); ++j) {
      const StridedOp s = plan[j];
      const shmem_ctx_t ctx = g_world.any_ctx(local);
      if (is_put(s.kind)) {
        buffers_.emplace_back(s.src_elems() * s.elem);
        Pattern(payload(g_run.me, s.slot)).fill(buffers_.back().data(), 0, buffers_.back().size());
        const std::uint8_t* src = buffers_.back().data();
        std::uint8_t* dest = area_.slot(g_run.me, s.slot) + s.off;
        out.push_back({kOpKinds[s.kind], [s, ctx, src, dest] { issue(s, ctx, dest, src); }});
      } else {
        // Landing: the strided image plus one element of guard after it, all pre-filled.
        buffers_.emplace_back((s.dst_elems() + 1) * s.elem);
        Pattern(guard_key(j)).fill(buffers_.back().data(), 0, buffers_.back().size());
        std::uint8_t* dest = buffers_.back().data();
        const std::uint8_t* src = source_ + s.off;
        gets_.push_back({j, dest});
        out.push_back({kOpKinds[s.kind], [s, ctx, src, dest] { issue(s, ctx, dest, src); }});
      }
    }
  }

  void verify() override {
    // Strided gets of this PE.
    const std::vector<StridedOp> mine = plan_of(g_run.me);
    for (const auto& [j, dest] : gets_) {
      const StridedOp& s = mine[j];
      std::vector<std::uint8_t> want((s.dst_elems() + 1) * s.elem);
      Pattern(guard_key(j)).fill(want.data(), 0, want.size());
      for_each_element(s, [&](std::size_t d, std::size_t from) {
        Pattern(source_key(s.target)).fill(want.data() + d, s.off + from, s.elem);
      });
      expect_bytes(want.data(), dest, want.size(), [&] { return describe(s) + " landing"; });
    }
    // Strided puts into this PE.
    std::vector<SlotArea::Write> writes;
    for (int pe = 0; pe < g_run.n; ++pe)
      for (const StridedOp& s : plan_of(pe))
        if (is_put(s.kind) && s.target == g_run.me)
          for_each_element(s, [&](std::size_t d, std::size_t from) {
            writes.push_back({pe, s.slot, s.off + d, s.elem, payload(pe, s.slot), from});
          });
    area_.verify(writes, [&](int src, int slot) {
      for (const StridedOp& s : plan_of(src))
        if (is_put(s.kind) && s.slot == slot && s.target == g_run.me) return describe(s);
      return std::string("untouched slot");
    });
  }

 private:
  static std::uint64_t payload(int pe, int slot) { return round_key("strided.payload", pe, slot); }
  static std::uint64_t source_key(int pe) { return round_key("strided.source", pe); }
  static std::uint64_t guard_key(std::size_t j) { return round_key("strided.guard", g_run.me, j); }

  // f(dest byte offset, source byte offset) for every element moved.
  template <class F>
  static void for_each_element(const StridedOp& s, F&& f) {
    for (std::size_t b = 0; b < s.nelems; ++b)
      for (std::size_t k = 0; k < s.bsize; ++k)
        f((b * static_cast<std::size_t>(s.dst) + k) * s.elem,
          (b * static_cast<std::size_t>(s.sst) + k) * s.elem);
  }

  static void issue(const StridedOp& s, shmem_ctx_t ctx, void* dest, const void* src) {
    using namespace rma_api;
    switch (s.kind) {
      case iput:
        with_type(s.elem,
                  [&](auto t) { t.iput(ctx, dest, src, s.dst, s.sst, s.nelems, s.target); });
        break;
      case sized_iput:
        rma_api::sized_iput(s.elem, dest, src, s.dst, s.sst, s.nelems, s.target);
        break;
      case ibput:
        with_type(s.elem, [&](auto t) {
          t.ibput(ctx, dest, src, s.dst, s.sst, s.bsize, s.nelems, s.target);
        });
        break;
      case iget:
        with_type(s.elem,
                  [&](auto t) { t.iget(ctx, dest, src, s.dst, s.sst, s.nelems, s.target); });
        break;
      case sized_iget:
        rma_api::sized_iget(s.elem, dest, src, s.dst, s.sst, s.nelems, s.target);
        break;
      case ibget:
        with_type(s.elem, [&](auto t) {
          t.ibget(ctx, dest, src, s.dst, s.sst, s.bsize, s.nelems, s.target);
        });
        break;
      case kKinds:
        break;
    }
  }

  static std::string describe(const StridedOp& s) {
    return strf("%s pe %d: %zu-byte elements, %zu %s of %zu, dst %td sst %td, remote offset %zu",
                kKindNames[s.kind], s.target, s.elem, s.nelems, s.bsize > 1 ? "blocks" : "elements",
                s.bsize, s.dst, s.sst, s.off);
  }

  std::size_t area_bytes_;
  SlotArea area_;
  std::uint8_t* source_;
  std::vector<std::vector<std::uint8_t>> buffers_;
  std::vector<std::pair<std::size_t, std::uint8_t*>> gets_;
};

}  // namespace

std::unique_ptr<Component> make_strided_component() { return std::make_unique<StridedComponent>(); }

}  // namespace soak
