// The library's backend of the channel (channel.hpp): a team's channels over the runtime, with
// loads and stores into the heaps of the PEs mapped here and UCX for the others. Only the
// dispatcher makes one; the algorithms see the Channel.
#pragma once

#include <cstddef>
#include <cstdint>

#include "collectives/channel.hpp"

struct shoal_team;

namespace shoal::coll {

class RuntimeChannel final : public Channel {
 public:
  RuntimeChannel(shoal_team &team, const char *routine) noexcept;

  std::byte *mapped(const void *symmetric, int peer) const noexcept override;
  int memory_group(int peer) const noexcept override;
  // More of the job's PEs on this machine than CPUs they may run on (shoal::machine_crowded).
  bool crowded() const noexcept override;
  void put(void *dest, const void *source, std::size_t bytes, int peer) noexcept override;
  void put_strided(void *dest, const void *source, std::ptrdiff_t dest_stride,
                   std::ptrdiff_t source_stride, std::size_t nelems, std::size_t elem_size,
                   int peer) noexcept override;
  // When the data that went through UCX since the last signal went to peer alone, the
  // endpoint fence before the word orders it (one message, no round trip); otherwise the data
  // is completed first (a quiet). Across nodes, up to rma::kStoreMessageMaxBytes of data and
  // the word go in one message.
  void signal(std::uint64_t *word_here, std::uint64_t value, int peer, void *dest,
              const void *source, std::size_t bytes, bool stream = false) noexcept override;
  // One message through UCX, mapped peer or not (rma/stash.hpp).
  void signal_stashed(std::uint64_t *word_here, std::uint64_t value, int peer, const void *place,
                      const void *source, std::size_t bytes, bool stream = false) noexcept override;
  const std::byte *stashed(const void *place) const noexcept override;
  // Across nodes a pending raise of the runtime (rma::raise_eventually).
  void acknowledge(std::uint64_t *word_here, std::uint64_t value, int peer,
                   std::uint64_t slack) noexcept override;
  // The library's wait: a short spin on the word alone, then UCX progress, yields and naps.
  void wait(const std::uint64_t *word, std::uint64_t value) noexcept override;

  // The team and the routine of the call (plug-in algorithms see them, plugins.cpp).
  shoal_team &team() const noexcept { return team_; }
  const char *routine() const noexcept { return routine_; }

 private:
  int world_pe(int team_pe) const noexcept;
  // Completes what went to UCX before a message to peer when the message alone cannot order
  // it (see signal()).
  void order_before_message(int peer, bool counter_mapped, bool stream) noexcept;

  // Which team PE the puts handed to UCX since the last signal went to: kNoUcxData, one PE,
  // or kUcxDataToSeveral.
  static constexpr int kNoUcxData = -1, kUcxDataToSeveral = -2;
  void note_ucx_data(int peer) noexcept {
    ucx_data_to_ = ucx_data_to_ == kNoUcxData || ucx_data_to_ == peer ? peer : kUcxDataToSeveral;
  }

  shoal_team &team_;
  const char *routine_;
  int ucx_data_to_ = kNoUcxData;
};

}  // namespace shoal::coll
