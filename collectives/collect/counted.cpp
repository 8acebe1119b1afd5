#include "collectives/collect/counted.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

namespace shoal::coll {

namespace {

// A message: a flag (1: the blocks follow the counts), the count of each PE it holds, blocks.
using Word = std::uint64_t;

constexpr std::size_t header_bytes(std::size_t pes) noexcept { return sizeof(Word) * (1 + pes); }

Word read_word(const std::byte *message, std::size_t index) noexcept {
  Word w = 0;
  std::memcpy(&w, message + sizeof(Word) * index, sizeof w);
  return w;
}

void write_word(std::byte *message, std::size_t index, Word w) noexcept {
  std::memcpy(message + sizeof(Word) * index, &w, sizeof w);
}

// a * b, or the largest size_t on overflow.
std::size_t times(std::size_t a, std::size_t b) noexcept {
  std::size_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? std::numeric_limits<std::size_t>::max() : product;
}

bool is_power_of_two(int v) noexcept { return (v & (v - 1)) == 0; }

}  // namespace

bool CountedExchange::applies(const Channel &ch) noexcept {
  const int n = ch.size();
  if (n < 2 || n > kLeadersMaxPes || !ch.has_mailboxes()) return false;
  const Leaders leaders(ch);
  return leaders.count >= 2;
}

CountedExchange::CountedExchange(const Channel &ch) : leaders_(ch) {
  node_ = leaders_.index_of(ch.memory_group(ch.rank()));
  longest_ = is_power_of_two(leaders_.count) ? leaders_.count / 2 : 1;
  node_start_.push_back(0);
  for (int i = 0; i < leaders_.count; ++i) {
    for (int p = 0; p < ch.size(); ++p)
      if (ch.memory_group(p) == leaders_.group[i]) order_.push_back(p);
    node_start_.push_back(static_cast<int>(order_.size()));
  }
}

std::size_t CountedExchange::room() const noexcept {
  return kCountedMessageMaxBytes - header_bytes(order_.size());
}

std::size_t CountedExchange::run_bytes(const std::size_t *counts, int first, int nodes,
                                       std::size_t elem_size) const noexcept {
  std::size_t sum = 0;
  for (int i = node_start_[first]; i < node_start_[first + nodes]; ++i)
    if (__builtin_add_overflow(sum, times(counts[order_[i]], elem_size), &sum))
      return std::numeric_limits<std::size_t>::max();
  return sum;
}

// When node's blocks, times the nodes of the exchange's longest messages, fit one message with
// every count. So a leader sends its node's blocks in the doubling's first round only if blocks
// like them would fit the last round's messages, and does not send them for nothing where they
// would not (4 PEs on 4 hosts, 64 KiB blocks: 183 us where the counts alone and then
// node_leaders take 161). Every run the doubling merges then fits as well: d nodes of at most
// room / longest bytes each, d <= longest.
bool CountedExchange::carries(const std::size_t *counts, int node,
                              std::size_t elem_size) const noexcept {
  return times(run_bytes(counts, node, 1, elem_size), static_cast<std::size_t>(longest_)) <= room();
}

// A PE that is not its node's leader hands its block to the leader while the blocks of its node,
// were they all like it, would go: otherwise it would be copied for nothing (4 PEs on 2 hosts,
// 64 KiB blocks: 137 us where the counts alone took 130).
bool CountedExchange::member_sends(std::size_t count, std::size_t elem_size,
                                   int node) const noexcept {
  const auto node_pes = static_cast<std::size_t>(node_start_[node + 1] - node_start_[node]);
  return times(times(times(count, elem_size), node_pes), static_cast<std::size_t>(longest_)) <=
         room();
}

void CountedExchange::send(Channel &ch, int peer, const Run &run, std::size_t elem_size,
                           const std::size_t *counts) {
  const bool with_blocks = run.came;
  const int begin = node_start_[run.first], end = node_start_[run.first + run.nodes];
  const std::size_t header = header_bytes(static_cast<std::size_t>(end - begin));
  const std::size_t bytes = with_blocks ? run_bytes(counts, run.first, run.nodes, elem_size) : 0;
  message_.resize(header + bytes);
  write_word(message_.data(), 0, with_blocks ? 1 : 0);
  for (int i = begin; i < end; ++i)
    write_word(message_.data(), static_cast<std::size_t>(1 + i - begin), counts[order_[i]]);
  if (bytes != 0) std::memcpy(message_.data() + header, run.at, bytes);
  ch.send_stashed(ch.next_outbox(peer), message_.data(), message_.size(), peer);
}

CountedExchange::Run CountedExchange::receive(Channel &ch, int peer, int first, int nodes,
                                              std::size_t *counts) {
  ch.await(peer);
  const std::byte *message = ch.stashed(ch.next_inbox(peer));
  const int begin = node_start_[first], end = node_start_[first + nodes];
  for (int i = begin; i < end; ++i)
    counts[order_[i]] = static_cast<std::size_t>(read_word(message, 1 + i - begin));
  const bool with_blocks = read_word(message, 0) != 0;
  if (!with_blocks) return {first, nodes};
  return {first, nodes, message + header_bytes(static_cast<std::size_t>(end - begin)), true};
}

CountedExchange::Run CountedExchange::gather_node(Channel &ch, void *dest, const void *source,
                                                  std::size_t elem_size, std::size_t *counts) {
  const int begin = node_start_[node_], end = node_start_[node_ + 1];
  const Run none{node_, 1};
  if (end - begin == 1)
    return carries(counts, node_, elem_size)
               ? Run{node_, 1, static_cast<const std::byte *>(source), true}
               : none;
  // Each member's block waits at the start of its dest (a load from here), until its leader's
  // answer: the member does not return before.
  const std::byte *blocks[kLeadersMaxPes] = {static_cast<const std::byte *>(source)};
  bool all_came = true;
  for (int i = begin + 1; i < end; ++i) {
    const int member = order_[i];
    ch.await(member);
    const std::byte *box = ch.next_inbox(member);
    counts[member] = static_cast<std::size_t>(read_word(box, 1));
    blocks[i - begin] = read_word(box, 0) != 0 ? ch.mapped(dest, member) : nullptr;
    all_came = all_came && (blocks[i - begin] != nullptr || counts[member] == 0);
  }
  if (!all_came || !carries(counts, node_, elem_size)) return none;
  held_.resize(run_bytes(counts, node_, 1, elem_size));
  std::byte *at = held_.data();
  for (int i = begin; i < end; ++i) {
    const std::size_t bytes = counts[order_[i]] * elem_size;
    if (bytes != 0) std::memcpy(at, blocks[i - begin], bytes);
    at += bytes;
  }
  return {node_, 1, held_.data(), true};
}

// In the round of distance d, leader i holds the nodes [i & ~(d-1), + d) and exchanges them with
// leader i ^ d; the runs are merged in held_ for the next round, and the last round's two are
// placed.
void CountedExchange::exchange_doubling(Channel &ch, const Run &own, std::size_t elem_size,
                                        std::size_t *counts) {
  const int k = leaders_.count;
  Run mine = own;
  for (int d = 1; d < k; d *= 2) {
    const int partner = node_ ^ d;
    const int peer = leaders_.rank[partner];
    send(ch, peer, mine, elem_size, counts);
    const Run theirs = receive(ch, peer, partner & ~(d - 1), d, counts);
    if (2 * d == k) {
      runs_ = {mine, theirs};
      return;
    }
    const Run &low = mine.first < theirs.first ? mine : theirs;
    const Run &high = mine.first < theirs.first ? theirs : mine;
    if (!mine.came || !theirs.came) {
      mine = {low.first, 2 * d};
      continue;
    }
    const std::size_t low_bytes = run_bytes(counts, low.first, d, elem_size);
    const std::size_t high_bytes = run_bytes(counts, high.first, d, elem_size);
    merged_.resize(low_bytes + high_bytes);
    if (low_bytes != 0) std::memcpy(merged_.data(), low.at, low_bytes);
    if (high_bytes != 0) std::memcpy(merged_.data() + low_bytes, high.at, high_bytes);
    std::swap(held_, merged_);  // mine.at may point into the old held_
    mine = {low.first, 2 * d, held_.data(), true};
  }
}

void CountedExchange::exchange_direct(Channel &ch, const Run &own, std::size_t elem_size,
                                      std::size_t *counts) {
  const int k = leaders_.count;
  // Starting after this node, so that not every leader sends to node 0's first.
  for (int d = 1; d < k; ++d) send(ch, leaders_.rank[(node_ + d) % k], own, elem_size, counts);
  runs_ = {own};
  for (int d = 1; d < k; ++d) {
    const int other = (node_ + k - d) % k;
    runs_.push_back(receive(ch, leaders_.rank[other], other, 1, counts));
  }
}

void CountedExchange::answer_members(Channel &ch, bool complete, const std::size_t *counts) {
  const int begin = node_start_[node_], end = node_start_[node_ + 1];
  const Word answer[2] = {complete ? Word{1} : Word{0}, total_};
  const std::size_t n = order_.size();
  if (!complete) {
    message_.resize(sizeof(Word) * n);
    for (std::size_t p = 0; p < n; ++p) write_word(message_.data(), p, counts[p]);
  }
  for (int i = begin + 1; i < end; ++i) {
    const int member = order_[i];
    ch.send(ch.next_outbox(member), answer, sizeof answer, member);
    if (complete) continue;
    // Two messages in a row: the mailboxes alternate, and the member has read both before it
    // sends the note that lets this leader write the first again.
    std::byte *box = ch.next_outbox(member);
    if (message_.size() <= ch.box_bytes())
      ch.send(box, message_.data(), message_.size(), member);
    else
      ch.send_stashed(box, message_.data(), message_.size(), member);
  }
}

bool CountedExchange::exchange(Channel &ch, void *dest, const void *source, std::size_t nelems,
                               std::size_t elem_size, std::size_t *counts) {
  const int me = ch.rank();
  const int leader = leaders_.rank[node_];
  counts[me] = nelems;
  if (me != leader) {
    // The block waits for the leader at the start of dest, where it loads it.
    const bool with_block =
        member_sends(nelems, elem_size, node_) && ch.mapped(dest, leader) != nullptr;
    if (with_block) ch.put(dest, source, nelems * elem_size, me);
    const Word note[2] = {with_block ? Word{1} : Word{0}, nelems};
    ch.send(ch.next_outbox(leader), note, sizeof note, leader);
    ch.await(leader);
    const std::byte *answer = ch.next_inbox(leader);
    runs_.clear();  // the leader placed the blocks
    if (read_word(answer, 0) != 0) {
      total_ = static_cast<std::size_t>(read_word(answer, 1));
      return true;
    }
    ch.await(leader);
    const std::byte *box = ch.next_inbox(leader);
    const std::size_t n = order_.size();
    const std::byte *all = sizeof(Word) * n <= ch.box_bytes() ? box : ch.stashed(box);
    for (std::size_t p = 0; p < n; ++p) counts[p] = static_cast<std::size_t>(read_word(all, p));
    return false;
  }
  const Run own = gather_node(ch, dest, source, elem_size, counts);
  if (is_power_of_two(leaders_.count))
    exchange_doubling(ch, own, elem_size, counts);
  else
    exchange_direct(ch, own, elem_size, counts);
  // Every leader saw the same messages' flags (the doubling's last round: both halves' runs,
  // each of whose blocks went only if every node's in it did).
  for (const Run &run : runs_)
    if (!run.came) {
      answer_members(ch, false, counts);
      return false;
    }
  total_ = 0;
  for (std::size_t p = 0; p < order_.size(); ++p) total_ += counts[p];
  return true;
}

void CountedExchange::place(Channel &ch, void *dest, std::size_t elem_size,
                            const std::size_t *counts) {
  if (runs_.empty()) return;  // not a leader: done in exchange()
  std::vector<std::size_t> displs(order_.size() + 1, 0);
  for (std::size_t p = 0; p < order_.size(); ++p) displs[p + 1] = displs[p] + counts[p];
  auto *to = static_cast<std::byte *>(dest);
  for (const Run &run : runs_) {
    const std::byte *at = run.at;
    for (int i = node_start_[run.first]; i < node_start_[run.first + run.nodes]; ++i) {
      const int p = order_[i];
      const std::size_t bytes = counts[p] * elem_size;
      // memmove: this PE's own block comes from source, which a program may have placed in dest.
      if (bytes != 0) std::memmove(to + displs[p] * elem_size, at, bytes);
      at += bytes;
    }
  }
  const std::size_t total = displs.back() * elem_size;
  for (int i = node_start_[node_] + 1; i < node_start_[node_ + 1]; ++i)
    ch.put(dest, dest, total, order_[i]);
  answer_members(ch, true, counts);
}

}  // namespace shoal::coll
