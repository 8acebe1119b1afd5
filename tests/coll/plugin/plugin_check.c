/* The example plug-in (examples/coll_plugin/ring_plugin.c) forced by name and checked by value,
 * run with (tests/coll/plugin/run_plugin_example.cmake):
 *   SMA_COLL_PLUGINS=<ring_plugin.so>:<nested_plugin.so>  SMA_BARRIER_ALGORITHM=ring
 *   SMA_BCAST_ALGORITHM=ring:bytes<=4k,binomial
 *   SMA_REDUCE_ALGORITHM=gather_fold:bytes<=4k,recursive_doubling
 *   SMA_FCOLLECT_ALGORITHM=nested (its fcollect calls shmem_fcollectmem inside: built-in then)
 *   COLL_PLUGIN_EXAMPLE, COLL_PLUGIN_NESTED: the two files, to read their run counts
 * Broadcasts, reductions and barriers of the plug-in alternate with built-in algorithms of the
 * same collectives (messages above 4 KiB) and of others (fcollect, alltoall) back to back, on
 * the world team and on a strided split. The plug-in counts its runs; this program counts the
 * calls the rules give it and compares, so a plug-in that never ran fails too. Every PE prints
 * "plugin check ok on PE <k> of <n>" only if all of it held. */
#include <dlfcn.h>
#include <shmem.h>
#include <shoal/coll_plugin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ELEMS 2048 /* 16 KiB of longs: beyond the plug-in rules' 4 KiB */

static int failures;
static int me, npes;

#define CHECK(cond, ...)                       \
  do {                                         \
    if (!(cond)) {                             \
      ++failures;                              \
      printf("PE %d: FAILED %s: ", me, #cond); \
      printf(__VA_ARGS__);                     \
      printf("\n");                            \
    }                                          \
  } while (0)

typedef long (*runs_fn)(int);
typedef long (*nested_runs_fn)(void);
static runs_fn runs;
static nested_runs_fn nested_runs;

/* A function of a plug-in this process loaded (through SMA_COLL_PLUGINS), or NULL. */
static void *plugin_function(const char *variable, const char *name) {
  const char *path = getenv(variable);
  void *plugin = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
  return plugin ? dlsym(plugin, name) : NULL;
}

static long value(int root, int i) { return 1000L * root + i * 7 + 3; }

/* Broadcast from every root on `team`, checked on every member (the root too). */
static long broadcasts(shmem_team_t team, long *dst, long *src, size_t nelems) {
  long plugin_calls = 0;
  const int n = shmem_team_n_pes(team), mine = shmem_team_my_pe(team);
  for (int root = 0; root < n; ++root) {
    for (size_t i = 0; i < nelems; ++i) {
      src[i] = value(root, (int)i);
      dst[i] = -1;
    }
    shmem_long_broadcast(team, dst, src, nelems, root);
    if (n > 1 && nelems * sizeof(long) <= 4096) ++plugin_calls;
    size_t bad = 0;
    for (size_t i = 0; i < nelems; ++i) bad += dst[i] != value(root, (int)i);
    CHECK(bad == 0, "broadcast of %zu longs from team PE %d: %zu wrong (team PE %d)", nelems, root,
          bad, mine);
  }
  return plugin_calls;
}

/* A sum reduction on `team`, in place when asked; every element checked. */
static long reduction(shmem_team_t team, long *dst, long *src, size_t nelems, int in_place) {
  const int n = shmem_team_n_pes(team), mine = shmem_team_my_pe(team);
  for (size_t i = 0; i < nelems; ++i) src[i] = mine + (long)i;
  long *out = in_place ? src : dst;
  shmem_long_sum_reduce(team, out, src, nelems);
  size_t bad = 0;
  for (size_t i = 0; i < nelems; ++i) bad += out[i] != (long)n * (long)i + (long)n * (n - 1) / 2;
  CHECK(bad == 0, "sum of %zu longs%s on a team of %d: %zu wrong", nelems,
        in_place ? " in place" : "", n, bad);
  return n > 1 && nelems * sizeof(long) <= 4096 ? 1 : 0;
}

/* Other collectives between the plug-in's on the world team: an fcollect (the nested plug-in,
 * which runs a built-in fcollect inside) and a built-in alltoall. */
static void builtin_between(long *dst, long *src, int round) {
  src[0] = me * 10 + round;
  src[1] = me * 10 + round + 1;
  shmem_long_fcollect(SHMEM_TEAM_WORLD, dst, src, 2);
  size_t bad = 0;
  for (int pe = 0; pe < npes; ++pe)
    bad += dst[2 * pe] != pe * 10 + round || dst[2 * pe + 1] != pe * 10 + round + 1;
  CHECK(bad == 0, "fcollect between plug-in calls (round %d): %zu wrong", round, bad);
  for (int pe = 0; pe < npes; ++pe) src[pe] = me * 100 + pe + round;
  shmem_long_alltoall(SHMEM_TEAM_WORLD, dst, src, 1);
  bad = 0;
  for (int pe = 0; pe < npes; ++pe) bad += dst[pe] != pe * 100 + me + round;
  CHECK(bad == 0, "alltoall between plug-in calls (round %d): %zu wrong", round, bad);
}

int main(void) {
  shmem_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  runs = (runs_fn)plugin_function("COLL_PLUGIN_EXAMPLE", "coll_plugin_example_runs");
  nested_runs = (nested_runs_fn)plugin_function("COLL_PLUGIN_NESTED", "coll_plugin_nested_runs");
  if (runs == NULL || nested_runs == NULL) {
    printf(
        "PE %d: FAILED: the plug-ins of COLL_PLUGIN_EXAMPLE and COLL_PLUGIN_NESTED are not "
        "loaded in this process\n",
        me);
    shmem_global_exit(1);
  }
  long *src = shmem_malloc(MAX_ELEMS * sizeof(long));
  long *dst = shmem_malloc(MAX_ELEMS * sizeof(long));
  static long mailbox[64];
  /* The even PEs (a team of one PE at 2 PEs: no algorithm runs there). */
  shmem_team_t evens = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);

  const long bcast0 = runs(SHOAL_COLL_BROADCAST), reduce0 = runs(SHOAL_COLL_REDUCE);
  const long barrier0 = runs(SHOAL_COLL_BARRIER), fcollect0 = nested_runs();
  long bcasts = 0, reduces = 0, barriers = 0, fcollects = 0;
  const size_t sizes[] = {1, 3, 64, 512, MAX_ELEMS};
  for (int round = 0; round < 3; ++round) {
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
      bcasts += broadcasts(SHMEM_TEAM_WORLD, dst, src, sizes[s]);
      builtin_between(dst, src, round);
      ++fcollects;
      reduces += reduction(SHMEM_TEAM_WORLD, dst, src, sizes[s], (int)s == round);
      /* A barrier that must order the puts before it: each PE tells its right neighbour. */
      shmem_long_p(&mailbox[round], 100 * round + me, (me + 1) % npes);
      shmem_barrier_all();
      ++barriers;
      CHECK(mailbox[round] == 100 * round + (me + npes - 1) % npes,
            "barrier: the left neighbour's put is not there (%ld)", mailbox[round]);
      shmem_barrier_all(); /* before mailbox[round] is written again */
      ++barriers;
      if (evens != SHMEM_TEAM_INVALID) {
        bcasts += broadcasts(evens, dst, src, sizes[s]);
        reduces += reduction(evens, dst, src, sizes[s], 0);
        shmem_team_sync(evens);
        if (shmem_team_n_pes(evens) > 1) ++barriers;
      }
    }
  }
  if (npes == 1) bcasts = reduces = barriers = fcollects = 0; /* no algorithm for one PE */
  CHECK(nested_runs() - fcollect0 == fcollects, "the nested fcollect ran %ld times, %ld expected",
        nested_runs() - fcollect0, fcollects);
  CHECK(runs(SHOAL_COLL_BROADCAST) - bcast0 == bcasts,
        "the plug-in broadcast ran %ld times, %ld expected", runs(SHOAL_COLL_BROADCAST) - bcast0,
        bcasts);
  CHECK(runs(SHOAL_COLL_REDUCE) - reduce0 == reduces,
        "the plug-in reduce ran %ld times, %ld expected", runs(SHOAL_COLL_REDUCE) - reduce0,
        reduces);
  CHECK(runs(SHOAL_COLL_BARRIER) - barrier0 == barriers,
        "the plug-in barrier ran %ld times, %ld expected", runs(SHOAL_COLL_BARRIER) - barrier0,
        barriers);
  printf("PE %d: plug-in runs: broadcast %ld, reduce %ld, barrier %ld, fcollect %ld\n", me, bcasts,
         reduces, barriers, fcollects);
  if (evens != SHMEM_TEAM_INVALID) shmem_team_destroy(evens);
  shmem_free(dst);
  shmem_free(src);
  if (failures == 0) printf("plugin check ok on PE %d of %d\n", me, npes);
  fflush(stdout);
  shmem_finalize();
  return failures == 0 ? 0 : 1;
}
