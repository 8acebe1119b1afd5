#include "soak_area.hpp"

#include <shmem.h>

#include "soak_check.hpp"

namespace soak {

SlotArea::SlotArea(void* base, std::size_t capacity, int ops_per_source)
    : base_(static_cast<std::uint8_t*>(base)),
      capacity_(capacity),
      ops_(ops_per_source),
      npes_(shmem_n_pes()) {}

std::size_t SlotArea::max_slot_bytes() const {
  return capacity_ / static_cast<std::size_t>(npes_ * ops_) / 16 * 16;
}

void SlotArea::begin_round(std::size_t slot_bytes, std::string_view tag) {
  slot_bytes_ = (slot_bytes + 15) / 16 * 16;
  if (slot_bytes_ > max_slot_bytes()) {
    fail(strf("%.*s: slot of %zu bytes in an area of %zu", static_cast<int>(tag.size()), tag.data(),
              slot_bytes_, capacity_),
         "a slot that fits", "too large (test bug)");
  }
  background_ = round_key(tag, hash_tag("background"), g_run.me);
  Pattern(background_).fill(base_, 0, slot_bytes_ * static_cast<std::size_t>(npes_ * ops_));
}

std::uint8_t* SlotArea::slot(int src, int op) const {
  return base_ + static_cast<std::size_t>(src * ops_ + op) * slot_bytes_;
}

void SlotArea::verify_slot(int src, int op, const std::vector<const Write*>& writes,
                           const std::string& (*describe)(const void*, int, int),
                           const void* ctx) const {
  const std::uint8_t* got = slot(src, op);
  std::vector<std::uint8_t> want(slot_bytes_);
  Pattern(background_).fill(want.data(), static_cast<std::size_t>(got - base_), slot_bytes_);
  for (const Write* w : writes) Pattern(w->payload).fill(want.data() + w->off, w->from, w->len);
  expect_bytes(want.data(), got, slot_bytes_, [&] {
    return describe(ctx, src, op) + strf(" (slot of pe %d op %d, %zu bytes)", src, op, slot_bytes_);
  });
}

}  // namespace soak
