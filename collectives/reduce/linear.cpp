// Linear reduction: every PE sends its vector to team PE 0, which combines the contributions in
// team-PE order ((x0 OP x1) OP x2 ...) and puts the result into every PE's dest. Simple and
// deterministic; for small teams or as a reference.
//
// Buffers: PE 0's scratch is cut into K = min(n - 1, fits) slots of one chunk each. Contribution
// s (chunk s / (n-1) of PE 1 + s % (n-1)) lands in slot s % K; PE 0 grants slot s % K to the
// sender of contribution s + K once it has combined contribution s. Every other PE grants PE 0
// its dest once, on entry, for the result.
#include <algorithm>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/reduce/chunking.hpp"

namespace shoal::coll {
namespace {

void run(Channel &ch, const Args &a) {
  using chunking::at;
  const int n = ch.size(), me = ch.rank();
  const std::size_t es = a.elem_size, senders = static_cast<std::size_t>(n - 1);
  const std::size_t budget = chunking::scratch_elems(ch, a);
  const std::size_t slots = std::min(senders, budget);
  const chunking::Chunks chunks(a.nelems, budget / slots);
  auto slot = [&](std::size_t s) { return ch.scratch() + (s % slots) * chunks.size * es; };
  auto sender = [&](std::size_t s) { return static_cast<int>(1 + s % senders); };

  if (me != 0) {
    ch.grant(0);  // PE 0 may write the result into dest
    for (std::size_t c = 0; c < chunks.count; ++c) {
      const std::size_t s = c * senders + static_cast<std::size_t>(me - 1);
      ch.await_grant(0);
      ch.send(slot(s), at(a.source, chunks.first(c), es), chunks.len(c) * es, 0);
    }
    for (std::size_t c = 0; c < chunks.count; ++c) ch.await(0);
    return;
  }

  chunking::copy_source(a);
  const std::size_t steps = chunks.count * senders;
  for (std::size_t s = 0; s < std::min(slots, steps); ++s) ch.grant(sender(s));
  for (std::size_t c = 0; c < chunks.count; ++c) {
    std::byte *result = at(a.dest, chunks.first(c), es);
    const std::size_t len = chunks.len(c);
    for (std::size_t i = 0; i < senders; ++i) {
      const std::size_t s = c * senders + i;
      ch.await(sender(s));
      a.combine(result, slot(s), len);
      if (s + slots < steps) ch.grant(sender(s + slots));
    }
    for (int pe = 1; pe < n; ++pe) {
      if (c == 0) ch.await_grant(pe);
      ch.send(result, result, len * es, pe);
    }
  }
}

}  // namespace

extern const Algorithm reduce_linear;
const Algorithm reduce_linear = {"linear", Collective::reduce, nullptr, run};

}  // namespace shoal::coll
