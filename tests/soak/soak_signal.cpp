// put_signal with SHMEM_SIGNAL_ADD and SHMEM_SIGNAL_SET, blocking and nbi, on the default or a
// created context. Receivers do not wait for a barrier: they wait for the signals with
// shmem_signal_wait_until, shmem_uint64_wait_until(_all/_any/_some) or a shmem_uint64_test /
// shmem_signal_fetch loop and check each payload as soon as its signal is there (the signal
// must never overtake its data). After the round every byte and every signal word is checked.
#include <sched.h>
#include <shmem.h>

#include "soak_area.hpp"
#include "soak_check.hpp"
#include "soak_components.hpp"
#include "soak_world.hpp"

namespace soak {
namespace {

constexpr int kOps = 3;
constexpr std::size_t kMaxLen = 16 * 1024;

enum Method {
  putmem_signal,
  putmem_signal_nbi,
  ctx_putmem_signal,
  ctx_putmem_signal_nbi,
  uint64_put_signal,
  kMethods
};
const char* const kMethodNames[] = {"shmem_putmem_signal", "shmem_putmem_signal_nbi",
                                    "shmem_ctx_putmem_signal", "shmem_ctx_putmem_signal_nbi",
                                    "shmem_uint64_put_signal"};
enum Wait {
  signal_wait_until,
  wait_until,
  wait_until_all,
  wait_until_any,
  wait_until_some,
  test_loop,
  fetch_loop,
  kWaits
};
const char* const kWaitNames[] = {"shmem_signal_wait_until",      "shmem_uint64_wait_until",
                                  "shmem_uint64_wait_until_all",  "shmem_uint64_wait_until_any",
                                  "shmem_uint64_wait_until_some", "shmem_uint64_test loop",
                                  "shmem_signal_fetch loop"};

// What the watchdog names if an operation or a wait hangs (string literals).
const char* const kMethodKinds[] = {"signal.putmem_signal", "signal.putmem_signal_nbi",
                                    "signal.ctx_putmem_signal", "signal.ctx_putmem_signal_nbi",
                                    "signal.uint64_put_signal"};
const char* const kWaitKinds[] = {"signal.signal_wait_until", "signal.wait_until",
                                  "signal.wait_until_all",    "signal.wait_until_any",
                                  "signal.wait_until_some",   "signal.test_loop",
                                  "signal.fetch_loop"};

struct SignalOp {
  int target, sig_op;
  Method method;
  std::size_t off, len;
  std::uint64_t value;  // SET: a nonzero tag; ADD: the amount
};

class SignalComponent final : public Component {
 public:
  SignalComponent()
      : area_bytes_(static_cast<std::size_t>(g_run.n * kOps) * (kMaxLen + 64)),
        area_(shmem_align(64, area_bytes_), area_bytes_, kOps),
        words_(static_cast<std::uint64_t*>(
            shmem_align(64, (1 + static_cast<std::size_t>(g_run.n * kOps)) * 8))) {}

  const char* name() const override { return "signal"; }

  void prepare() override {
    Rng r = shared_rng("signal");
    max_len_ = r.percent(70) ? 256 : kMaxLen;
    area_.begin_round(max_len_ + 64, "signal");
    std::fill(words_, words_ + 1 + g_run.n * kOps, 0);
    sources_.clear();
  }

  std::vector<SignalOp> plan_of(int pe) const {
    Rng r = pe_rng("signal", pe);
    std::vector<SignalOp> plan(static_cast<std::size_t>(r.between(0, kOps)));
    for (std::size_t j = 0; j < plan.size(); ++j) {
      SignalOp& s = plan[j];
      s.target = static_cast<int>(r.below(static_cast<std::uint64_t>(g_run.n)));
      s.sig_op = r.percent(50) ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET;
      s.method = static_cast<Method>(r.below(kMethods));
      const std::size_t elem = s.method == uint64_put_signal ? 8 : 1;
      s.len = std::max(elem, r.log_uniform(1, max_len_) / elem * elem);
      s.off = r.below(area_.slot_bytes() - s.len + 1) / elem * elem;
      s.value = s.sig_op == SHMEM_SIGNAL_ADD ? static_cast<std::uint64_t>(r.between(1, 1000))
                                             : round_key("signal.tag", pe, j) | 1;
    }
    return plan;
  }

  void ops(std::vector<Op>& out) override {
    Rng local = pe_rng("signal.ctx", g_run.me);
    const std::vector<SignalOp> plan = plan_of(g_run.me);
    for (std::size_t j = 0; j < plan.size(); ++j) {
      const SignalOp s = plan[j];
      sources_.emplace_back(s.len);
      Pattern(payload(g_run.me, static_cast<int>(j))).fill(sources_.back().data(), 0, s.len);
      const void* src = sources_.back().data();
      void* dest = area_.slot(g_run.me, static_cast<int>(j)) + s.off;
      std::uint64_t* sig = signal_word(s.sig_op, g_run.me, static_cast<int>(j));
      shmem_ctx_t ctx = g_world.any_ctx(local);
      out.push_back(
          {kMethodKinds[s.method], [s, src, dest, sig, ctx] {
             switch (s.method) {
               case putmem_signal:
                 shmem_putmem_signal(dest, src, s.len, sig, s.value, s.sig_op, s.target);
                 break;
               case putmem_signal_nbi:
                 shmem_putmem_signal_nbi(dest, src, s.len, sig, s.value, s.sig_op, s.target);
                 break;
               case ctx_putmem_signal:
                 shmem_ctx_putmem_signal(ctx, dest, src, s.len, sig, s.value, s.sig_op, s.target);
                 break;
               case ctx_putmem_signal_nbi:
                 shmem_ctx_putmem_signal_nbi(ctx, dest, src, s.len, sig, s.value, s.sig_op,
                                             s.target);
                 break;
               case uint64_put_signal:
                 shmem_uint64_put_signal(static_cast<std::uint64_t*>(dest),
                                         static_cast<const std::uint64_t*>(src), s.len / 8, sig,
                                         s.value, s.sig_op, s.target);
                 break;
               case kMethods:
                 break;
             }
           }});
    }
  }

  void await() override {
    Rng r = pe_rng("signal.wait", g_run.me);
    // ADD: one word for all senders; wait for the total, then every ADD payload is complete.
    std::uint64_t total = 0;
    std::vector<std::pair<int, int>> adds, sets;  // (source pe, op)
    for (int pe = 0; pe < g_run.n; ++pe) {
      const std::vector<SignalOp> plan = plan_of(pe);
      for (std::size_t j = 0; j < plan.size(); ++j) {
        if (plan[j].target != g_run.me) continue;
        if (plan[j].sig_op == SHMEM_SIGNAL_ADD) {
          total += plan[j].value;
          adds.emplace_back(pe, static_cast<int>(j));
        } else {
          sets.emplace_back(pe, static_cast<int>(j));
        }
      }
    }
    if (!adds.empty()) {
      const Wait w = static_cast<Wait>(r.below(2));
      set_kind(kWaitKinds[w]);
      if (w == signal_wait_until)
        shmem_signal_wait_until(words_, SHMEM_CMP_GE, total);
      else
        shmem_uint64_wait_until(words_, SHMEM_CMP_GE, total);
      expect_eq(total, shmem_signal_fetch(words_), [&] {
        return strf("SIGNAL_ADD word after %s (%zu adds)", kWaitNames[w], adds.size());
      });
      for (auto [pe, j] : adds) check_payload(pe, j, kWaitNames[w]);
    }
    // SET: one word per (source, op); wait for them in a random way.
    r.shuffle(sets);
    const Wait w = static_cast<Wait>(r.below(kWaits));
    set_kind(kWaitKinds[w]);
    std::uint64_t* set_words = words_ + 1;
    const std::size_t nwords = static_cast<std::size_t>(g_run.n * kOps);
    std::vector<int> status(nwords, 1);  // 1: excluded
    for (auto [pe, j] : sets) status[static_cast<std::size_t>(pe * kOps + j)] = 0;
    if (w == wait_until_all && !sets.empty())
      shmem_uint64_wait_until_all(set_words, nwords, status.data(), SHMEM_CMP_NE, 0);
    std::size_t left = sets.size();
    while (left > 0 && (w == wait_until_any || w == wait_until_some)) {
      std::vector<std::size_t> idx(nwords);
      std::size_t got;
      if (w == wait_until_any) {
        idx[0] = shmem_uint64_wait_until_any(set_words, nwords, status.data(), SHMEM_CMP_NE, 0);
        got = 1;
      } else {
        got = shmem_uint64_wait_until_some(set_words, nwords, idx.data(), status.data(),
                                           SHMEM_CMP_NE, 0);
      }
      expect_true(
          got >= 1 && got <= left && idx[0] < nwords,
          [&] {
            return strf("%s with %zu signals outstanding returned %zu (index %zu)", kWaitNames[w],
                        left, got, idx[0]);
          },
          "at least one ready signal", "a bad result");
      for (std::size_t i = 0; i < got; ++i) {
        const std::size_t k = idx[i];
        expect_true(
            status[k] == 0,
            [&] {
              return strf("%s returned index %zu, excluded or already seen", kWaitNames[w], k);
            },
            "an outstanding signal", "another index");
        status[k] = 1;
        check_set(static_cast<int>(k) / kOps, static_cast<int>(k) % kOps, kWaitNames[w]);
        --left;
      }
    }
    for (auto [pe, j] : sets) {
      std::uint64_t* word = set_words + pe * kOps + j;
      switch (w) {
        case signal_wait_until:
          shmem_signal_wait_until(word, SHMEM_CMP_NE, 0);
          break;
        case wait_until:
          shmem_uint64_wait_until(word, SHMEM_CMP_NE, 0);
          break;
        case test_loop:
          while (shmem_uint64_test(word, SHMEM_CMP_NE, 0) == 0) sched_yield();
          break;
        case fetch_loop:
          while (shmem_signal_fetch(word) == 0) sched_yield();
          break;
        default:
          break;  // already waited for above
      }
      if (w != wait_until_any && w != wait_until_some) check_set(pe, j, kWaitNames[w]);
    }
  }

  void verify() override {
    std::vector<SlotArea::Write> writes;
    std::uint64_t total = 0;
    for (int pe = 0; pe < g_run.n; ++pe) {
      const std::vector<SignalOp> plan = plan_of(pe);
      for (std::size_t j = 0; j < plan.size(); ++j) {
        const SignalOp& s = plan[j];
        const int op = static_cast<int>(j);
        std::uint64_t want_set = 0;
        if (s.target == g_run.me) {
          writes.push_back({pe, op, s.off, s.len, payload(pe, op), 0});
          if (s.sig_op == SHMEM_SIGNAL_ADD)
            total += s.value;
          else
            want_set = s.value;
        }
        expect_eq(want_set, words_[1 + pe * kOps + op],
                  [&] { return strf("SIGNAL_SET word of pe %d op %d after the round", pe, op); });
      }
    }
    expect_eq(total, words_[0], [&] { return std::string("SIGNAL_ADD word after the round"); });
    area_.verify(writes, [&](int src, int op) {
      const std::vector<SignalOp> plan = plan_of(src);
      if (op >= static_cast<int>(plan.size()) ||
          plan[static_cast<std::size_t>(op)].target != g_run.me)
        return std::string("untouched slot");
      return describe(plan[static_cast<std::size_t>(op)]);
    });
  }

 private:
  static std::uint64_t payload(int pe, int op) { return round_key("signal.payload", pe, op); }
  std::uint64_t* signal_word(int sig_op, int pe, int op) const {
    return sig_op == SHMEM_SIGNAL_ADD ? words_ : words_ + 1 + pe * kOps + op;
  }
  static std::string describe(const SignalOp& s) {
    return strf("%s %s %llu of %zu bytes at offset %zu", kMethodNames[s.method],
                s.sig_op == SHMEM_SIGNAL_ADD ? "ADD" : "SET",
                static_cast<unsigned long long>(s.value), s.len, s.off);
  }

  // The payload of (pe, op) must be complete as soon as its signal is seen.
  void check_payload(int pe, int op, const char* how) const {
    const SignalOp s = plan_of(pe)[static_cast<std::size_t>(op)];
    std::vector<std::uint8_t> want(s.len);
    Pattern(payload(pe, op)).fill(want.data(), 0, s.len);
    expect_bytes(want.data(), area_.slot(pe, op) + s.off, s.len, [&] {
      return strf("payload of pe %d op %d (%s) right after %s saw its signal", pe, op,
                  describe(s).c_str(), how);
    });
  }
  void check_set(int pe, int op, const char* how) const {
    const SignalOp s = plan_of(pe)[static_cast<std::size_t>(op)];
    expect_eq(s.value, shmem_signal_fetch(words_ + 1 + pe * kOps + op),
              [&] { return strf("SIGNAL_SET word of pe %d op %d after %s", pe, op, how); });
    check_payload(pe, op, how);
  }

  std::size_t area_bytes_;
  SlotArea area_;
  std::uint64_t* words_;  // [0]: the ADD word; then one SET word per (source pe, op)
  std::size_t max_len_ = 0;
  std::vector<std::vector<std::uint8_t>> sources_;
};

}  // namespace

std::unique_ptr<Component> make_signal_component() { return std::make_unique<SignalComponent>(); }

}  // namespace soak
