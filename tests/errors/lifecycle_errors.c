/* Every family of routines called before shmem_init or after shmem_finalize must end the job
 * with "<routine>: called before shmem_init" (or "after shmem_finalize"), never crash or carry
 * on. argv[1] is before_<call> or after_<call>; for "after" every PE initializes and finalizes,
 * then the last PE makes the call while the others exit 0, so only the error can make the job
 * fail. (shmem_*_wait_until before and shmem_*_test after: tests/sync/sync_errors.c.) */
#include "error_case.h"

#include <stdint.h>

static long g_var[8];
static uint64_t g_sig;
static long g_lock;

static void call_putmem(void) { shmem_putmem(g_var, g_var + 1, 8, 0); }
static void call_long_p(void) { shmem_long_p(g_var, 1, 0); }
static void call_int_g(void) { (void)shmem_int_g((int *)g_var, 0); }
static void call_long_iput(void) { shmem_long_iput(g_var, g_var + 4, 1, 1, 2, 0); }
static void call_long_put_nbi(void) { shmem_long_put_nbi(g_var, g_var + 4, 2, 0); }
static void call_quiet(void) { shmem_quiet(); }
static void call_fence(void) { shmem_fence(); }
static void call_ctx_quiet(void) { shmem_ctx_quiet(SHMEM_CTX_DEFAULT); }
static void call_atomic_fetch_add(void) { (void)shmem_long_atomic_fetch_add(g_var, 1, 0); }
static void call_atomic_inc(void) { shmem_int_atomic_inc((int *)g_var, 0); }
static void call_atomic_fetch_nbi(void) {
  long fetched;
  shmem_long_atomic_fetch_nbi(&fetched, g_var, 0);
}
static void call_ctx_atomic_set(void) { shmem_ctx_long_atomic_set(SHMEM_CTX_DEFAULT, g_var, 1, 0); }
static void call_put_signal(void) {
  shmem_long_put_signal(g_var, g_var + 4, 1, &g_sig, 1, SHMEM_SIGNAL_SET, 0);
}
static void call_signal_fetch(void) { (void)shmem_signal_fetch(&g_sig); }
static void call_signal_add(void) { shmem_signal_add(&g_sig, 1, 0); }
static void call_signal_wait_until(void) { (void)shmem_signal_wait_until(&g_sig, SHMEM_CMP_EQ, 0); }
static void call_ptr(void) { (void)shmem_ptr(g_var, 0); }
static void call_addr_accessible(void) { (void)shmem_addr_accessible(g_var, 0); }
static void call_pe_accessible(void) { (void)shmem_pe_accessible(0); }
static void call_my_pe(void) { (void)shmem_my_pe(); }
static void call_n_pes(void) { (void)shmem_n_pes(); }
static void call_team_my_pe(void) { (void)shmem_team_my_pe(SHMEM_TEAM_WORLD); }
static void call_team_n_pes(void) { (void)shmem_team_n_pes(SHMEM_TEAM_WORLD); }
static void call_team_translate_pe(void) {
  (void)shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_SHARED);
}
static void call_team_get_config(void) {
  shmem_team_config_t config;
  (void)shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &config);
}
static void call_barrier_all(void) { shmem_barrier_all(); }
static void call_sync_all(void) { shmem_sync_all(); }
static void call_team_sync(void) { (void)shmem_team_sync(SHMEM_TEAM_WORLD); }
static void call_broadcast(void) {
  (void)shmem_long_broadcast(SHMEM_TEAM_WORLD, g_var, g_var, 2, 0);
}
static void call_sum_reduce(void) {
  (void)shmem_long_sum_reduce(SHMEM_TEAM_WORLD, g_var, g_var, 2);
}
static void call_alltoall(void) {
  (void)shmem_long_alltoall(SHMEM_TEAM_WORLD, g_var, g_var + 4, 1);
}
static void call_team_split(void) {
  shmem_team_t t;
  (void)shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, NULL, 0, &t);
}
static void call_team_destroy(void) { shmem_team_destroy(SHMEM_TEAM_SHARED); }
static void call_ctx_create(void) {
  shmem_ctx_t ctx;
  (void)shmem_ctx_create(0, &ctx);
}
static void call_team_create_ctx(void) {
  shmem_ctx_t ctx;
  (void)shmem_team_create_ctx(SHMEM_TEAM_WORLD, 0, &ctx);
}
static void call_malloc(void) { (void)shmem_malloc(64); }
static void call_calloc(void) { (void)shmem_calloc(2, 64); }
static void call_free(void) { shmem_free(NULL); }
static void call_set_lock(void) { shmem_set_lock(&g_lock); }
static void call_test_lock(void) { (void)shmem_test_lock(&g_lock); }
static void call_query_thread(void) {
  int level;
  shmem_query_thread(&level);
}

static const struct error_case calls[] = {
    {"putmem", call_putmem},
    {"long_p", call_long_p},
    {"int_g", call_int_g},
    {"long_iput", call_long_iput},
    {"long_put_nbi", call_long_put_nbi},
    {"quiet", call_quiet},
    {"fence", call_fence},
    {"ctx_quiet", call_ctx_quiet},
    {"atomic_fetch_add", call_atomic_fetch_add},
    {"atomic_inc", call_atomic_inc},
    {"atomic_fetch_nbi", call_atomic_fetch_nbi},
    {"ctx_atomic_set", call_ctx_atomic_set},
    {"put_signal", call_put_signal},
    {"signal_fetch", call_signal_fetch},
    {"signal_add", call_signal_add},
    {"signal_wait_until", call_signal_wait_until},
    {"ptr", call_ptr},
    {"addr_accessible", call_addr_accessible},
    {"pe_accessible", call_pe_accessible},
    {"my_pe", call_my_pe},
    {"n_pes", call_n_pes},
    {"team_my_pe", call_team_my_pe},
    {"team_n_pes", call_team_n_pes},
    {"team_translate_pe", call_team_translate_pe},
    {"team_get_config", call_team_get_config},
    {"barrier_all", call_barrier_all},
    {"sync_all", call_sync_all},
    {"team_sync", call_team_sync},
    {"broadcast", call_broadcast},
    {"sum_reduce", call_sum_reduce},
    {"alltoall", call_alltoall},
    {"team_split", call_team_split},
    {"team_destroy", call_team_destroy},
    {"ctx_create", call_ctx_create},
    {"team_create_ctx", call_team_create_ctx},
    {"malloc", call_malloc},
    {"calloc", call_calloc},
    {"free", call_free},
    {"set_lock", call_set_lock},
    {"test_lock", call_test_lock},
    {"query_thread", call_query_thread},
};

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  const int before = strncmp(which, "before_", 7) == 0;
  const int after = strncmp(which, "after_", 6) == 0;
  const struct error_case *c = find_case(calls, COUNT_OF(calls),
                                         which + (before  ? 7
                                                  : after ? 6
                                                          : 0));
  if (c == NULL || !(before || after)) {
    fprintf(stderr, "%s: cases are before_<call> and after_<call>\n", argv[0]);
    unknown_case(argv[0], calls, COUNT_OF(calls), which);
  }
  if (after) {
    shmem_init();
    const int last = shmem_my_pe() == shmem_n_pes() - 1;
    shmem_finalize();
    if (!last) return 0;
  }
  printf("%s\n", which);
  fflush(stdout);
  c->run();
  printf("UNREACHABLE: %s returned\n", which);
  return 0;
}
