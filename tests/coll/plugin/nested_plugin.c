/* A plug-in whose fcollect "nested" calls shmem_fcollectmem on the same team from inside the
 * algorithm: the inner call must get a built-in algorithm (plug-in algorithms do not apply
 * there), not recurse into "nested" again. Counts its runs like the example. */
#include <shmem.h>
#include <shoal/coll_plugin.h>

static long g_runs;
__attribute__((visibility("default"))) long coll_plugin_nested_runs(void) { return g_runs; }

static int nested(const shoal_coll_call *c, void *context) {
  (void)context;
  ++g_runs;
  return shmem_fcollectmem(c->team, c->dest, c->source, c->nelems * c->elem_size);
}

static int init(shoal_coll_registrar *r) {
  const shoal_coll_algorithm a = {SHOAL_COLL_FCOLLECT,
                                  "nested",
                                  "test plug-in: shmem_fcollectmem from inside the algorithm",
                                  NULL,
                                  nested,
                                  NULL};
  return r->add(r, &a);
}

SHOAL_COLL_PLUGIN("nested", init);
