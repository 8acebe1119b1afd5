/* An example Shoal collective plug-in (docs/plugins.md): three algorithms written with the
 * OpenSHMEM API alone --
 *   barrier   "ring"         a token goes twice around the team (arrival, then release);
 *   broadcast "ring"         the message travels from the root along the ring, PE to PE;
 *   reduce    "gather_fold"  every PE puts its vector into every PE's scratch, then each folds
 *                            the vectors in team order (the same result, bit for bit, on all).
 *
 *   oshcc -shared -fPIC -o ring_plugin.so ring_plugin.c
 *   SMA_COLL_PLUGINS=$PWD/ring_plugin.so SMA_BCAST_ALGORITHM=ring oshrun -np 4 ./program
 *
 * How the algorithms stay out of each other's way: the front of the team's plug-in scratch
 * holds arrays of flags, one per team PE, each only ever set to the sequence number of the
 * call (call->sequence grows by one per plug-in call on the team, the same on every PE). A PE
 * writes into another PE's dest or scratch only after that PE has set its READY flag at the
 * writer to this call's number: a peer may still be busy with the previous collective. */
#include <shmem.h>
#include <shoal/coll_plugin.h>
#include <string.h>

enum { READY, LAP1, LAP2, BCAST, REDUCE, NFLAGS };

/* How many times each collective ran one of this plug-in's algorithms in this process (the
 * tests read it to prove the plug-in ran). */
static long g_runs[SHOAL_COLL_SCAN + 1];
__attribute__((visibility("default"))) long coll_plugin_example_runs(int collective) {
  return collective >= 0 && collective <= SHOAL_COLL_SCAN ? g_runs[collective] : -1;
}

static uint64_t *flag(const shoal_coll_call *c, int kind, int pe) {
  return (uint64_t *)c->scratch + (size_t)kind * (size_t)c->n_pes + (size_t)pe;
}

/* Where the data part of the scratch starts: after the flags, on a cache line of its own. */
static size_t data_offset(const shoal_coll_call *c) {
  return ((size_t)NFLAGS * (size_t)c->n_pes * sizeof(uint64_t) + 63) / 64 * 64;
}

static int world(const shoal_coll_call *c, int pe) {
  return shmem_team_translate_pe(c->team, pe, SHMEM_TEAM_WORLD);
}

/* Sets this PE's flag `kind` at team PE `pe` to the call's number. */
static void set_at(const shoal_coll_call *c, int kind, int pe) {
  shmem_uint64_atomic_set(flag(c, kind, c->my_pe), c->sequence, world(c, pe));
}

/* Waits until team PE `pe` has set its flag `kind` here to this call's number. */
static void await_from(const shoal_coll_call *c, int kind, int pe) {
  shmem_uint64_wait_until(flag(c, kind, pe), SHMEM_CMP_GE, c->sequence);
}

/* ---- barrier: twice around the ring --------------------------------------------------------- */
static int barrier_ring(const shoal_coll_call *c, void *context) {
  (void)context;
  const int next = (c->my_pe + 1) % c->n_pes, prev = (c->my_pe + c->n_pes - 1) % c->n_pes;
  if (c->my_pe == 0) {
    set_at(c, LAP1, next);
    await_from(c, LAP1, prev); /* everyone has arrived */
    set_at(c, LAP2, next);
    await_from(c, LAP2, prev);
  } else {
    await_from(c, LAP1, prev);
    set_at(c, LAP1, next);
    await_from(c, LAP2, prev); /* released */
    set_at(c, LAP2, next);
  }
  ++g_runs[SHOAL_COLL_BARRIER];
  return 0;
}

/* ---- broadcast: along the ring from the root ------------------------------------------------ */
static int broadcast_ring(const shoal_coll_call *c, void *context) {
  (void)context;
  const int n = c->n_pes, me = c->my_pe;
  const int next = (me + 1) % n, prev = (me + n - 1) % n;
  const size_t bytes = c->nelems * c->elem_size;
  const void *from = c->source;
  if (me != c->root) {
    set_at(c, READY, prev); /* prev may write into dest */
    await_from(c, BCAST, prev);
    from = c->dest;
  }
  if (next != c->root) {
    await_from(c, READY, next);
    shmem_putmem_signal(c->dest, from, bytes, flag(c, BCAST, me), c->sequence, SHMEM_SIGNAL_SET,
                        world(c, next));
  }
  if (me == c->root && c->dest != c->source) memmove(c->dest, c->source, bytes);
  ++g_runs[SHOAL_COLL_BROADCAST];
  return 0;
}

/* ---- reduce: gather every vector into every PE's scratch, fold in team order ----------------- */
static int gather_fold_applies(const shoal_coll_call *c, void *context) {
  (void)context;
  const size_t bytes = c->nelems * c->elem_size;
  return data_offset(c) <= c->scratch_bytes &&
         bytes <= (c->scratch_bytes - data_offset(c)) / (size_t)c->n_pes;
}

static int reduce_gather_fold(const shoal_coll_call *c, void *context) {
  (void)context;
  const int n = c->n_pes, me = c->my_pe;
  const size_t bytes = c->nelems * c->elem_size;
  char *blocks = (char *)c->scratch + data_offset(c);
  for (int k = 1; k < n; ++k) set_at(c, READY, (me + k) % n); /* they may write my block */
  memcpy(blocks + (size_t)me * bytes, c->source, bytes);
  for (int k = 1; k < n; ++k) {
    const int peer = (me + k) % n;
    await_from(c, READY, peer);
    shmem_putmem_signal(blocks + (size_t)me * bytes, c->source, bytes, flag(c, REDUCE, me),
                        c->sequence, SHMEM_SIGNAL_SET, world(c, peer));
  }
  for (int k = 1; k < n; ++k) await_from(c, REDUCE, (me + k) % n);
  memcpy(c->dest, blocks, bytes);
  for (int pe = 1; pe < n; ++pe) c->combine(c->dest, blocks + (size_t)pe * bytes, c->nelems);
  ++g_runs[SHOAL_COLL_REDUCE];
  return 0;
}

static int needs_flags(const shoal_coll_call *c, void *context) {
  (void)context;
  return data_offset(c) <= c->scratch_bytes;
}

static int init(shoal_coll_registrar *r) {
  const shoal_coll_algorithm algorithms[] = {
      {SHOAL_COLL_BARRIER, "ring", "example plug-in: a token twice around the team", needs_flags,
       barrier_ring, NULL},
      {SHOAL_COLL_BROADCAST, "ring", "example plug-in: the message from PE to PE along the ring",
       needs_flags, broadcast_ring, NULL},
      {SHOAL_COLL_REDUCE, "gather_fold",
       "example plug-in: every vector to every PE's scratch, folded in team order",
       gather_fold_applies, reduce_gather_fold, NULL},
  };
  for (size_t i = 0; i < sizeof algorithms / sizeof algorithms[0]; ++i)
    if (r->add(r, &algorithms[i]) != 0) return 1;
  return 0;
}

SHOAL_COLL_PLUGIN("ring_example", init);
