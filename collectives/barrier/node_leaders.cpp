// Barrier in three steps for a team spread over nodes: the PEs of each memory group (a node)
// notify their leader, the group's lowest team PE; the leaders run a dissemination barrier
// among themselves; then each leader releases its group. Within a node a notification is a
// store, so only the leaders' rounds cross the network: one message per leader and round where
// dissemination sends one per PE (4 PEs on 2 hosts: 2 messages instead of 4). The PEs of a node
// also leave together, right after their leader, where dissemination lets them leave up to a
// message apart; a collective that follows (a broadcast from PE 0) no longer waits for a late
// root.
//
// Each ordered pair is used once per call (member to leader, leader to member, and the
// leaders' distinct distances), so the channel's counters keep back-to-back barriers apart.
#include "collectives/algorithm.hpp"
#include "collectives/channel.hpp"
#include "collectives/leaders.hpp"
#include "collectives/tree.hpp"

namespace shoal::coll {
namespace {

// Serves teams of up to kLeadersMaxPes PEs, of more than one group, with some group of several PEs.
bool applies(const Channel &ch, const Args &) {
  if (ch.size() > kLeadersMaxPes) return false;
  const Leaders leaders(ch);
  return leaders.count > 1 && leaders.count < ch.size();
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
