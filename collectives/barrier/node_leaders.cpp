// Barrier in three steps for a team spread over nodes: the PEs of each memory group (a node)
// notify their leader, the group's lowest team PE; the leaders run a dissemination barrier
// among themselves; then each leader releases its group. Within a node a notification is a
// store, so only the leaders' rounds cross the network: one message per leader and round where
// dissemination sends one per PE (4 PEs on 2 hosts: 2 messages instead of 4). The PEs of a node
// also leave together, right after their leader, where dissemination lets them leave up to a
// message apart; a collective that follows (a broadcast from PE 0) no longer waits for a late
// root.
//
// It also serves a team on one node whose machine runs more PEs than CPUs (Channel::crowded):
// there the one leader, team PE 0, gathers and releases the team. Each other PE then waits for
// one PE, where dissemination chains ceil(log2 n) waits, any of which may find its peer off the
// CPU: 8 PEs on 2 CPUs took 8.6 us a barrier against 11.9, 4 PEs the same; and a broadcast from
// PE 0 right after it found its readers waiting: 0.16 us against 1.4-2.4 (4 PEs, 2 CPUs). With
// a CPU per PE, dissemination stays: 2 PEs took 0.10 us against 0.13 gathered. So does a team
// of 2 on a crowded machine: dissemination's one exchange also waits for one PE, where a
// gather makes PE 1 wait for a round trip (2 PEs on one CPU: 1.5 us against 3.0).
//
// Each ordered pair is used once per call (member to leader, leader to member, and the
// leaders' distinct distances), so the channel's counters keep back-to-back barriers apart.
#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/leaders.hpp"
#include "collectives/tree.hpp"

namespace shoal::coll {
namespace {

// Serves teams of up to kLeadersMaxPes PEs: of more than one group, with some group of several
// PEs; or of one group of more than 2 PEs, on a crowded machine.
bool applies(const Channel &ch, const Args &) {
  if (ch.size() > kLeadersMaxPes) return false;
  const Leaders leaders(ch);
  if (leaders.count == 1) return ch.size() > 2 && ch.crowded();
  return leaders.count < ch.size();
}

void run(Channel &channel, const Args &) {
  const int n = channel.size(), me = channel.rank();
  const int group = channel.memory_group(me);
  const Leaders leaders(channel);
  const int mine = leaders.index_of(group);
  const int leader = leaders.rank[mine];
  if (leader != me) {
    channel.notify(leader);
    channel.await(leader);
    return;
  }
  // The leader: its group's arrivals, the leaders' dissemination, the release.
  for (int p = me + 1; p < n; ++p)
    if (channel.memory_group(p) == group) channel.await(p);
  for (int distance = 1; distance < leaders.count; distance *= 2) {
    channel.notify(leaders.rank[tree::ahead(mine, distance, leaders.count)]);
    channel.await(leaders.rank[tree::behind(mine, distance, leaders.count)]);
  }
  for (int p = me + 1; p < n; ++p)
    if (channel.memory_group(p) == group) channel.notify(p);
}

}  // namespace

extern const Algorithm barrier_node_leaders;
const Algorithm barrier_node_leaders = {"node_leaders", Collective::barrier, applies, run};

}  // namespace shoal::coll
