#include "runtime.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "bootstrap/machine.hpp"
#include "heap/memory_budget.hpp"
#include "ctx/context.hpp"
#include "rma/pending_raises.hpp"
#include "rma/store_message.hpp"
#include "team/team.hpp"
#include "log/log.hpp"
#include "observe/observe.hpp"

namespace shoal {

// Bound by the library's owner (api/library.cpp) to its Runtime for one life; a plain pointer
// so that every put, get and AMO reads it with one load.
Runtime *g_runtime = nullptr;

namespace {
// Outlives every life: a call before shmem_init or after shmem_finalize reads it to say which.
LibraryState g_library_state = LibraryState::never_initialized;
}  // namespace
LibraryState library_state() noexcept { return g_library_state; }
void note_library_state(LibraryState state) noexcept { g_library_state = state; }

namespace {

constexpr int kThreadMultiple = 3;  // SHMEM_THREAD_MULTIPLE

// What every PE publishes about its segments; rkeys and the worker address travel separately.
struct SegmentInfo {
  heap::SegmentHandle handle[kSegmentCount];  // where the node's PEs open the shared ones
  std::uint64_t base[kSegmentCount];
  std::uint64_t size[kSegmentCount];
  std::uint64_t data_shared_offset;  // where the shared part of the data segment starts
  std::uint64_t data_shared;         // 1 if it is in shared memory for the node's PEs to map
  std::uint64_t device_atomics;      // 1 if a network device executes its UCX atomics
  std::uint64_t memory_group;        // PeerView::memory_group of that PE
  std::uint64_t machine;             // boot::machine_id() of that PE (0: not known)
  boot::CpuMask cpus;                // the CPUs that PE may run on
};

std::size_t page_round(std::size_t n) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return (n + page - 1) / page * page;
}

}  // namespace

Failure Runtime::start(int requested_thread_level, LibraryArea library_area_layout) {
  if (Failure f = config.load()) return f;
  log::init(config.log_level);

  if (!bootstrap && boot::make_bootstrap(bootstrap, config.bootstrap_collect) != Status::ok)
    return Failure::because(Status::bootstrap_error,
                            "cannot start: the PMIx bootstrap failed (was this program started by "
                            "oshrun or another PMIx launcher that is still running?)");
  bootstrap->begin_session();
  my_pe = bootstrap->rank();
  n_pes = bootstrap->size();
  log::set_pe(my_pe);

  // UCX workers are thread-safe only in multi-thread mode; the levels below MULTIPLE never
  // have two threads inside the library at once, so they use the cheaper single mode.
  thread_level = requested_thread_level < 0 ? 0 : std::min(requested_thread_level, kThreadMultiple);
  const bool multithreaded = thread_level == kThreadMultiple;
  // The bootstrap already knows the node layout: when every PE is local, UCX needs no network.
  const int local_pes = static_cast<int>(bootstrap->local_peers().size());
  const bool one_node = local_pes == n_pes;
  if (ucx.init(n_pes, one_node, local_pes) != Status::ok)
    return Failure::because(Status::transport_error,
                            "cannot start: UCX initialization failed (see the message above)");
  using Threads = ucx::UcxWorker::Threads;
  if (worker.init(ucx, multithreaded ? Threads::multiple : Threads::single, n_pes) != Status::ok)
    return Failure::because(Status::transport_error,
                            "cannot start: creating the UCX worker failed");
  // The progress thread and waiting application threads take turns on the receiving worker
  // (see InboundLease): serialized, never at once.
  if (config.progress_thread && target_worker.init(ucx, Threads::serialized, n_pes) != Status::ok)
    return Failure::because(Status::transport_error,
                            "cannot start: creating the progress thread's worker failed");
  if (rma::accept_store_messages(config.progress_thread ? target_worker : worker, *this) !=
      Status::ok)
    return Failure::because(Status::transport_error,
                            "cannot start: installing the UCX active-message handler failed");
  if (rma::accept_put_batches(config.progress_thread ? target_worker : worker, *this) !=
          Status::ok ||
      put_batches.accept_answers(worker) != Status::ok)
    return Failure::because(Status::transport_error,
                            "cannot start: installing the UCX active-message handler failed");
  if (Failure f = setup_memory(library_area_layout.size(config, n_pes),
                               library_area_layout.committed_at_start(config, n_pes)))
    return std::move(f).within("cannot start");
  // The receiving worker is serialized: no two threads may use it at once. Its address is
  // read now, before the progress thread starts driving it.
  if ((config.progress_thread ? target_worker : worker).address(own_address) != Status::ok)
    return Failure::because(Status::transport_error, "cannot read the UCX worker address");
  // After the memory: starting the thread orders what setup_memory wrote (the segments' bounds,
  // which the message handler reads) before anything the thread runs.
  if (config.progress_thread && progress.start(target_worker, my_pe) != Status::ok)
    return Failure::because(Status::transport_error,
                            "cannot start: the progress thread failed to start");
  if (Failure f = exchange_and_connect()) return std::move(f).within("cannot start");

  // Combining puts only where every put needs the target's CPU anyway (put_batch.hpp).
  put_batches.init(*this, combines_puts() ? &worker : nullptr);
  shoal_ctx_default.worker = &worker;
  shoal_ctx_default.batches = put_batches.enabled() ? &put_batches : nullptr;
  shoal_ctx_default.team = &shoal_team_world;
  SMA_LOG_DEBUG("core", "pe {} of {} up; heap {} bytes at {}, data segment {} bytes at {}", my_pe,
                n_pes, heap_size, reinterpret_cast<void *>(heap_base), data_size,
                reinterpret_cast<void *>(data_base));
  return {};
}

Failure Runtime::setup_memory(std::size_t library_bytes, std::size_t committed_library_bytes) {
  const std::size_t user_size = page_round(std::max<std::size_t>(config.symmetric_size, 1));
  const std::size_t observe_bytes = page_round(observe::kAreaBytes);
  const std::size_t size = user_size + page_round(library_bytes) + observe_bytes;
  const bool shared = config.shared_memory && bootstrap->local_peers().size() > 1;
  const Status s =
      shared ? heap_memory.create("shoal-heap", size) : heap_memory.create_private(size);
  if (s != Status::ok)
    return Failure::because(Status::no_memory, "cannot create the symmetric heap of " +
                                                   std::to_string(size) + " bytes (" +
                                                   config.source_of("SYMMETRIC_SIZE") +
                                                   "); see the message above");
  // Committed now: the start of the library's area that other PEs may write once connected,
  // and the observe record at the heap's end. The user's part is committed block by block
  // (commit_heap), the rest of the library's area as its owner takes it into use
  // (commit_library_area): with the default SMA_TEAMS_MAX that area is about 20 MiB, which
  // a program that splits no team never touches.
  heap_committed = 0;
  const std::size_t committed = std::min(page_round(committed_library_bytes), size - user_size);
  if (heap_memory.reserve(user_size, committed) != Status::ok ||
      heap_memory.reserve(size - observe_bytes, observe_bytes) != Status::ok)
    return Failure::because(
        Status::no_memory,
        "cannot commit " + std::to_string(committed + observe_bytes) +
            " bytes of memory for the library's collective area: " + std::strerror(errno));
  heap_base = reinterpret_cast<std::uintptr_t>(heap_memory.base());
  heap_size = size;
  allocator.reset(user_size);
  library_area = heap_memory.base() + user_size;
  observe_area = heap_memory.base() + size - observe_bytes;

  data = heap::find_data_segment();
  data_base = reinterpret_cast<std::uintptr_t>(data.base);
  data_size = data.size;
  data_shared_offset = data.shareable_offset;
  // Before UCX registers it: the pages it would register are replaced. A layout that cannot be
  // shared leaves the globals of this PE to UCX (the debug log says why).
  if (shared && data_size > data_shared_offset) {
    if (heap::share_data_segment(data, data_memory) != Status::ok)
      SMA_LOG_DEBUG("heap",
                    "globals of pe {} stay private: other PEs of the node reach them "
                    "through UCX",
                    my_pe);
  }

  if (ucx.map(heap_memory.base(), heap_size, regions[kHeapSegment]) != Status::ok)
    return Failure::because(Status::transport_error, "cannot register the symmetric heap with UCX");
  if (data_size > 0 && ucx.map(data.base, data_size, regions[kDataSegment]) != Status::ok)
    return Failure::because(Status::transport_error,
                            "cannot register the program's data segment with UCX");
  return {};
}

Failure Runtime::exchange_and_connect() {
  boot::Bootstrap &b = *bootstrap;
  const std::vector<std::byte> &address = own_address;
  const bool device_atomics_here = ucx::describes_device_atomics(worker.description());
  const bool shared = config.shared_memory && b.local_peers().size() > 1;
  const int my_group =
      shared ? *std::min_element(b.local_peers().begin(), b.local_peers().end()) : my_pe;
  const SegmentInfo mine{{heap_memory.handle(), data_memory.handle()},
                         {heap_base, data_base},
                         {heap_size, data_size},
                         data_shared_offset,
                         data_memory.base() != nullptr ? 1u : 0u,
                         device_atomics_here ? 1u : 0u,
                         static_cast<std::uint64_t>(my_group),
                         boot::machine_id(),
                         boot::CpuMask::of_this_thread()};
  if (b.put("shoal.addr", address.data(), address.size()) != Status::ok ||
      b.put("shoal.seg", &mine, sizeof mine) != Status::ok ||
      b.put("shoal.rkey0", regions[kHeapSegment].packed_rkey.data(),
            regions[kHeapSegment].packed_rkey.size()) != Status::ok ||
      b.put("shoal.rkey1", regions[kDataSegment].packed_rkey.data(),
            regions[kDataSegment].packed_rkey.size()) != Status::ok ||
      b.fence() != Status::ok)
    return Failure::because(Status::bootstrap_error,
                            "cannot publish this PE's connection data through PMIx");

  bool device_atomics_in_job = device_atomics_here;
  // The node's PEs share this machine even when its kernel cannot be told apart.
  pes_on_machine = static_cast<int>(b.local_peers().size());
  std::vector<boot::CpuMask> machine_masks;  // of the other PEs of this machine
  peers.assign(static_cast<std::size_t>(n_pes), PeerView{});
  peer_heaps.resize(static_cast<std::size_t>(n_pes));
  peer_data.resize(static_cast<std::size_t>(n_pes));
  peer_addresses.assign(static_cast<std::size_t>(n_pes), {});
  peer_rkeys.assign(static_cast<std::size_t>(n_pes), {});
  // This PE's own globals are always "mapped" (the fast path; resolve covers RELRO data).
  peers[my_pe] = PeerView{heap_memory.base(),
                          data.base + data_shared_offset,
                          data_memory.base() != nullptr,
                          {heap_base, data_base},
                          my_group};
  for (int pe = 0; pe < n_pes; ++pe) {
    if (pe == my_pe) continue;
    std::vector<std::byte> peer_address, seg_bytes;
    std::vector<std::vector<std::byte>> rkeys(kSegmentCount);
    if (b.get(pe, "shoal.addr", peer_address) != Status::ok ||
        b.get(pe, "shoal.seg", seg_bytes) != Status::ok ||
        seg_bytes.size() != sizeof(SegmentInfo) ||
        b.get(pe, "shoal.rkey0", rkeys[0]) != Status::ok ||
        b.get(pe, "shoal.rkey1", rkeys[1]) != Status::ok)
      return Failure::because(Status::bootstrap_error,
                              "cannot read the connection data of PE " + std::to_string(pe));
    SegmentInfo theirs;
    std::memcpy(&theirs, seg_bytes.data(), sizeof theirs);
    device_atomics_in_job = device_atomics_in_job || theirs.device_atomics == 1;
    const bool on_node = b.on_this_node(pe);
    if (on_node || (mine.machine != 0 && theirs.machine == mine.machine)) {
      if (!on_node) ++pes_on_machine;
      machine_masks.push_back(theirs.cpus);
    }
    if (theirs.size[kHeapSegment] != heap_size)
      return Failure::because(Status::invalid_param,
                              "PE " + std::to_string(pe) + " has a symmetric heap of " +
                                  std::to_string(theirs.size[kHeapSegment]) +
                                  " bytes and this PE " + std::to_string(heap_size) +
                                  ": every PE must run with the same SHMEM_SYMMETRIC_SIZE");
    if (theirs.size[kDataSegment] != data_size)
      return Failure::because(Status::invalid_param,
                              "PE " + std::to_string(pe) +
                                  " runs a different program (its data segment differs in size)");
    peers[pe].memory_group = static_cast<int>(theirs.memory_group);
    peers[pe].base[kHeapSegment] = theirs.base[kHeapSegment];
    peers[pe].base[kDataSegment] = theirs.base[kDataSegment];
    peer_addresses[pe] = std::move(peer_address);
    peer_rkeys[pe] = std::move(rkeys);
    if (shared && b.on_this_node(pe)) {
      if (peer_heaps[pe].attach(theirs.handle[kHeapSegment], heap_size) != Status::ok)
        return Failure::because(Status::no_memory,
                                "cannot map the symmetric heap of PE " + std::to_string(pe));
      peers[pe].heap_mapped = peer_heaps[pe].base();
      // Its globals, if it could move them into shared memory; otherwise UCX reaches them.
      const std::size_t shared_bytes = data_size - data_shared_offset;
      if (theirs.data_shared == 1 && theirs.data_shared_offset == data_shared_offset) {
        if (peer_data[pe].attach(theirs.handle[kDataSegment], shared_bytes) != Status::ok)
          return Failure::because(Status::no_memory,
                                  "cannot map the data segment of PE " + std::to_string(pe));
        peers[pe].data_mapped = peer_data[pe].base();
        peers[pe].data_shared = true;
      } else {
        SMA_LOG_DEBUG("heap",
                      "globals of pe {} are not in shared memory: reached through UCX "
                      "(shared {}, offset {}, here {})",
                      pe, theirs.data_shared, theirs.data_shared_offset, data_shared_offset);
      }
    }
  }
  machine_cpus = boot::cpus_between(mine.cpus, machine_masks);
  cpu_share = boot::cpu_share(mine.cpus, machine_masks);
  // SMA_INFO prints PE 0's share only; each PE's, for a job whose PEs are bound unevenly.
  SMA_LOG_DEBUG("core",
                "PEs of the job on this machine: {}, their CPUs: {}; this PE's CPUs: {}, PEs "
                "that may run on them: {}, their CPUs: {}",
                pes_on_machine, machine_cpus, mine.cpus.count(), cpu_share.pes, cpu_share.cpus);
  choose_amo_route(device_atomics_here, device_atomics_in_job);
  if (amo_routing.self_through_ucx) {  // a device executes AMOs on this PE's memory too
    peer_addresses[my_pe] = address;
    peer_rkeys[my_pe] = {regions[kHeapSegment].packed_rkey, regions[kDataSegment].packed_rkey};
  }
  if (connect_worker(worker) != Status::ok)
    return Failure::because(Status::transport_error,
                            "cannot connect the UCX endpoints to the other PEs");
  if (config.progress_thread) {
    ucx::InboundLease lease;
    if (!lease.hold() || connect_worker(target_worker) != Status::ok)
      return Failure::because(Status::transport_error,
                              "cannot connect the receiving worker's endpoints to the other PEs");
  }
  // Every PE has mapped its neighbours' segments (opened through their descriptors) and
  // connected before any PE goes on.
  return fence_completing_handshakes();
}

// UCX connects an endpoint in a handshake (request, reply, acknowledgement) that moves only as
// both PEs progress the workers involved. Nothing waited for it, so a PE that ended the job right
// after shmem_init could leave a PE of another host with a reply still queued for it; UCX 1.13
// then failed an assertion purging that reply ("got REP message") and aborted that PE with a
// backtrace, instead of letting it report the lost PE. Across 2 namespace hosts, 2 of 10 2-PE
// jobs whose PE 0 called shmem_long_p on a PE that does not exist right after start-up did so
// (7 of 12 in an earlier run); none without a progress thread, whose PEs have one worker.
//
// So with a progress thread, start-up ends in three steps: flush both workers without waiting,
// the fence while this thread progresses both, then wait for the flushes. A flush waited for
// before the fence (243aa40, reverted) hung about one 3x2 job in 18: one PE still flushed while
// the others sat in the fence. After the fence, every peer either waits for its own flushes,
// progressing both its workers, or has returned to the program, and its progress thread serves.
// The limit only keeps a handshake UCX never completes from hanging start-up.
namespace {
constexpr unsigned kHandshakeLimitMs = 30'000;
}  // namespace

Failure Runtime::fence_completing_handshakes() {
  boot::Bootstrap &b = *bootstrap;
  if (!config.progress_thread) {
    if (b.fence() != Status::ok)
      return Failure::because(Status::bootstrap_error, "PMIx fence failed");
    return {};
  }
  ucx::InboundLease lease;  // this thread serves the receiving worker until the end
  if (!lease.hold())
    return Failure::because(Status::transport_error, "the progress thread is not running");
  ucs_status_ptr_t sending = worker.start_flush();
  ucs_status_ptr_t receiving = target_worker.start_flush();
  std::pair<ucx::UcxWorker *, ucx::UcxWorker *> both{&worker, &target_worker};
  const Status fenced = b.fence_progressing(
      [](void *arg) {
        auto *w = static_cast<std::pair<ucx::UcxWorker *, ucx::UcxWorker *> *>(arg);
        w->first->progress();
        w->second->progress();
      },
      &both);
  // After a failed fence the peers may be gone: hand the requests to UCX at once.
  const unsigned limit_ms = fenced == Status::ok ? kHandshakeLimitMs : 1;
  const Status sent = worker.wait(sending, "completing the connections", limit_ms);
  const Status received = target_worker.wait(receiving, "completing the connections", limit_ms);
  if (fenced != Status::ok) return Failure::because(Status::bootstrap_error, "PMIx fence failed");
  if (sent != Status::ok || received != Status::ok)
    return Failure::because(Status::transport_error,
                            "cannot complete the connections to the other PEs");
  return {};
}

Failure Runtime::commit_heap(std::size_t end) {
  if (end <= heap_committed) return {};
  const std::size_t bytes = end - heap_committed;
  const std::string what = "cannot commit " + std::to_string(bytes) +
                           " more bytes of memory for its symmetric heap (up to offset " +
                           std::to_string(end) + " of " + std::to_string(allocator.capacity()) +
                           "; " + config.source_of("SYMMETRIC_SIZE") +
                           " sizes the heap's address space, not memory the node has)";
  if (const auto budget = heap::committable_memory(); budget && budget->bytes < bytes)
    return Failure::because(Status::no_memory, what + ": only " + std::to_string(budget->bytes) +
                                                   " bytes are available (" + budget->limited_by +
                                                   ")");
  if (heap_memory.reserve(heap_committed, bytes) != Status::ok)
    return Failure::because(Status::no_memory, what + ": " + std::strerror(errno));
  return {};
}

Failure Runtime::commit_library_area(std::size_t offset, std::size_t bytes) {
  const std::size_t user_size = static_cast<std::size_t>(library_area - heap_memory.base());
  if (heap_memory.reserve(user_size + offset, bytes) != Status::ok)
    return Failure::because(Status::no_memory,
                            "cannot commit " + std::to_string(bytes) +
                                " bytes of memory for the library's collective area (at offset " +
                                std::to_string(offset) + "): " + std::strerror(errno));
  return {};
}

void Runtime::choose_amo_route(bool device_here, bool device_in_job) {
  amo_routing = ucx::choose_amo_routing(config.amo_route, device_in_job);
  device_atomics_in_job = device_in_job;
  if (config.amo_route == ucx::AmoRoute::cpu && device_in_job && my_pe == 0)
    SMA_LOG_WARN("atomics",
                 "{}=cpu while a network device executes UCX's atomics: AMOs of PEs "
                 "on other nodes are not atomic against this node's CPU atomics on "
                 "the same object",
                 config.source_of("AMO_ROUTE"));
  SMA_LOG_DEBUG("atomics", "AMO route: {} (device atomics here: {}, in the job: {})",
                amo_route_summary(), device_here, device_in_job);
}

std::string Runtime::amo_route_summary() const {
  const char *why =
      config.amo_route == ucx::AmoRoute::automatic ? "chosen by auto" : "set by SMA_AMO_ROUTE";
  if (!amo_routing.through_ucx)
    return std::string("cpu: CPU atomics on the memory of this node's PEs, UCX to other nodes (") +
           why + ")";
  return std::string("ucx: every AMO through UCX") +
         (amo_routing.self_through_ucx ? "" : ", except a PE's own memory") + " (" + why + ")";
}

Status Runtime::connect_worker(ucx::UcxWorker &w) {
  for (int pe = 0; pe < n_pes; ++pe) {
    if (pe == my_pe && !amo_routing.self_through_ucx) continue;
    // A PE of another node that dies ends the job, named (ucx::UcxWorker::Placement). One
    // worker's endpoints watch for that: the receiving worker's when a progress thread drives
    // it (every collective waits there), else the default one's. UCX's failure handling costs
    // the RMA endpoints 10-20% of their bandwidth over TCP, so they go without it then.
    const bool watching = &w == &target_worker || !config.progress_thread;
    const auto where = watching && !bootstrap->on_this_node(pe)
                           ? ucx::UcxWorker::Placement::other_node
                           : ucx::UcxWorker::Placement::this_node;
    if (Status s = w.connect(pe, peer_addresses[pe], peer_rkeys[pe], where); s != Status::ok) {
      SMA_LOG_ERROR("core", "connecting to pe {} failed", pe);
      return s;
    }
  }
  return Status::ok;
}

void Runtime::stop(bool peers_alive, bool end_session) {
  put_batches.init(*this, nullptr);  // what a PE ending the job had not sent is dropped
  shoal_ctx_default.worker = nullptr;
  shoal_ctx_default.batches = nullptr;
  if (peers_alive) {  // after the finalize barrier: every PE is closing, none sends any more
    worker.peers_finishing();
    target_worker.peers_finishing();
    for (auto &pool : spare_workers)
      for (auto &spare : pool) spare->peers_finishing();
  }
  for (auto &pool : spare_workers) pool.clear();  // closes them
  worker.close_endpoints();
  if (config.progress_thread) {
    ucx::InboundLease lease;
    if (lease.hold()) target_worker.close_endpoints();
  }
  // Peers may still be closing endpoints towards our receiving worker, and each close needs
  // that worker progressed until it completes: keep serving it until every PE is done (the
  // progress thread serves it while it runs; without one, the fence drives it). Destroying it
  // earlier resets the peers' connections ("Connection reset by remote peer" across hosts).
  if (bootstrap && peers_alive) {
    if (config.progress_thread)
      (void)bootstrap->fence();
    else
      (void)bootstrap->fence_progressing(
          [](void *w) { static_cast<ucx::UcxWorker *>(w)->progress(); }, &worker);
  }
  progress.stop();
  worker.close();
  target_worker.close();
  stash.clear();  // after the receiving worker, which fills it
  rma::pending_raises().clear();
  for (auto &region : regions) ucx.unmap(region);
  for (auto &segment : peer_heaps) segment.release();
  for (auto &segment : peer_data) segment.release();
  data_memory.release();  // keeps the mapping: the program's globals live in it
  heap_memory.release();
  // Nothing may read a record area (cpu_spread, hang reports) through the released mappings.
  for (PeerView &peer : peers) peer.heap_mapped = nullptr;
  observe_area = nullptr;
  if (bootstrap && end_session) (void)bootstrap->finalize();
}

}  // namespace shoal
