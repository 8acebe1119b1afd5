// Ordering through flags: a PE puts data, orders it with shmem_fence, shmem_ctx_fence or
// shmem_quiet, then sets a flag word on the same PE (shmem_uint64_p, atomic_set, a putmem of the
// word). The receiver waits for the flag (wait_until / test / wait_until_any) and checks the data
// at once: a flag seen before its data is an ordering bug. Then a token travels round all PEs in
// a random order, each PE waiting for it and adding its share before passing it on.
#include <sched.h>
#include <shmem.h>

#include <numeric>

#include "soak_amo_api.hpp"
#include "soak_area.hpp"
#include "soak_check.hpp"
#include "soak_components.hpp"
#include "soak_world.hpp"

namespace soak {
namespace {

constexpr int kOps = 2;
constexpr std::size_t kMaxLen = 4096;

enum Order { fence, ctx_fence, quiet, kOrders };
const char* const kOrderNames[] = {"shmem_fence", "shmem_ctx_fence", "shmem_quiet"};
enum FlagWrite { uint64_p, atomic_set, putmem_word, kFlagWrites };
const char* const kFlagNames[] = {"shmem_ctx_uint64_p", "atomic_set",
                                  "shmem_ctx_putmem of the word"};

struct FlagOp {
  int target;
  Order order;
  FlagWrite flag;
  bool nbi_data;
  std::size_t off, len;
};

class FlagComponent final : public Component {
 public:
  FlagComponent()
      : area_bytes_(static_cast<std::size_t>(g_run.n * kOps) * (kMaxLen + 64)),
        area_(shmem_align(64, area_bytes_), area_bytes_, kOps),
        flags_(static_cast<std::uint64_t*>(
            shmem_align(64, (static_cast<std::size_t>(g_run.n * kOps) + 1) * 8))) {}

  const char* name() const override { return "flag"; }

  void prepare() override {
    area_.begin_round(kMaxLen + 64, "flag");
    std::fill(flags_, flags_ + g_run.n * kOps + 1, 0);
    sources_.clear();
  }

  static std::vector<FlagOp> plan_of(int pe) {
    Rng r = pe_rng("flag", pe);
    std::vector<FlagOp> plan(static_cast<std::size_t>(r.between(0, kOps)));
    for (FlagOp& f : plan) {
      f.target = static_cast<int>(r.below(static_cast<std::uint64_t>(g_run.n)));
      f.order = static_cast<Order>(r.below(kOrders));
      f.flag = static_cast<FlagWrite>(r.below(kFlagWrites));
      f.nbi_data = r.percent(40);
      f.len = r.log_uniform(1, kMaxLen);
      f.off = r.below(kMaxLen + 64 - f.len + 1);
    }
    return plan;
  }

  void ops(std::vector<Op>& out) override {
    Rng local = pe_rng("flag.ctx", g_run.me);
    const std::vector<FlagOp> plan = plan_of(g_run.me);
    for (std::size_t j = 0; j < plan.size(); ++j) {
      const FlagOp f = plan[j];
      const int op = static_cast<int>(j);
      sources_.emplace_back(f.len);
      Pattern(payload(g_run.me, op)).fill(sources_.back().data(), 0, f.len);
      const void* src = sources_.back().data();
      void* dest = area_.slot(g_run.me, op) + f.off;
      std::uint64_t* flag = &flags_[g_run.me * kOps + op];
      // Fence orders only within one context: data and flag go through the same one.
      const shmem_ctx_t ctx = f.order == ctx_fence ? g_world.any_ctx(local) : SHMEM_CTX_DEFAULT;
      const std::uint64_t tag = tag_of(g_run.me, op);
      out.push_back({"flag.put_order_flag", [f, ctx, src, dest, flag, tag] {
                       if (f.nbi_data)
                         shmem_ctx_putmem_nbi(ctx, dest, src, f.len, f.target);
                       else
                         shmem_ctx_putmem(ctx, dest, src, f.len, f.target);
                       switch (f.order) {
                         case fence:
                           shmem_fence();
                           break;
                         case ctx_fence:
                           shmem_ctx_fence(ctx);
                           break;
                         default:
                           shmem_quiet();
                           break;
                       }
                       switch (f.flag) {
                         case uint64_p:
                           shmem_ctx_uint64_p(ctx, flag, tag, f.target);
                           break;
                         case atomic_set:
                           amo_api::set(ctx, flag, tag, f.target);
                           break;
                         default:
                           shmem_ctx_putmem(ctx, flag, &tag, sizeof tag, f.target);
                           break;
                       }
                     }});
    }
  }

  void await() override {
    Rng r = pe_rng("flag.wait", g_run.me);
    for (int pe = 0; pe < g_run.n; ++pe) {
      const std::vector<FlagOp> plan = plan_of(pe);
      for (std::size_t j = 0; j < plan.size(); ++j) {
        if (plan[j].target != g_run.me) continue;
        const int op = static_cast<int>(j);
        std::uint64_t* flag = &flags_[pe * kOps + op];
        // A flag written by a plain putmem may be seen half-written: wait for all of it.
        const bool whole = plan[j].flag == putmem_word;
        const int cmp = whole ? SHMEM_CMP_EQ : SHMEM_CMP_NE;
        const std::uint64_t value = whole ? tag_of(pe, op) : 0;
        const int how = static_cast<int>(r.below(3));
        static const char* const kWaitKinds[] = {"flag.wait_until", "flag.test_loop",
                                                 "flag.wait_until_any"};
        set_kind(kWaitKinds[how]);
        if (how == 0) {
          shmem_uint64_wait_until(flag, cmp, value);
        } else if (how == 1) {
          while (!shmem_uint64_test(flag, cmp, value)) sched_yield();
        } else {
          int status = 0;
          shmem_uint64_wait_until_any(flag, 1, &status, cmp, value);
        }
        check_flagged(pe, op, plan[j]);
      }
    }
    set_kind("flag.ring");
    pass_token();
  }

  void verify() override {
    std::vector<SlotArea::Write> writes;
    for (int pe = 0; pe < g_run.n; ++pe) {
      const std::vector<FlagOp> plan = plan_of(pe);
      for (std::size_t j = 0; j < plan.size(); ++j)
        if (plan[j].target == g_run.me)
          writes.push_back({pe, static_cast<int>(j), plan[j].off, plan[j].len,
                            payload(pe, static_cast<int>(j)), 0});
    }
    area_.verify(writes, [&](int src, int op) {
      const std::vector<FlagOp> plan = plan_of(src);
      if (op >= static_cast<int>(plan.size()) ||
          plan[static_cast<std::size_t>(op)].target != g_run.me)
        return std::string("untouched slot");
      return describe(plan[static_cast<std::size_t>(op)]);
    });
  }

 private:
  static std::uint64_t payload(int pe, int op) { return round_key("flag.payload", pe, op); }
  static std::uint64_t tag_of(int pe, int op) { return round_key("flag.tag", pe, op) | 1; }
  static std::string describe(const FlagOp& f) {
    return strf("%s of %zu bytes at offset %zu, %s, flag by %s",
                f.nbi_data ? "putmem_nbi" : "putmem", f.len, f.off, kOrderNames[f.order],
                kFlagNames[f.flag]);
  }

  void check_flagged(int pe, int op, const FlagOp& f) const {
    expect_eq(tag_of(pe, op), flags_[pe * kOps + op],
              [&] { return strf("flag of pe %d op %d (%s)", pe, op, describe(f).c_str()); });
    std::vector<std::uint8_t> want(f.len);
    Pattern(payload(pe, op)).fill(want.data(), 0, f.len);
    expect_bytes(want.data(), area_.slot(pe, op) + f.off, f.len, [&] {
      return strf("data of pe %d op %d once its flag was seen (%s)", pe, op, describe(f).c_str());
    });
  }

  // The ring: order[0] starts; order[i] waits for the token, adds its share, passes it on; the
  // token comes back to order[0] holding the sum of all shares.
  void pass_token() {
    Rng shared = shared_rng("flag.ring");
    std::vector<int> order(static_cast<std::size_t>(g_run.n));
    std::iota(order.begin(), order.end(), 0);
    shared.shuffle(order);
    const std::uint64_t start = shared.next() >> 8 | 1;
    std::vector<std::uint64_t> after(order.size());  // token value after order[i] added its share
    std::uint64_t v = start;
    for (std::size_t i = 0; i < order.size(); ++i) {
      v += static_cast<std::uint64_t>(pe_rng("flag.share", order[i]).between(1, 1 << 20));
      after[i] = v;
    }
    const std::size_t pos = static_cast<std::size_t>(index_in(order, g_run.me));
    std::uint64_t* token = &flags_[g_run.n * kOps];
    const int next = order[(pos + 1) % order.size()];
    Rng local = pe_rng("flag.ring.how", g_run.me);
    auto send = [&](std::uint64_t value) {
      if (local.percent(50))
        shmem_uint64_atomic_set(token, value, next);
      else
        shmem_uint64_p(token, value, next);
    };
    auto receive = [&](std::uint64_t want, const char* what) {
      shmem_uint64_wait_until(token, SHMEM_CMP_NE, 0);
      expect_eq(want, shmem_uint64_atomic_fetch(token, g_run.me), [&] {
        return strf("token %s (ring order %s, this PE at %zu)", what, list_str(order).c_str(), pos);
      });
    };
    if (pos == 0) {
      send(after[0]);
      receive(after.back(), "back at the start");
    } else {
      receive(after[pos - 1], "received");
      send(after[pos]);
    }
  }

  std::size_t area_bytes_;
  SlotArea area_;
  std::uint64_t* flags_;  // one per (source pe, op), then the ring's token
  std::vector<std::vector<std::uint8_t>> sources_;
};

}  // namespace

std::unique_ptr<Component> make_flag_component() { return std::make_unique<FlagComponent>(); }

}  // namespace soak
