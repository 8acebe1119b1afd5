// What must hold when the PEs of one job run on several hosts (the netns test bed of
// run_multihost.sh, or a real cluster):
//   * the job really spans SHOAL_MULTIHOST_HOSTS hosts (default 1), told apart by hostname
//     (every host of the test bed has its own);
//   * SHMEM_TEAM_SHARED holds exactly the PEs of this PE's host, in world order;
//   * shmem_ptr gives a direct pointer to the heaps of PEs on this host and to no other
//     (with SMA_SHARED_MEMORY=0, to none but this PE's own): the test bed's hosts share
//     /dev/shm, so mapping a PE of another host would "work" here and silently break on a
//     cluster;
//   * one counter hit by every PE at once, by CPU atomics from its host's PEs and by UCX
//     atomics from the other hosts' PEs, loses no update and never goes backwards;
//   * a put + signal to a PE on another host delivers the data before the signal.
#include "mpp_test.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

using namespace shoal::test;

namespace {

constexpr std::size_t kNameBytes = 64;
char g_hostnames[kMaxPes][kNameBytes];  // symmetric (bss): every PE's hostname

int env_int(const char *name, int fallback) {
  const char *s = std::getenv(name);
  return (s != nullptr && *s != '\0') ? std::atoi(s) : fallback;
}

// Every PE writes its hostname into slot me() of every PE; returns them all.
std::vector<std::string> all_hostnames() {
  char mine[kNameBytes] = {};
  gethostname(mine, sizeof mine - 1);
  shmem_barrier_all();
  for (int pe = 0; pe < npes(); ++pe) shmem_putmem(g_hostnames[me()], mine, kNameBytes, pe);
  shmem_barrier_all();
  std::vector<std::string> names;
  for (int pe = 0; pe < npes(); ++pe) names.emplace_back(g_hostnames[pe]);
  return names;
}

std::vector<int> pes_on_host(const std::vector<std::string> &names, const std::string &host) {
  std::vector<int> pes;
  for (int pe = 0; pe < static_cast<int>(names.size()); ++pe)
    if (names[pe] == host) pes.push_back(pe);
  return pes;
}

std::string list_of(const std::vector<int> &pes) {
  std::string s;
  for (int pe : pes) s += (s.empty() ? "" : ",") + std::to_string(pe);
  return s;
}

}  // namespace

TEST(Multihost, PesOnEveryExpectedHost) {
  const auto names = all_hostnames();
  const std::set<std::string> hosts(names.begin(), names.end());
  const int expected = env_int("SHOAL_MULTIHOST_HOSTS", 1);
  EXPECT_EQ(static_cast<int>(hosts.size()), expected)
      << "the job spans " << hosts.size() << " hosts, expected " << expected;
  if (me() == 0) {
    for (const auto &h : hosts)
      std::printf("[multihost] host %s: PEs %s\n", h.c_str(),
                  list_of(pes_on_host(names, h)).c_str());
    std::fflush(stdout);
  }
}

TEST(Multihost, TeamSharedIsExactlyThisHost) {
  const auto names = all_hostnames();
  const std::vector<int> expected = pes_on_host(names, names[me()]);
  std::vector<int> members;
  const int n = shmem_team_n_pes(SHMEM_TEAM_SHARED);
  for (int i = 0; i < n; ++i)
    members.push_back(shmem_team_translate_pe(SHMEM_TEAM_SHARED, i, SHMEM_TEAM_WORLD));
  EXPECT_EQ(list_of(members), list_of(expected)) << "SHMEM_TEAM_SHARED on host " << names[me()];
  const int my_index = shmem_team_my_pe(SHMEM_TEAM_SHARED);
  ASSERT_GE(my_index, 0);
  ASSERT_LT(my_index, static_cast<int>(members.size()));
  EXPECT_EQ(members[my_index], me());
  shmem_barrier_all();
}

// Heap memory only: the data segment (globals) is never mapped across processes.
TEST(Multihost, DirectPointersOnlyToThisHost) {
  const auto names = all_hostnames();
  const bool shared_memory = env_int("SMA_SHARED_MEMORY", 1) != 0;
  SymArray<long> target(1);
  SHOAL_ASSERT_ALL_PES(target);
  for (int pe = 0; pe < npes(); ++pe) {
    const bool mappable = pe == me() || (shared_memory && names[pe] == names[me()]);
    const void *p = shmem_ptr(target.get(), pe);
    EXPECT_EQ(p != nullptr, mappable)
        << "shmem_ptr to PE " << pe << " on host " << names[pe] << " from host " << names[me()];
  }
  shmem_barrier_all();
}

// Every PE adds to the counter of every PE, alternating fetch_add (recorded: must never go
// backwards) and compare_swap increments, so the CPU and UCX executors race on each word.
TEST(Multihost, MixedOnHostAndRemoteAtomicsOnOneCounter) {
  constexpr int kRounds = 50;
  SymArray<long> counter(1);
  SHOAL_ASSERT_ALL_PES(counter);
  counter[0] = 0;
  shmem_barrier_all();
  std::vector<long> last_seen(static_cast<std::size_t>(npes()), 0);
  long backwards = 0;
  for (int round = 0; round < kRounds; ++round) {
    for (int k = 0; k < npes(); ++k) {
      const int target = (me() + k) % npes();
      const long before = shmem_long_atomic_fetch_add(counter.get(), 1, target);
      if (before < last_seen[target]) ++backwards;  // below what this PE itself left there
      long expected = before + 1;
      for (;;) {  // compare-swap increment by 2, retried with the value found
        const long found =
            shmem_long_atomic_compare_swap(counter.get(), expected, expected + 2, target);
        if (found == expected) break;
        if (found < expected) ++backwards;
        expected = found;
      }
      last_seen[target] = expected + 2;
    }
  }
  shmem_barrier_all();
  EXPECT_EQ(backwards, 0) << "values fetched from a counter went backwards";
  EXPECT_EQ(counter[0], static_cast<long>(npes()) * kRounds * 3)
      << "updates were lost on PE " << me();
  shmem_barrier_all();
}

// PE k sends a block and a signal to every other PE; the data must be complete once the
// signal is seen.
TEST(Multihost, PutWithSignalAcrossHosts) {
  constexpr std::size_t kWords = 64 * 1024;  // 512 KiB: several TCP segments
  SymArray<long> data(kWords * static_cast<std::size_t>(npes()));
  SymArray<uint64_t> signals(static_cast<std::size_t>(npes()));
  SHOAL_ASSERT_ALL_PES(data && signals);
  for (int pe = 0; pe < npes(); ++pe) signals[pe] = 0;
  std::vector<long> block(kWords);
  for (std::size_t i = 0; i < kWords; ++i) block[i] = value_of<long>(me(), i);
  shmem_barrier_all();
  for (int k = 1; k < npes(); ++k) {
    const int target = (me() + k) % npes();
    shmem_long_put_signal(data.get() + kWords * me(), block.data(), kWords, &signals[me()], 1,
                          SHMEM_SIGNAL_SET, target);
  }
  for (int k = 1; k < npes(); ++k) {
    const int source = (me() + npes() - k) % npes();
    shmem_uint64_wait_until(&signals[source], SHMEM_CMP_EQ, 1);
    const std::string what = "block from PE " + std::to_string(source);
    EXPECT_TRUE(check_range(what.c_str(), data.get() + kWords * source, 0, kWords,
                            [&](std::size_t i) { return value_of<long>(source, i); }));
  }
  shmem_barrier_all();
}
