// The data side of the fold (tree.hpp) shared by the reductions that work among a power of two
// of PEs (recursive_doubling, rabenseifner): with p the largest power of two <= n, each extra
// PE p..n-1 first sends its vector, chunk by chunk, into the fold region of core PE e - p's
// scratch, and receives the result into its dest at the end.
//
// Credits: the extra grants its core its dest once, on entry; the core grants the fold region
// on entry for chunk 0 and again after combining each chunk but the last. Both sides consume
// them in that order.
#pragma once

#include <cstddef>

#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/reduce/chunking.hpp"
#include "collectives/tree.hpp"

namespace shoal::coll::fold {

// The whole call of an extra PE (tree::is_extra): its vector into the fold region `fold` of
// core PE `core` (tree::fold_partner), then the result into dest.
inline void run_extra(Channel &ch, const Args &a, const chunking::Chunks &chunks, std::byte *fold,
                      int core) noexcept {
  const std::size_t es = a.elem_size;
  ch.grant(core);  // core may write the result into dest
  for (std::size_t c = 0; c < chunks.count; ++c) {
    ch.await_grant(core);
    ch.send(fold, chunking::at(a.source, chunks.first(c), es), chunks.len(c) * es, core);
  }
  for (std::size_t c = 0; c < chunks.count; ++c) ch.await(core);
}

// A core PE's side of the fold; does nothing for a core PE without an extra partner.
class Partner {
 public:
  // p: the power of two the team folds to (tree::floor_power_of_two).
  Partner(Channel &ch, int p) noexcept
      : ch_(ch), extra_(tree::fold_partner(ch.rank(), p)), present_(extra_ < ch.size()) {}
  bool present() const noexcept { return present_; }
  int pe() const noexcept { return extra_; }

  // On entry: the fold region is free for chunk 0.
  void enter() noexcept {
    if (present_) ch_.grant(extra_);
  }
  // Chunk c (len elements at `mine`): combines the extra's piece in, this PE's data as the left
  // operand (me < extra), and frees the fold region for the next chunk.
  void fold_in(const Args &a, const chunking::Chunks &chunks, std::size_t c, std::byte *mine,
               const std::byte *fold) noexcept {
    if (!present_) return;
    ch_.await(extra_);
    a.combine(mine, fold, chunks.len(c));
    if (c + 1 < chunks.count) ch_.grant(extra_);
  }
  // Chunk c's result (at `mine`) into the same place of the extra's dest.
  void push_result(const Args &a, const chunking::Chunks &chunks, std::size_t c,
                   std::byte *mine) noexcept {
    if (!present_) return;
    if (c == 0) ch_.await_grant(extra_);  // its dest, granted once on entry
    ch_.send(mine, mine, chunks.len(c) * a.elem_size, extra_);
  }

 private:
  Channel &ch_;
  int extra_;
  bool present_;
};

}  // namespace shoal::coll::fold
