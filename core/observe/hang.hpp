// Hang reports (SMA_HANG_TIMEOUT=S, docs/debugging.md). A watchdog thread, running only when S
// is set, wakes four times a second and looks at this PE's record (observe/record.hpp): once
// this PE has been inside one library call for S seconds, it stands for election as the job's
// reporter (a compare-and-swap on PE 0's record; only the first PE prints), prints one line per
// PE saying where each is, read from the records every PE publishes in its symmetric heap
// (through the node's mappings, or for other nodes through a UCX worker of the watchdog's own), and
// ends the job through the launcher with kHangExitStatus.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "observe/record.hpp"

namespace shoal {
class Runtime;
}

namespace shoal::observe::hang {

// The job's exit status after a hang report (the one timeout(1) uses).
inline constexpr int kExitStatus = 124;

// The watchdog thread's name, as /proc/PID/task/*/comm, top -H and gdb show it.
inline constexpr const char *kWatchdogThreadName = "shoal-watchdog";

void start_watchdog(Runtime &rt, std::size_t timeout_seconds);
void stop_watchdog() noexcept;

// One PE's line of a report, from its record (null: not readable from here). `current` is the
// value the awaited variable holds now, when the reporter could read it. Pure, for the tests.
std::string describe(int pe, const Fields *fields, std::uint64_t now_ns, const bool has_current,
                     std::uint64_t current);

}  // namespace shoal::observe::hang
