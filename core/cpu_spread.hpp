// PEs that outnumber their CPUs spreading themselves evenly over those CPUs, without binding.
//
// A wait on a machine that runs more PEs than CPUs yields rather than sleeps (wait.hpp), so every
// PE stays runnable and the kernel's balancer, which rebalances busy CPUs only every few tens of
// milliseconds, leaves uneven placements standing: 4 PEs on 2 CPUs spent whole 50 ms stretches
// three on one CPU and one on the other, where a barrier takes twice as long (21-22 us against
// 10.3-10.7 on the VMs of 2026-12; the same with OSHMEM when pinned so). Binding the PEs fixes
// that (oshrun --bind-to core), but a crowded node of bound PEs once stalled another job's
// oshrun for 30 s (docs/cluster.md), so oshrun leaves such PEs unbound.
//
// Instead, in a job on one node that is alone with its PEs on the machine's CPUs (no PEs of
// other nodes of the job on the same kernel), while the main thread of such a PE waits, it
// publishes the CPU it runs on (a slot in its record area, which the node's PEs map) every
// kCpuSpreadProbeNs, and reads its neighbours'. A PE that shares its CPU with more of them than an
// even spread gives, and is the lowest-numbered PE there, moves to the CPU with the fewest: it
// allows itself that CPU alone, which migrates it, then its whole former set again, so that it
// stays unbound and the kernel may move it later.
#pragma once

#include <sched.h>

#include <atomic>
#include <cstdint>
#include <span>

namespace shoal {

// Where a PE publishes its CPU: in its record area, at observe::kCpuSlotOffset.
struct CpuSlot {
  std::atomic<std::int32_t> cpu;       // the CPU the PE's main thread ran on, -1: none yet
  std::atomic<std::uint64_t> seen_ns;  // when (CLOCK_MONOTONIC), 0: never
};

// The CPU the PE that reported `cpus[me]` should move to, or -1 to stay. `cpus` holds the CPU
// each PE of the node reported lately, -1 for none (a PE that does not wait, or not lately);
// `allowed`: the CPUs this PE may run on. Only PEs on allowed CPUs count. It moves when more of
// them share its CPU than an even spread over the allowed CPUs gives (rounded up), it is the
// lowest-numbered PE there (one mover per CPU and round), and an allowed CPU has fewer PEs than
// that spread; to the one with the fewest (the lowest-numbered on a tie).
int cpu_to_move_to(std::span<const std::int32_t> cpus, int me, const cpu_set_t &allowed) noexcept;

// Called by a wait that yields on a machine that runs more PEs than CPUs (Backoff::idle):
// publishes this PE's CPU and moves it as cpu_to_move_to says, at most every kCpuSpreadProbeNs
// (a move is two system calls and a migration). Only on the program's main thread: the slot is
// the PE's, and another thread of it may run anywhere.
void spread_crowded_pes() noexcept;

inline constexpr std::uint64_t kCpuSpreadProbeNs = 1'000'000;
// A CPU reported longer ago than this is not counted: that PE has not waited since (it
// computes, or has ended). A PE that computes between waits still counts where it last waited,
// so that waiting PEs do not crowd onto its CPU.
inline constexpr std::uint64_t kCpuSpreadFreshNs = 100'000'000;
// After a move, the PE probes again only this much later, once the others have seen it.
inline constexpr std::uint64_t kCpuSpreadSettleNs = 5'000'000;

}  // namespace shoal
