// The process-wide state between shmem_init and shmem_finalize: configuration, bootstrap, UCX,
// the symmetric memory segments and where every other PE has them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bootstrap/bootstrap.hpp"
#include "bootstrap/machine.hpp"
#include "config/config.hpp"
#include "heap/data_segment.hpp"
#include "heap/heap_allocator.hpp"
#include "heap/shared_segment.hpp"
#include "rma/put_batch.hpp"
#include "rma/stash.hpp"
#include "transport/progress_thread.hpp"
#include "transport/ucx_context.hpp"
#include "transport/ucx_worker.hpp"

namespace shoal {

enum Segment : int { kHeapSegment = 0, kDataSegment = 1, kSegmentCount = 2 };

// What this PE knows of another PE's symmetric memory.
struct PeerView {
  std::byte *heap_mapped = nullptr;  // our mapping of its heap (same node), or null
  // Our mapping of its data segment from Runtime::data_shared_offset on (same node), or null.
  std::byte *data_mapped = nullptr;
  // Its globals are in shared memory and mapped here (for this PE: its own are shared). Unlike
  // data_mapped, which is also set for this PE, every PE of the node sees the same value.
  bool data_shared = false;
  std::uintptr_t base[kSegmentCount] = {0, 0};  // where that PE has each segment
  // PEs with the same group map each other's heaps: the lowest PE of its node, or the PE itself
  // without shared memory. The same value on every PE.
  int memory_group = -1;
};

// Bytes of the library's own symmetric area for a configuration and job size. The layer that
// lays the area out (the collectives: coll::slots) hands Runtime::start two such functions, as
// it learns the job size only once the bootstrap is up: the whole area's size, and how much of
// its start other PEs may write as soon as they are connected (the predefined teams' part),
// which is committed then. The rest is committed part by part as the layer takes it into use
// (commit_library_area): most programs never use most of it.
using LibraryAreaBytes = std::size_t (*)(const Config &config, int world_pes) noexcept;
struct LibraryArea {
  LibraryAreaBytes size;
  LibraryAreaBytes committed_at_start;
};

class Runtime {
 public:
  // Brings the PE up, with a symmetric heap that ends with library_area.size(config, n_pes)
  // bytes for the library. A bootstrap handed in beforehand (the PMIx session of an earlier
  // life of the library) is used as it is.
  Failure start(int requested_thread_level, LibraryArea library_area);
  // Releases what start() set up, in order (UCX objects before the context that owns them).
  // With `peers_alive` (shmem_finalize) it first waits for every PE to close its endpoints;
  // after a failed start the other PEs may be gone, so it does not. With `end_session` false
  // the bootstrap stays connected (its owner may take it for a later start).
  void stop(bool peers_alive = true, bool end_session = true);

  int my_pe = 0;
  int n_pes = 1;
  // PEs of the job that share this machine's CPUs (boot/machine.hpp): the node's, and those of
  // other nodes on the same kernel (namespaces or containers of one machine).
  int pes_on_machine = 1;
  // The CPUs those PEs may run on between them (their affinities: a launcher's allocation, such
  // as a Slurm job's cgroup, can be fewer than the machine has online).
  int machine_cpus = 0;
  // The PEs of this machine that may run on this PE's CPUs, and those CPUs (boot/machine.hpp).
  boot::CpuShare cpu_share;
  int thread_level = 0;

  // Hot-path copies of the local segments' bounds. The heap segment ends with the library's
  // own symmetric area (the collectives' team flags and scratch, laid out by the layer above),
  // which shmem_malloc never hands out.
  std::uintptr_t heap_base = 0, heap_size = 0;
  std::byte *library_area = nullptr;
  // After it, the last observe::kAreaBytes of the heap: this PE's record of the call it is in,
  // read by hang reports (observe/record.hpp).
  std::byte *observe_area = nullptr;
  std::uintptr_t data_base = 0, data_size = 0;
  // Where the part of the data segment that PEs of a node map starts (after RELRO); the same
  // in every PE, which runs the same program.
  std::uintptr_t data_shared_offset = 0;
  std::vector<PeerView> peers;
  // How AMOs are executed (transport/atomic_resources.hpp), decided at start-up for the whole
  // job: through_ucx sends AMOs on a neighbour's mapped memory through UCX too.
  ucx::AmoRouting amo_routing;
  bool device_atomics_in_job = false;  // some PE found a device executing UCX's atomics
  // Whether contexts combine small puts to other nodes (rma/put_batch.hpp): asked for
  // (SMA_COALESCE_PUTS) and useful, where every put needs the target's CPU anyway.
  bool combines_puts() const noexcept { return config.coalesce_puts && !device_atomics_in_job; }
  // The route in words, for SMA_INFO and the debug log.
  std::string amo_route_summary() const;

  // Connects a worker's endpoints to every other PE and unpacks their memory keys (the
  // default context's worker at start-up, a new context's worker later).
  Status connect_worker(ucx::UcxWorker &w);

  // Declaration order is construction order; members are torn down in reverse by stop().
  Config config;
  std::unique_ptr<boot::Bootstrap> bootstrap;
  ucx::UcxContext ucx;
  heap::SharedSegment heap_memory;
  heap::DataSegment data;
  heap::SharedSegment data_memory;  // the data segment moved into shared memory, if it was
  ucx::MemRegion regions[kSegmentCount];
  std::vector<heap::SharedSegment> peer_heaps;  // mappings of the heaps of PEs on this node
  std::vector<heap::SharedSegment> peer_data;   // ... and of their data segments
  // Data of store messages that arrive before their reader is ready (rma/stash.hpp); filled
  // by the receiving worker, so declared before the workers.
  rma::Stash stash;
  ucx::UcxWorker worker;         // the default context's worker
  rma::PutBatches put_batches;   // its combined small puts (empty once the library stops)
  ucx::UcxWorker target_worker;  // receives other PEs' operations; driven by `progress`
  ucx::ProgressThread progress;
  // Workers of destroyed contexts, connected and ready for the next context, by thread mode
  // ([1]: thread-safe). Reusing them keeps create/destroy cycles from piling up endpoints and
  // shared-memory mappings at every peer, which never learn that a worker went away.
  std::vector<std::unique_ptr<ucx::UcxWorker>> spare_workers[2];
  // Contexts created and not yet destroyed (ctx/contexts.cpp; shmem_finalize releases them), and
  // the lock over them and spare_workers: contexts may be created and destroyed by several
  // threads at once.
  std::mutex contexts_mutex;
  std::vector<shoal_ctx *> live_contexts;
  // This PE's receiving worker's address, read before the progress thread starts.
  std::vector<std::byte> own_address;
  // What every other PE published: its receiving worker's address and its packed rkeys.
  std::vector<std::vector<std::byte>> peer_addresses;
  std::vector<std::vector<std::vector<std::byte>>> peer_rkeys;
  heap::HeapAllocator allocator;
  // Bytes at the start of the user's heap whose memory is committed (the same on every PE:
  // it grows only when every PE committed). commit_heap commits this PE's memory up to `end`
  // without moving it; it fails, naming the sizes, when the node cannot.
  std::size_t heap_committed = 0;
  Failure commit_heap(std::size_t end);
  // Commits this PE's memory of [library_area + offset, + bytes): before the layer that owns
  // the area lets other PEs write there. Fails, naming the sizes, when the node cannot.
  Failure commit_library_area(std::size_t offset, std::size_t bytes);

 private:
  Failure setup_memory(std::size_t library_bytes, std::size_t committed_library_bytes);
  Failure exchange_and_connect();
  // The fence that ends start-up, which completes every endpoint's handshake (see there).
  Failure fence_completing_handshakes();
  void choose_amo_route(bool device_here, bool device_in_job);
};

// The runtime between shmem_init and shmem_finalize, otherwise null: the Runtime member of the
// library's owner (api/library.cpp), which binds it once the start succeeded and unbinds it at
// the stop. The core's accessor to its state, read with one load on every put, get and AMO.
extern Runtime *g_runtime;

// Where the library is in its life (api/library.hpp starts and stops it and notes each change).
enum class LibraryState { never_initialized, running, finalized };
LibraryState library_state() noexcept;
void note_library_state(LibraryState state) noexcept;

}  // namespace shoal
