// AMOs from every PE at once on counters spread over all PEs (self included), 32- and 64-bit
// (two 32-bit counters often share one 64-bit word), blocking or nbi, on the default or a
// created context. Each counter gets one kind of operation
// per round, chosen so that the result proves atomicity exactly:
//   *_chain   every operation fetches, and the states it can produce are all distinct: the
//             fetched values must link into one sequence init -> ... -> final (a linearisation),
//             e.g. fetch_add returns distinct values that form the prefix sums of the adds;
//   *_mixed   fetching and non-fetching forms together: the final value is exact and every
//             fetched value lies between init and final;
//   cas_once  every PE tries compare_swap(init -> own tag): exactly one wins, the others fetch
//             the winner's tag;
//   cas_loop  compare_swap increment loops: the successful swaps form a chain of +1.
// Plain atomic_fetch reads ("fetch only") must return one of the counter's states. Fetched
// values are pushed to the counter's owner, which checks everything after the round.
#include <shmem.h>

#include <algorithm>
#include <map>
#include <set>

#include "soak_amo_api.hpp"
#include "soak_check.hpp"
#include "soak_components.hpp"
#include "soak_world.hpp"

namespace soak {
namespace {

constexpr int kCounters = 6;  // per PE
constexpr int kMaxOps = 8;    // per PE per round
// Memory around the counters that no AMO may touch: the other half of a lone 32-bit counter's
// word, and the spare word of a pair of 32-bit counters packed into one word.
constexpr std::uint32_t kHighSentinel = 0x5eadbeefu;
constexpr std::uint64_t kSpareSentinel = 0x5a5a5a5a0f0f0f0full;
constexpr std::uint64_t kLogPoison = 0xa5a5a5a5a5a5a5a5ull;

enum Kind {
  add_chain,
  add_mixed,
  inc_chain,
  inc_mixed,
  swap_chain,
  cas_once,
  cas_loop,
  and_chain,
  or_chain,
  xor_chain,
  or_mixed,
  kKinds
};
const char* const kKindNames[] = {"fetch_add chain",   "add/fetch_add mix", "fetch_inc chain",
                                  "inc/fetch_inc mix", "swap chain",        "compare_swap once",
                                  "compare_swap loop", "fetch_and chain",   "fetch_or chain",
                                  "fetch_xor chain",   "or/fetch_or mix"};
const char* const kOpKinds[] = {"amo.fetch_add", "amo.add",       "amo.fetch_inc",
                                "amo.inc",       "amo.swap",      "amo.compare_swap",
                                "amo.cas_loop",  "amo.fetch_and", "amo.fetch_or",
                                "amo.fetch_xor", "amo.or"};

struct Counter {
  Kind kind;
  bool wide;
  std::uint64_t init;
  std::uint64_t mask() const { return wide ? ~0ull : 0xffffffffull; }
};

struct AmoOp {
  int owner, c;
  bool fetch_only;  // atomic_fetch instead of the counter's operation
  bool fetching;    // the operation returns a value (always for fetch_only)
  bool nbi;
  std::uint64_t operand;  // add: amount; swap/cas_once: tag; bitwise: the PE's bit
};

class AmoComponent final : public Component {
 public:
  AmoComponent()
      : counters_(static_cast<std::uint64_t*>(shmem_align(64, kCounters * 8))),
        log_(static_cast<std::uint64_t*>(
            shmem_align(64, static_cast<std::size_t>(g_run.n * kMaxOps) * 8))) {}

  const char* name() const override { return "amo"; }

  void prepare() override {
    Rng r = shared_rng("amo");
    layout_.assign(static_cast<std::size_t>(g_run.n * kCounters), {});
    for (Counter& c : layout_) {
      c.kind = static_cast<Kind>(r.below(kKinds));
      c.wide = r.percent(50);
      const std::uint64_t top = c.wide ? 1ull << 63 : 1ull << 31;
      const std::uint64_t bits = assignable_bits(c);
      switch (c.kind) {
        case swap_chain:
        case cas_once:
          c.init = top | r.below(1 << 16);
          break;  // tags never set the top bit
        case and_chain:
          c.init = (r.next() | bits) & c.mask();
          break;
        case or_chain:
        case or_mixed:
          c.init = r.next() & ~bits & c.mask();
          break;
        case xor_chain:
          c.init = r.next() & c.mask();
          break;
        default:
          c.init = r.below(1 << 20);
          break;
      }
    }
    for (int c = 0; c < kCounters; c += 2) {
      const Counter& lo = counter(g_run.me, c);
      const Counter& hi = counter(g_run.me, c + 1);
      if (packed(g_run.me, c)) {
        counters_[c] = (hi.init << 32) | lo.init;
        counters_[c + 1] = kSpareSentinel;
      } else {
        counters_[c] = lo.wide ? lo.init : (std::uint64_t{kHighSentinel} << 32) | lo.init;
        counters_[c + 1] = hi.wide ? hi.init : (std::uint64_t{kHighSentinel} << 32) | hi.init;
      }
    }
    std::fill(log_, log_ + g_run.n * kMaxOps, kLogPoison);
    results_.assign(kMaxOps, 0);
  }

  std::vector<AmoOp> plan_of(int pe) const {
    Rng r = pe_rng("amo", pe);
    std::vector<AmoOp> plan(static_cast<std::size_t>(r.between(0, kMaxOps)));
    std::map<int, int> bits_used;  // per counter (owner * kCounters + c)
    for (AmoOp& op : plan) {
      op.owner = static_cast<int>(r.below(static_cast<std::uint64_t>(g_run.n)));
      op.c = static_cast<int>(r.below(kCounters));
      const Counter& k = counter(op.owner, op.c);
      op.fetch_only = r.percent(12);
      op.fetching = true;
      op.operand = 0;
      switch (k.kind) {
        case add_mixed:
          op.fetching = r.percent(50);
          [[fallthrough]];
        case add_chain:
          op.operand = static_cast<std::uint64_t>(r.between(1, 4096));
          break;
        case inc_mixed:
          op.fetching = r.percent(50);
          [[fallthrough]];
        case inc_chain:
          op.operand = 1;
          break;
        case swap_chain:
        case cas_once:
          op.operand = (static_cast<std::uint64_t>(pe + 1) << 8) |
                       static_cast<std::uint64_t>(&op - plan.data() + 1);
          break;
        case cas_loop:
          op.operand = 1;
          break;
        default: {  // bitwise: the next of this PE's bits of the counter, if any is left
          int& used = bits_used[op.owner * kCounters + op.c];
          if (used >= bits_per_pe(k)) {
            op.fetch_only = true;
          } else {
            op.operand = 1ull << (pe * bits_per_pe(k) + used++);
            if (k.kind == or_mixed) op.fetching = r.percent(50);
          }
        }
      }
      if (op.fetch_only) op.fetching = true;
      op.nbi = op.fetching && (k.kind != cas_loop || op.fetch_only) && r.percent(30);
    }
    return plan;
  }

  void ops(std::vector<Op>& out) override {
    Rng local = pe_rng("amo.ctx", g_run.me);
    const std::vector<AmoOp> plan = plan_of(g_run.me);
    nbi32_.assign(kMaxOps, 0xa5a5a5a5u);
    nbi64_.assign(kMaxOps, kLogPoison);
    plan_ = plan;
    for (std::size_t j = 0; j < plan.size(); ++j) {
      const shmem_ctx_t ctx = g_world.any_ctx(local);
      out.push_back({kOpKinds[counter(plan[j].owner, plan[j].c).kind], [this, j, ctx] {
                       const AmoOp& op = plan_[j];
                       if (counter(op.owner, op.c).wide)
                         run<std::uint64_t>(op, ctx, &nbi64_[j], results_[j]);
                       else
                         run<std::uint32_t>(op, ctx, &nbi32_[j], results_[j]);
                     }});
    }
  }

  void await() override {
    // Every operation is complete (the round quieted every context): send each fetched value
    // to the counter's owner, which judges all operations on its counters together.
    for (std::size_t j = 0; j < plan_.size(); ++j) {
      const AmoOp& op = plan_[j];
      if (!op.fetching) continue;
      if (op.nbi) results_[j] = counter(op.owner, op.c).wide ? nbi64_[j] : nbi32_[j];
      shmem_uint64_p(&log_[g_run.me * kMaxOps + static_cast<int>(j)], results_[j], op.owner);
    }
  }

  void verify() override {
    struct Seen {
      int pe, j;
      AmoOp op;
      std::uint64_t fetched;
    };
    std::vector<std::vector<Seen>> by_counter(kCounters);
    for (int pe = 0; pe < g_run.n; ++pe) {
      const std::vector<AmoOp> plan = plan_of(pe);
      for (std::size_t j = 0; j < plan.size(); ++j)
        if (plan[j].owner == g_run.me)
          by_counter[static_cast<std::size_t>(plan[j].c)].push_back(
              {pe, static_cast<int>(j), plan[j], log_[pe * kMaxOps + static_cast<int>(j)]});
    }
    for (int c = 0; c < kCounters; ++c) {
      const Counter& k = counter(g_run.me, c);
      const std::vector<Seen>& seen = by_counter[static_cast<std::size_t>(c)];
      auto what = [&](const std::string& s) {
        return strf("counter %d (%s, %d-bit, init %llu, %zu operations) on pe %d: ", c,
                    kKindNames[k.kind], k.wide ? 64 : 32, static_cast<unsigned long long>(k.init),
                    seen.size(), g_run.me) +
               s;
      };
      if (packed(g_run.me, c)) {
        expect_eq(kSpareSentinel, counters_[c | 1],
                  [&] { return what("spare word after a pair of packed 32-bit counters"); });
      } else if (!k.wide) {
        expect_eq(std::uint64_t{kHighSentinel}, counters_[c] >> 32,
                  [&] { return what("upper half of the 64-bit word around the 32-bit counter"); });
      }
      const std::uint64_t final_value =
          k.wide ? counters_[c] : *static_cast<const std::uint32_t*>(address(g_run.me, c));
      std::vector<const Seen*> modifying, reads;
      for (const Seen& s : seen) {
        if (s.op.fetching) {
          expect_true(
              s.fetched != kLogPoison,
              [&] { return what(strf("value fetched by pe %d op %d", s.pe, s.j)); },
              "a value pushed by the fetching PE", "the poison the log was filled with");
        }
        (s.op.fetch_only ? reads : modifying).push_back(&s);
      }
      std::set<std::uint64_t> states{k.init, final_value};
      switch (k.kind) {
        case add_mixed:
        case inc_mixed:
        case or_mixed:
          check_mixed(k, modifying, final_value, what);
          break;
        case cas_once:
          check_cas_once(k, modifying, final_value, what);
          break;
        default:
          states = check_chain(k, modifying, final_value, what);
          break;
      }
      for (const Seen* s : reads) {
        bool ok = states.count(s->fetched) != 0;
        if (k.kind == add_mixed || k.kind == inc_mixed)
          ok = s->fetched >= k.init && s->fetched <= final_value;
        if (k.kind == or_mixed)
          ok = (s->fetched & k.init) == k.init && (s->fetched | final_value) == final_value;
        expect_true(
            ok,
            [&] {
              return what(
                  strf("atomic_fetch by pe %d op %d returned %llu, not a state the counter had "
                       "(final %llu)",
                       s->pe, s->j, static_cast<unsigned long long>(s->fetched),
                       static_cast<unsigned long long>(final_value)));
            },
            "a state of the counter", "another value");
      }
    }
  }

 private:
  // Two 32-bit counters side by side share one 64-bit word (so AMOs on either half run
  // concurrently on one word); otherwise a counter has a word of its own (a 32-bit one its low
  // half).
  bool packed(int owner, int c) const {
    return !counter(owner, c & ~1).wide && !counter(owner, c | 1).wide;
  }
  void* address(int owner, int c) const {
    if (packed(owner, c)) return reinterpret_cast<std::uint32_t*>(&counters_[c & ~1]) + (c & 1);
    return &counters_[c];
  }

  const Counter& counter(int owner, int c) const {
    return layout_[static_cast<std::size_t>(owner * kCounters + c)];
  }
  static int bits_per_pe(const Counter& k) {
    return std::min(kMaxOps, (k.wide ? 64 : 32) / g_run.n);
  }
  static std::uint64_t assignable_bits(const Counter& k) {
    const int total = bits_per_pe(k) * g_run.n;
    return total >= 64 ? ~0ull : (1ull << total) - 1;
  }

  template <class T>
  void run(const AmoOp& op, shmem_ctx_t ctx, T* nbi_slot, std::uint64_t& result) {
    using namespace amo_api;
    const Counter& k = counter(op.owner, op.c);
    T* dest = static_cast<T*>(address(op.owner, op.c));
    const T v = static_cast<T>(op.operand);
    const int pe = op.owner;
    if (op.fetch_only) {
      if (op.nbi)
        fetch_nbi(ctx, nbi_slot, dest, pe);
      else
        result = fetch(ctx, dest, pe);
      return;
    }
    auto fetching = [&](auto blocking, auto nonblocking) {
      if (op.nbi)
        nonblocking();
      else
        result = blocking();
    };
    switch (k.kind) {
      case add_chain:
      case add_mixed:
        if (op.fetching)
          fetching([&] { return fetch_add(ctx, dest, v, pe); },
                   [&] { fetch_add_nbi(ctx, nbi_slot, dest, v, pe); });
        else
          add(ctx, dest, v, pe);
        break;
      case inc_chain:
      case inc_mixed:
        if (op.fetching)
          fetching([&] { return fetch_inc(ctx, dest, pe); },
                   [&] { fetch_inc_nbi(ctx, nbi_slot, dest, pe); });
        else
          inc(ctx, dest, pe);
        break;
      case swap_chain:
        fetching([&] { return swap(ctx, dest, v, pe); },
                 [&] { swap_nbi(ctx, nbi_slot, dest, v, pe); });
        break;
      case cas_once: {
        const T init = static_cast<T>(k.init);
        fetching([&] { return compare_swap(ctx, dest, init, v, pe); },
                 [&] { compare_swap_nbi(ctx, nbi_slot, dest, init, v, pe); });
        break;
      }
      case cas_loop: {
        T guess = static_cast<T>(k.init);
        for (;;) {
          const T old = compare_swap(ctx, dest, guess, static_cast<T>(guess + 1), pe);
          if (old == guess) break;
          guess = old;
        }
        result = guess;
        break;
      }
      case and_chain:
        fetching([&] { return fetch_and(ctx, dest, static_cast<T>(~v), pe); },
                 [&] { fetch_and_nbi(ctx, nbi_slot, dest, static_cast<T>(~v), pe); });
        break;
      case or_chain:
      case or_mixed:
        if (op.fetching)
          fetching([&] { return fetch_or(ctx, dest, v, pe); },
                   [&] { fetch_or_nbi(ctx, nbi_slot, dest, v, pe); });
        else
          bit_or(ctx, dest, v, pe);
        break;
      case xor_chain:
        fetching([&] { return fetch_xor(ctx, dest, v, pe); },
                 [&] { fetch_xor_nbi(ctx, nbi_slot, dest, v, pe); });
        break;
      case kKinds:
        break;
    }
  }

  template <class Seen, class What>
  static std::set<std::uint64_t> check_chain(const Counter& k, const std::vector<const Seen*>& ops,
                                             std::uint64_t final_value, What&& what) {
    auto apply = [&](const Seen& s, std::uint64_t state) -> std::uint64_t {
      switch (k.kind) {
        case add_chain:
        case inc_chain:
        case cas_loop:
          return (state + s.op.operand) & k.mask();
        case swap_chain:
          return s.op.operand;
        case and_chain:
          return state & ~s.op.operand & k.mask();
        case or_chain:
          return state | s.op.operand;
        default:
          return (state ^ s.op.operand) & k.mask();  // xor_chain
      }
    };
    // Each state is produced once, so the operation that saw `state` is unique.
    std::map<std::uint64_t, const Seen*> by_fetched;
    for (const Seen* s : ops) {
      auto [it, fresh] = by_fetched.emplace(s->fetched, s);
      expect_true(
          fresh,
          [&] {
            return what(
                strf("pe %d op %d and pe %d op %d fetched the same value %llu (an update was "
                     "lost or applied twice)",
                     it->second->pe, it->second->j, s->pe, s->j,
                     static_cast<unsigned long long>(s->fetched)));
          },
          "distinct fetched values", "a repeated value");
    }
    std::set<std::uint64_t> states{k.init};
    std::uint64_t state = k.init;
    for (std::size_t step = 0; step < ops.size(); ++step) {
      const auto it = by_fetched.find(state);
      if (it == by_fetched.end()) {
        std::string fetched;
        for (const auto& [v, s] : by_fetched)
          fetched += strf(" %llu", static_cast<unsigned long long>(v));
        fail(what(strf("after %zu linked operations no operation fetched the state; unlinked "
                       "fetched values:%s",
                       step, fetched.c_str())),
             show(state), "none");
      }
      state = apply(*it->second, state);
      states.insert(state);
      by_fetched.erase(it);
    }
    expect_eq(state, final_value, [&] { return what("final value after the linked operations"); });
    return states;
  }

  template <class Seen, class What>
  static void check_mixed(const Counter& k, const std::vector<const Seen*>& ops,
                          std::uint64_t final_value, What&& what) {
    std::uint64_t want = k.init;
    for (const Seen* s : ops)
      want = k.kind == or_mixed ? want | s->op.operand : want + s->op.operand;
    expect_eq(want & k.mask(), final_value, [&] { return what("final value"); });
    std::set<std::uint64_t> fetched;
    for (const Seen* s : ops) {
      if (!s->op.fetching) continue;
      const std::uint64_t v = s->fetched;
      bool ok;
      if (k.kind == or_mixed) {
        ok = (v & k.init) == k.init && (v | final_value) == final_value && (v & s->op.operand) == 0;
      } else {
        ok = fetched.insert(v).second && v >= k.init && v + s->op.operand <= final_value;
      }
      expect_true(
          ok,
          [&] {
            return what(strf(
                "pe %d op %d (operand %llu) fetched %llu: repeated, or not between init and "
                "final %llu",
                s->pe, s->j, static_cast<unsigned long long>(s->op.operand),
                static_cast<unsigned long long>(v), static_cast<unsigned long long>(final_value)));
          },
          "a value some serial order produces", "an impossible value");
    }
  }

  template <class Seen, class What>
  static void check_cas_once(const Counter& k, const std::vector<const Seen*>& ops,
                             std::uint64_t final_value, What&& what) {
    const Seen* winner = nullptr;
    for (const Seen* s : ops) {
      if (s->fetched != k.init) continue;
      expect_true(
          winner == nullptr,
          [&] {
            return what(strf("pe %d op %d and pe %d op %d both swapped the initial value",
                             winner->pe, winner->j, s->pe, s->j));
          },
          "one winner", "two");
      winner = s;
    }
    if (ops.empty()) {
      expect_eq(k.init, final_value, [&] { return what("untouched counter"); });
      return;
    }
    expect_true(
        winner != nullptr, [&] { return what("no compare_swap fetched the initial value"); },
        "one winner", "none");
    expect_eq(winner->op.operand, final_value, [&] {
      return what(strf("final value (the tag of the winner, pe %d op %d)", winner->pe, winner->j));
    });
    for (const Seen* s : ops)
      if (s != winner)
        expect_eq(final_value, s->fetched, [&] {
          return what(strf("value a losing compare_swap (pe %d op %d) fetched", s->pe, s->j));
        });
  }

  std::uint64_t* counters_;
  std::uint64_t* log_;  // [source pe][op]: values fetched from this PE's counters
  std::vector<Counter> layout_;
  std::vector<AmoOp> plan_;
  std::vector<std::uint64_t> results_;
  std::vector<std::uint32_t> nbi32_;
  std::vector<std::uint64_t> nbi64_;
};

}  // namespace

std::unique_ptr<Component> make_amo_component() { return std::make_unique<AmoComponent>(); }

}  // namespace soak
