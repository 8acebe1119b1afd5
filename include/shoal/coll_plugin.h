/* Shoal collective plug-ins: the C ABI between libshoal and a shared object that adds collective
 * algorithms at run time (docs/plugins.md).
 *
 * A plug-in is built with the wrapper, e.g. `oshcc -shared -fPIC -o my.so my.c`, and named in
 * SMA_COLL_PLUGINS (colon-separated paths) at shmem_init. It defines exactly one entry with
 * SHOAL_COLL_PLUGIN(name, init); the library checks the entry's ABI version first and refuses a
 * plug-in built for another version, then calls init, which registers algorithms through the
 * registrar. A registered algorithm joins its collective's list: SMA_INFO shows it and every
 * SMA_<COLLECTIVE>_ALGORITHM rule can name it, like a built-in one.
 *
 * ABI version rules: the version changes whenever a structure below changes layout or meaning
 * (members are never reordered or removed within a version); `abi_version` stays the first
 * member of shoal_coll_plugin in every version, so any library can read it.
 *
 * What an algorithm may do (see docs/plugins.md):
 *   - use the OpenSHMEM API for point-to-point traffic: RMA, AMOs, signals, waits, quiet;
 *   - read and write dest and source as the collective defines them, and the team's plug-in
 *     scratch (call->scratch, symmetric, the same address on every team PE, shared by all
 *     plug-in algorithms of that team, zero at team creation, kept between calls);
 *   - before writing into another PE's dest or scratch, make sure that PE has entered this call
 *     (e.g. it sets a flag to call->sequence at the writer): a peer may still be in the
 *     previous collective;
 *   - a collective called from inside a plug-in algorithm runs a built-in algorithm (never a
 *     plug-in one), so it cannot recurse.
 * applies() must give the same answer on every PE of the team for the same call; run() returns
 * 0, or nonzero to end the job with an error naming the algorithm.
 */
#ifndef SHOAL_COLL_PLUGIN_H
#define SHOAL_COLL_PLUGIN_H

#include <shmem.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SHOAL_COLL_PLUGIN_ABI_VERSION 1u

/* The collectives an algorithm can serve (SMA_<COLLECTIVE>_ALGORITHM). barrier serves
 * shmem_barrier_all, shmem_sync_all, shmem_barrier, shmem_sync, shmem_team_sync; alltoall also
 * alltoalls; scan serves sum_inscan and sum_exscan. */
typedef enum shoal_coll_collective {
  SHOAL_COLL_BARRIER = 0,
  SHOAL_COLL_BROADCAST = 1,
  SHOAL_COLL_REDUCE = 2,
  SHOAL_COLL_COLLECT = 3,
  SHOAL_COLL_FCOLLECT = 4,
  SHOAL_COLL_ALLTOALL = 5,
  SHOAL_COLL_SCAN = 6
} shoal_coll_collective;

/* inout[i] = inout[i] OP in[i] for i < nelems (the reduction's or scan's type and operator). */
typedef void (*shoal_coll_combine)(void *inout, const void *in, size_t nelems);

/* One call of a collective, as an algorithm sees it. PE numbers are team PE numbers; the
 * library has handled teams of one PE and calls that move nothing (no algorithm sees them). */
typedef struct shoal_coll_call {
  shoal_coll_collective collective;
  shmem_team_t team;  /* translate with shmem_team_translate_pe(team, pe, SHMEM_TEAM_WORLD) */
  int my_pe, n_pes;   /* this PE's team PE number and the team's size (>= 2) */
  void *dest;         /* symmetric (barrier: NULL) */
  const void *source; /* broadcast: read at the root only */
  size_t nelems;      /* elements per PE; collect: this PE's contribution */
  size_t elem_size;   /* bytes per element */
  int root;           /* broadcast: the root's team PE number */
  ptrdiff_t dst_stride, sst_stride; /* alltoall(s), in elements (1 for alltoall) */
  shoal_coll_combine combine;       /* reduce, scan */
  int exclusive;                    /* scan: exscan (team PE 0's dest becomes all zero bytes) */
  const size_t *counts, *displs;    /* collect/fcollect: every PE's element count and offset */
  size_t total;                     /* collect/fcollect: sum of counts */
  size_t message_bytes;             /* what the rules' `bytes` conditions compare */
  void *scratch;                    /* the team's plug-in scratch (symmetric) */
  size_t scratch_bytes;             /* SMA_COLL_SCRATCH_SIZE */
  /* 1 for the team's first plug-in call, one more for each later one: the same on every team
   * PE, so a flag set to it tells "this call" from earlier ones (applies() sees the value the
   * call would get). */
  uint64_t sequence;
  const char *routine; /* the OpenSHMEM routine called, for messages */
} shoal_coll_call;

typedef struct shoal_coll_algorithm {
  shoal_coll_collective collective;
  const char *name;    /* letters, digits, '_' and '-'; unique within its collective */
  const char *summary; /* one line for SMA_INFO */
  /* Nonzero when the algorithm serves this call (NULL: every call). */
  int (*applies)(const shoal_coll_call *call, void *context);
  int (*run)(const shoal_coll_call *call, void *context); /* 0 on success */
  void *context;                                          /* handed back to both */
} shoal_coll_algorithm;

/* What init gets: add() registers one algorithm (the library copies it, strings included) and
 * returns 0, or nonzero when it is refused (a bad name or collective, no run function, a name
 * its collective already has); the library then reports why and shmem_init fails. */
typedef struct shoal_coll_registrar shoal_coll_registrar;
struct shoal_coll_registrar {
  unsigned abi_version; /* the library's SHOAL_COLL_PLUGIN_ABI_VERSION */
  int (*add)(shoal_coll_registrar *self, const shoal_coll_algorithm *algorithm);
  void *library_private;
};

/* The one symbol a plug-in exports. */
typedef struct shoal_coll_plugin {
  unsigned abi_version; /* SHOAL_COLL_PLUGIN_ABI_VERSION; the first member in every version */
  const char *name;     /* the plug-in's name, for messages */
  int (*init)(shoal_coll_registrar *registrar); /* 0 on success */
} shoal_coll_plugin;

#define SHOAL_COLL_PLUGIN_SYMBOL "shoal_coll_plugin_entry"

__attribute__((visibility("default"))) extern const shoal_coll_plugin shoal_coll_plugin_entry;

/* Defines the plug-in's entry: SHOAL_COLL_PLUGIN("my_plugin", my_init); */
#define SHOAL_COLL_PLUGIN(NAME, INIT)                                                        \
  __attribute__((visibility("default"))) const shoal_coll_plugin shoal_coll_plugin_entry = { \
      SHOAL_COLL_PLUGIN_ABI_VERSION, (NAME), (INIT)}

#ifdef __cplusplus
}
#endif

#endif /* SHOAL_COLL_PLUGIN_H */
