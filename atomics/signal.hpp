// Signaling operations: put-with-signal and the signal updates. A signal is a uint64_t that is
// only ever updated atomically (SET and ADD are AMOs, see amo.hpp), so it is atomic with
// shmem_signal_fetch, shmem_signal_wait_until and AMOs from other PEs; a put-with-signal makes
// the signal visible only after its data.
#pragma once

#include <cstddef>
#include <cstdint>

#include "atomics/amo.hpp"

namespace shoal::signal {

// The values of the API's SHMEM_SIGNAL_SET / SHMEM_SIGNAL_ADD (checked by the API layer).
inline constexpr int kSet = 0;
inline constexpr int kAdd = 1;

// The AMO of a sig_op; an unknown sig_op is a fatal error naming the routine.
amo::Op op_of(int sig_op, const char *routine) noexcept;

// Copies `bytes` from source to dest on pe, then updates *sig_addr on pe with `signal`.
// nbi: the data transfer may still be in flight on return (completed by quiet); the signal is
// still ordered after it.
void put_signal(shoal_ctx *ctx, void *dest, const void *source, std::size_t bytes,
                std::uint64_t *sig_addr, std::uint64_t signal, int sig_op, int pe, bool nbi,
                const char *routine) noexcept;

// shmem_signal_add / shmem_signal_set.
void update(shoal_ctx *ctx, std::uint64_t *sig_addr, std::uint64_t signal, amo::Op op, int pe,
            const char *routine) noexcept;

// Atomically reads this PE's signal.
std::uint64_t fetch(const std::uint64_t *sig_addr, const char *routine) noexcept;

}  // namespace shoal::signal
