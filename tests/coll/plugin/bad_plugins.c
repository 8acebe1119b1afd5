/* Plug-ins that shmem_init must refuse, naming the file (tests/coll/plugin/CMakeLists.txt builds
 * one shared object per BAD_* macro):
 *   BAD_ABI          an entry built for ABI 999
 *   BAD_NO_ENTRY     no shoal_coll_plugin_entry at all
 *   BAD_CLASH        registers a broadcast algorithm named like a built-in one ("binomial")
 *   BAD_INIT_FAILS   its init function returns 7 without registering anything
 *   BAD_NAME         registers an algorithm whose name the rules could not spell ("a,b")
 *   BAD_RUN_FAILS    a barrier "fails" whose run returns 3: the job ends naming it */
#include <shoal/coll_plugin.h>

static int run_nothing(const shoal_coll_call *call, void *context) {
  (void)call;
  (void)context;
  return 0;
}

#if defined(BAD_ABI)
static int init(shoal_coll_registrar *r) {
  (void)r;
  return 0;
}
__attribute__((visibility("default")))
const shoal_coll_plugin shoal_coll_plugin_entry = {999u, "from_the_future", init};
#elif defined(BAD_NO_ENTRY)
__attribute__((visibility("default"))) int not_a_plugin(void) { return run_nothing(0, 0); }
#elif defined(BAD_CLASH) || defined(BAD_NAME)
static int init(shoal_coll_registrar *r) {
#ifdef BAD_CLASH
  const char *name = "binomial";
#else
  const char *name = "a,b";
#endif
  const shoal_coll_algorithm a = {SHOAL_COLL_BROADCAST, name, "refused", 0, run_nothing, 0};
  return r->add(r, &a);
}
SHOAL_COLL_PLUGIN("bad", init);
#elif defined(BAD_RUN_FAILS)
static int run_fails(const shoal_coll_call *call, void *context) {
  (void)call;
  (void)context;
  return 3;
}
static int init(shoal_coll_registrar *r) {
  const shoal_coll_algorithm a = {SHOAL_COLL_BARRIER, "fails", "returns 3", 0, run_fails, 0};
  return r->add(r, &a) + run_nothing(0, 0);
}
SHOAL_COLL_PLUGIN("failing_run", init);
#elif defined(BAD_INIT_FAILS)
static int init(shoal_coll_registrar *r) {
  (void)r;
  return 7;
}
SHOAL_COLL_PLUGIN("failing", init);
#else
#error "define one BAD_* macro"
#endif
