// The collective operations: argument checks, the cases every algorithm would otherwise repeat
// (teams of one PE and zero-length calls, completed by alone.hpp; collect's exchange of counts),
// then the algorithm the registry picks, run on the team's channels.
#include <fmt/format.h>

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "collectives/alone.hpp"
#include "collectives/call_check.hpp"
#include "collectives/collect/counted.hpp"
#include "collectives/plugins.hpp"
#include "collectives/runtime_channel.hpp"
#include "collectives/collectives.hpp"
#include "collectives/registry.hpp"
#include "collectives/slots.hpp"
#include "ctx/context.hpp"
#include "log/log.hpp"
#include "observe/observe.hpp"
#include "rma/rma.hpp"
#include "runtime.hpp"
#include "team/team.hpp"

namespace shoal::coll {
namespace {

// The team of a collective call, or null after an error message (invalid or destroyed team, or
// this PE is not one of its members). A call outside shmem_init..shmem_finalize is fatal.
shoal_team *member_team(shmem_team_t handle, const char *routine) noexcept {
  rma::check_ctx(&shoal_ctx_default, routine);
  shoal_team *team = team::lookup(handle, routine);
  if (team == nullptr) return nullptr;
  if (team->my_pe < 0) {
    SMA_LOG_ERROR("coll", "{}: PE {} is not a member of team {}", routine, g_runtime->my_pe,
                  static_cast<const void *>(team));
    return nullptr;
  }
  return team;
}

// Checks a collective's buffers before any PE is contacted: `elems` elements of elem_size bytes
// at source (local; only its size is checked) and `dest_elems` at dest, which must be
// symmetric memory of this PE. A negative count, a size that overflows, a destination that is
// not symmetric or runs past the end of its segment is fatal, naming the routine.
void check_buffers(void *dest, std::size_t dest_elems, const void *source, std::size_t elems,
                   std::size_t elem_size, const char *routine) noexcept {
  const int me = g_runtime->my_pe;
  (void)rma::byte_size(elems, elem_size, source, me, routine);
  (void)rma::resolve(dest, rma::byte_size(dest_elems, elem_size, dest, me, routine), me, routine);
}

// Elements the destination of a call whose every PE contributes `nelems` holds: n_pes * nelems,
// or a fatal error when that is more than any object can hold.
std::size_t times_pes(const shoal_team &team, std::size_t nelems, void *dest,
                      const char *routine) noexcept {
  std::size_t total = 0;
  if (__builtin_mul_overflow(nelems, static_cast<std::size_t>(team.n_pes), &total) ||
      total > static_cast<std::size_t>(PTRDIFF_MAX))
    fatal(fmt::format("{}: count {} per PE times {} PEs at {} (PE {}) overflows", routine, nelems,
                      team.n_pes, dest, g_runtime->my_pe));
  return total;
}

// The arguments every collective with a per-PE vector has in common.
Args vector_args(void *dest, const void *source, std::size_t nelems, std::size_t elem_size) {
  Args args;
  args.dest = dest;
  args.source = source;
  args.nelems = nelems;
  args.elem_size = elem_size;
  args.message_bytes = nelems * elem_size;
  return args;
}

bool in_heap(const void *p) noexcept {
  return reinterpret_cast<std::uintptr_t>(p) - g_runtime->heap_base < g_runtime->heap_size;
}

// In the part of the data segment that the PEs of a node map (globals after RELRO).
bool in_shared_globals(const void *p) noexcept {
  const Runtime &rt = *g_runtime;
  return reinterpret_cast<std::uintptr_t>(p) - rt.data_base - rt.data_shared_offset <
         rt.data_size - rt.data_shared_offset;
}

// Whether every member of the team has its heap (globals: the shared part of its data
// segment) mapped here; worked out once per team.
bool all_mapped(shoal_team &team, bool globals) noexcept {
  signed char &known = globals ? team.globals_mapped : team.heaps_mapped;
  if (known < 0) {
    bool all = true;
    for (const int pe : team.members) {
      const PeerView &peer = g_runtime->peers[static_cast<std::size_t>(pe)];
      all = all && (globals ? peer.data_shared : peer.heap_mapped != nullptr);
    }
    known = all ? 1 : 0;
  }
  return known == 1;
}

// Whether symmetric buffer p (or none) can be read and written directly at every member.
bool mapped_at_all(shoal_team &team, const void *p) noexcept {
  if (p == nullptr) return true;
  if (in_heap(p)) return true;
  return in_shared_globals(p) && all_mapped(team, true);
}

void run(Collective c, shoal_team &team, Args &args, const char *routine) noexcept {
  if (needs_no_algorithm(c, team.n_pes, args)) return complete_alone(c, team.n_pes, args);
  RuntimeChannel channel(team, routine);
  args.direct =
      all_mapped(team, false) && mapped_at_all(team, args.dest) && mapped_at_all(team, args.source);
  const Algorithm &algorithm = select(c, channel, args);
  SMA_LOG_DEBUG("coll", "{}: {} on {} PEs, {} bytes: {}", routine, collective_name(c), team.n_pes,
                args.message_bytes, algorithm.name);
  observe::note_algorithm(collective_name(c), algorithm.name);  // SMA_PROFILE
  if (algorithm.plugin != nullptr) return plugins::run(algorithm, channel, args);
  algorithm.run(channel, args);
}

// Runs a collect (fixed = false) or fcollect whose counts are known on every PE.
void gather(Collective c, shoal_team &team, void *dest, const void *source, std::size_t elem_size,
            const std::vector<std::size_t> &counts, std::size_t message_bytes,
            const char *routine) noexcept {
  std::vector<std::size_t> displs(counts.size());
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), std::size_t{0});
  Args args;
  args.dest = dest;
  args.source = source;
  args.nelems = counts[static_cast<std::size_t>(team.my_pe)];
  args.elem_size = elem_size;
  args.counts = counts.data();
  args.displs = displs.data();
  args.total = displs.back() + counts.back();
  args.message_bytes = message_bytes;
  if (args.total == 0) return;
  run(c, team, args, routine);
}

// A collect's first step where its team has records (slot_state.hpp): one fcollect of a record
// per PE, its count and, when it fits, its block. Fills counts; true when every block came in
// the records (place_records then finishes the call: one exchange where the counts and the
// data took one each). A collect of larger blocks goes on as before, with the counts known.
// Across two namespace hosts a 2-PE collect of 8 B took 17 us in two exchanges.
bool gather_records(shoal_team &team, Slot &slot, const void *source, std::size_t nelems,
                    std::size_t elem_size, std::vector<std::size_t> &counts,
                    const char *routine) noexcept {
  std::byte record[kRecordBytes] = {};  // the unused part travels too: records are fixed blocks
  const std::uint64_t mine = nelems;
  std::memcpy(record, &mine, sizeof mine);
  const std::size_t bytes = nelems * elem_size;
  if (bytes != 0 && bytes <= kRecordData) std::memcpy(record + sizeof mine, source, bytes);
  gather(Collective::fcollect, team, slot.records, record, kRecordBytes,
         std::vector<std::size_t>(counts.size(), 1), kRecordBytes, routine);
  bool all_in_records = true;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    std::uint64_t count = 0;
    std::memcpy(&count, slot.records + i * kRecordBytes, sizeof count);
    counts[i] = count;
    all_in_records = all_in_records && count <= kRecordData / elem_size;
  }
  return all_in_records;
}

// Copies every PE's block from its record into dest, in team PE order.
void place_records(const Slot &slot, void *dest, std::size_t elem_size,
                   const std::vector<std::size_t> &counts) noexcept {
  auto *at = static_cast<std::byte *>(dest);
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const std::size_t bytes = counts[i] * elem_size;
    if (bytes != 0) std::memcpy(at, slot.records + i * kRecordBytes + sizeof(std::uint64_t), bytes);
    at += bytes;
  }
}

// Checks that dest holds the blocks of every PE (total elements) and notes how the call was
// served.
void check_gathered(void *dest, const void *source, std::size_t nelems, std::size_t elem_size,
                    std::size_t total, const char *how, const char *routine) noexcept {
  if (total != 0) check_buffers(dest, total, source, nelems, elem_size, routine);
  observe::note_algorithm(collective_name(Collective::collect), how);  // SMA_PROFILE
}

// A collect's first step: where the blocks came along (teams over several nodes:
// CountedExchange; small blocks: the records), places them in dest and returns true: the call
// is complete. Otherwise every PE has learnt every PE's count (counts).
bool exchange_counts(shoal_team &team, void *dest, const void *source, std::size_t nelems,
                     std::size_t elem_size, std::vector<std::size_t> &counts,
                     const char *routine) noexcept {
  Slot &slot = channel_slot(team);
  const bool builtin = uses_builtin_rules(Collective::collect);
  if (builtin && team.n_pes > 1) {
    RuntimeChannel channel(team, routine);
    if (CountedExchange::applies(channel)) {
      CountedExchange counted(channel);
      if (!counted.exchange(channel, dest, source, nelems, elem_size, counts.data())) return false;
      check_gathered(dest, source, nelems, elem_size, counted.total(), "counted", routine);
      counted.place(channel, dest, elem_size, counts.data());
      return true;
    }
  }
  if (slot.records != nullptr && team.n_pes <= slot.record_peers && builtin) {
    if (!gather_records(team, slot, source, nelems, elem_size, counts, routine)) return false;
    check_gathered(dest, source, nelems, elem_size,
                   std::accumulate(counts.begin(), counts.end(), std::size_t{0}), "records",
                   routine);
    place_records(slot, dest, elem_size, counts);
    return true;
  }
  // An fcollect of one word per PE into the slot's count array.
  const std::uint64_t mine = nelems;
  gather(Collective::fcollect, team, slot.counts, &mine, sizeof mine,
         std::vector<std::size_t>(counts.size(), 1), sizeof mine, routine);
  counts.assign(slot.counts, slot.counts + counts.size());
  return false;
}

}  // namespace

Failure init_collectives(Runtime &rt) {
  slots::attach(rt.library_area, rt.config, rt.n_pes);
  // Plug-ins first: the rules may name their algorithms.
  if (Failure f = plugins::load(rt.config.coll_plugins, rt.config.source_of("COLL_PLUGINS")))
    return f;
  if (Failure f = init_selection(rt.config)) return f;
  // Fresh memory: no clearing (a faster PE may have signalled already).
  slots::assign(shoal_team_world, 0, false, 0);
  slots::assign(shoal_team_shared, 1, false, 0);
  slots::bind(active_sets_slot(), 2, rt.n_pes, false, 0);
  if (rt.my_pe == 0 && rt.config.info) std::fputs(describe_selection().c_str(), stdout);
  return {};
}

void finalize_collectives() noexcept {
  slots::detach();
  plugins::unload();
}

int sync(shoal_team *handle, const char *routine) noexcept {
  shoal_team *team = member_team(handle, routine);
  if (team == nullptr) return -1;
  check_same_call(*team, {Collective::barrier, routine});
  Args args;
  run(Collective::barrier, *team, args, routine);
  return 0;
}

int barrier(shoal_team *handle, const char *routine) noexcept {
  rma::quiet(&shoal_ctx_default, routine);
  return sync(handle, routine);
}

void sync_all(const char *routine) noexcept {
  rma::check_ctx(&shoal_ctx_default, routine);  // reports use before shmem_init
  (void)sync(&shoal_team_world, routine);
}

void barrier_all(const char *routine) noexcept {
  rma::check_ctx(&shoal_ctx_default, routine);
  (void)barrier(&shoal_team_world, routine);
}

int broadcast(shoal_team *handle, void *dest, const void *source, std::size_t nelems,
              std::size_t elem_size, int root, const char *routine, bool root_dest) noexcept {
  shoal_team *team = member_team(handle, routine);
  if (team == nullptr) return -1;
  check_same_call(*team, {Collective::broadcast, routine, nelems, elem_size, root});
  if (root < 0 || root >= team->n_pes) {
    SMA_LOG_ERROR("coll", "{}: root PE {} is out of range: the team has PEs 0 to {}", routine, root,
                  team->n_pes - 1);
    return -1;
  }
  if (nelems == 0) return 0;
  check_buffers(dest, nelems, source, nelems, elem_size, routine);
  Args args = vector_args(dest, source, nelems, elem_size);
  args.root = root;
  args.root_dest = root_dest;
  run(Collective::broadcast, *team, args, routine);
  return 0;
}

int collect(shoal_team *handle, void *dest, const void *source, std::size_t nelems,
            std::size_t elem_size, const char *routine) noexcept {
  shoal_team *team = member_team(handle, routine);
  if (team == nullptr) return -1;
  check_same_call(*team, {Collective::collect, routine, nelems, elem_size});
  // Before the counts are exchanged, what this PE knows: its count, and that dest holds at least
  // its own elements (the full extent is known after the exchange).
  if (nelems != 0) check_buffers(dest, nelems, source, nelems, elem_size, routine);
  std::vector<std::size_t> counts(static_cast<std::size_t>(team->n_pes));
  if (exchange_counts(*team, dest, source, nelems, elem_size, counts, routine)) return 0;
  const std::size_t total = std::accumulate(counts.begin(), counts.end(), std::size_t{0});
  if (total != 0) check_buffers(dest, total, source, nelems, elem_size, routine);
  gather(Collective::collect, *team, dest, source, elem_size, counts, total * elem_size, routine);
  return 0;
}

int fcollect(shoal_team *handle, void *dest, const void *source, std::size_t nelems,
             std::size_t elem_size, const char *routine) noexcept {
  shoal_team *team = member_team(handle, routine);
  if (team == nullptr) return -1;
  check_same_call(*team, {Collective::fcollect, routine, nelems, elem_size});
  if (nelems == 0) return 0;
  (void)rma::byte_size(nelems, elem_size, source, g_runtime->my_pe, routine);  // negative first
  check_buffers(dest, times_pes(*team, nelems, dest, routine), source, nelems, elem_size, routine);
  gather(Collective::fcollect, *team, dest, source, elem_size,
         std::vector<std::size_t>(static_cast<std::size_t>(team->n_pes), nelems),
         nelems * elem_size, routine);
  return 0;
}

int alltoalls(shoal_team *handle, void *dest, const void *source, std::ptrdiff_t dst,
              std::ptrdiff_t sst, std::size_t nelems, std::size_t elem_size,
              const char *routine) noexcept {
  shoal_team *team = member_team(handle, routine);
  if (team == nullptr) return -1;
  check_same_call(*team, {Collective::alltoall, routine, nelems, elem_size, -1, dst, sst});
  if (dst < 1 || sst < 1) {
    SMA_LOG_ERROR("coll", "{}: strides must be at least 1 (dst {}, sst {})", routine, dst, sst);
    return -1;
  }
  if (nelems == 0) return 0;
  // Every PE sends nelems elements to each PE: n_pes * nelems elements, dst / sst apart.
  const int me = g_runtime->my_pe;
  (void)rma::byte_size(nelems, elem_size, source, me, routine);  // a negative count first
  const std::size_t all = times_pes(*team, nelems, dest, routine);
  (void)rma::strided_extent(source, sst, 1, all, elem_size, me, routine);
  (void)rma::resolve(dest, rma::strided_extent(dest, dst, 1, all, elem_size, me, routine), me,
                     routine);
  Args args = vector_args(dest, source, nelems, elem_size);
  args.dst_stride = dst;
  args.sst_stride = sst;
  run(Collective::alltoall, *team, args, routine);
  return 0;
}

int alltoall(shoal_team *handle, void *dest, const void *source, std::size_t nelems,
             std::size_t elem_size, const char *routine) noexcept {
  return alltoalls(handle, dest, source, 1, 1, nelems, elem_size, routine);
}

int reduce(shoal_team *handle, void *dest, const void *source, std::size_t nreduce,
           std::size_t elem_size, Combine combine, const char *routine) noexcept {
  shoal_team *team = member_team(handle, routine);
  if (team == nullptr) return -1;
  check_same_call(*team, {Collective::reduce, routine, nreduce, elem_size});
  if (nreduce == 0) return 0;
  check_buffers(dest, nreduce, source, nreduce, elem_size, routine);
  Args args = vector_args(dest, source, nreduce, elem_size);
  args.combine = combine;
  run(Collective::reduce, *team, args, routine);
  return 0;
}

int scan(shoal_team *handle, void *dest, const void *source, std::size_t nelems,
         std::size_t elem_size, Combine combine, bool exclusive, const char *routine) noexcept {
  shoal_team *team = member_team(handle, routine);
  if (team == nullptr) return -1;
  check_same_call(*team, {Collective::scan, routine, nelems, elem_size});
  if (nelems == 0) return 0;
  check_buffers(dest, nelems, source, nelems, elem_size, routine);
  Args args = vector_args(dest, source, nelems, elem_size);
  args.combine = combine;
  args.exclusive = exclusive;
  run(Collective::scan, *team, args, routine);
  return 0;
}

}  // namespace shoal::coll
