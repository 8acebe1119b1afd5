// A receive area on every PE with one slot per (source PE, operation index), so concurrent
// writers never overlap and every byte of every slot has a known value: the round's background
// or one source's payload. The area lives in symmetric memory: the heap or a static array.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "soak_random.hpp"

namespace soak {

class SlotArea {
 public:
  // `base`: symmetric memory of `capacity` bytes; `ops_per_source` slots for each PE.
  SlotArea(void* base, std::size_t capacity, int ops_per_source);

  int ops_per_source() const { return ops_; }
  // Largest slot this area can hold (slot sizes are multiples of 16).
  std::size_t max_slot_bytes() const;
  // Local: lays out slots of `slot_bytes` and fills them with the round's background.
  void begin_round(std::size_t slot_bytes, std::string_view tag);
  std::size_t slot_bytes() const { return slot_bytes_; }
  // Symmetric address of a slot (the same expression on every PE).
  std::uint8_t* slot(int src, int op) const;

  // What some PE wrote into one of this PE's slots: bytes [from, from + len) of a payload
  // stream at offset `off` of slot (src, op).
  struct Write {
    int src, op;
    std::size_t off, len;
    std::uint64_t payload;
    std::size_t from;
  };
  // Checks every slot against the background overlaid with `writes`. `describe(src, op)`
  // names the slot's operation in a failure message.
  template <class Describe>
  void verify(const std::vector<Write>& writes, Describe&& describe) const;

 private:
  void verify_slot(int src, int op, const std::vector<const Write*>& writes,
                   const std::string& (*describe)(const void*, int, int), const void* ctx) const;
  std::uint8_t* base_;
  std::size_t capacity_;
  int ops_;
  int npes_;
  std::size_t slot_bytes_ = 0;
  std::uint64_t background_ = 0;
};

template <class Describe>
void SlotArea::verify(const std::vector<Write>& writes, Describe&& describe) const {
  struct Ctx {
    Describe* describe;
    std::string text;
  } ctx{&describe, {}};
  auto call = [](const void* c, int src, int op) -> const std::string& {
    auto* x = static_cast<Ctx*>(const_cast<void*>(c));
    x->text = (*x->describe)(src, op);
    return x->text;
  };
  std::vector<std::vector<const Write*>> by_slot(static_cast<std::size_t>(npes_ * ops_));
  for (const Write& w : writes)
    by_slot[static_cast<std::size_t>(w.src * ops_ + w.op)].push_back(&w);
  for (int s = 0; s < npes_ * ops_; ++s)
    verify_slot(s / ops_, s % ops_, by_slot[static_cast<std::size_t>(s)], call, &ctx);
}

}  // namespace soak
