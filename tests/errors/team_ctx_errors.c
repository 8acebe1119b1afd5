/* Teams and contexts with impossible arguments. A team split or a context creation that cannot
 * be done returns nonzero and SHMEM_TEAM_INVALID / SHMEM_CTX_INVALID on every PE after a
 * message (return cases, as the specification defines); using or destroying a context that
 * does not exist ends the whole job with a message naming the routine and the handle (fatal
 * cases). Destroyed teams: tests/team/team_errors.cpp; SHMEM_CTX_INVALID in get_team and
 * destroy: tests/ctx/ctx_api_test.cpp. See error_case.h; N is the number of PEs.
 *
 * Cases:
 *   split_start_high        (return) shmem_team_split_strided(WORLD, N, 1, 1)
 *   split_start_negative    (return) shmem_team_split_strided(WORLD, -1, 1, 1)
 *   split_size_zero         (return) shmem_team_split_strided(WORLD, 0, 1, 0)
 *   split_size_too_big      (return) shmem_team_split_strided(WORLD, 0, 1, N + 1)
 *   split_stride_zero       (return) shmem_team_split_strided(WORLD, 0, 0, 2)
 *   split_stride_past_end   (return) shmem_team_split_strided(WORLD, 1, N, 2)
 *   split_invalid_parent    (return) shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1)
 *   split_null_result       (return) shmem_team_split_strided with new_team NULL
 *   split_2d_xrange_zero    (return) shmem_team_split_2d(WORLD, 0)
 *   split_2d_invalid_parent (return) shmem_team_split_2d(SHMEM_TEAM_INVALID, 1)
 *   get_config_invalid      (return) shmem_team_get_config(SHMEM_TEAM_INVALID)
 *   ctx_create_null         (return) shmem_ctx_create(0, NULL)
 *   team_create_ctx_invalid (return) shmem_team_create_ctx(SHMEM_TEAM_INVALID)
 *   team_queries_invalid    (return) shmem_team_my_pe / shmem_team_n_pes(SHMEM_TEAM_INVALID)
 *   ctx_quiet_invalid       (return) shmem_ctx_quiet(SHMEM_CTX_INVALID) is a no-op
 *   ctx_fence_invalid       (return) shmem_ctx_fence(SHMEM_CTX_INVALID) is a no-op
 *   ctx_pe_quiet_invalid    (return) shmem_ctx_pe_quiet(SHMEM_CTX_INVALID, ...) is a no-op
 *   ctx_invalid_put         shmem_ctx_putmem on SHMEM_CTX_INVALID
 *   ctx_destroyed_put       shmem_ctx_long_put on a destroyed context
 *   ctx_destroyed_quiet     shmem_ctx_quiet on a destroyed context
 *   ctx_destroy_twice       shmem_ctx_destroy of a destroyed context
 *   ctx_destroy_default     shmem_ctx_destroy(SHMEM_CTX_DEFAULT)
 */
#include "error_case.h"

static long *heap;

static int split_failed(const char *what, int rc, shmem_team_t team) {
  return returned(what, rc, rc != 0 && team == SHMEM_TEAM_INVALID);
}
static int split(shmem_team_t parent, int start, int stride, int size, const char *what) {
  shmem_team_t team = SHMEM_TEAM_WORLD; /* must be overwritten */
  const int rc = shmem_team_split_strided(parent, start, stride, size, NULL, 0, &team);
  return split_failed(what, rc, team);
}
static int split_start_high(void) {
  return split(SHMEM_TEAM_WORLD, shmem_n_pes(), 1, 1, "split_strided(start N)");
}
static int split_start_negative(void) {
  return split(SHMEM_TEAM_WORLD, -1, 1, 1, "split_strided(start -1)");
}
static int split_size_zero(void) {
  return split(SHMEM_TEAM_WORLD, 0, 1, 0, "split_strided(size 0)");
}
static int split_size_too_big(void) {
  return split(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes() + 1, "split_strided(size N + 1)");
}
static int split_stride_zero(void) {
  return split(SHMEM_TEAM_WORLD, 0, 0, 2, "split_strided(stride 0, size 2)");
}
static int split_stride_past_end(void) {
  return split(SHMEM_TEAM_WORLD, 1, shmem_n_pes(), 2, "split_strided(1, N, 2)");
}
static int split_invalid_parent(void) {
  return split(SHMEM_TEAM_INVALID, 0, 1, 1, "split_strided(SHMEM_TEAM_INVALID)");
}
static int split_null_result(void) {
  const int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, NULL, 0, NULL);
  return returned("split_strided(new_team NULL)", rc, rc != 0);
}
static int split_2d(shmem_team_t parent, int xrange, const char *what) {
  shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
  const int rc = shmem_team_split_2d(parent, xrange, NULL, 0, &x, NULL, 0, &y);
  return returned(what, rc, rc != 0 && x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID);
}
static int split_2d_xrange_zero(void) {
  return split_2d(SHMEM_TEAM_WORLD, 0, "split_2d(xrange 0)");
}
static int split_2d_invalid_parent(void) {
  return split_2d(SHMEM_TEAM_INVALID, 1, "split_2d(SHMEM_TEAM_INVALID)");
}
static int get_config_invalid(void) {
  shmem_team_config_t config;
  const int rc = shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &config);
  return returned("team_get_config(SHMEM_TEAM_INVALID)", rc, rc != 0);
}
static int ctx_create_null(void) {
  const int rc = shmem_ctx_create(0, NULL);
  return returned("ctx_create(0, NULL)", rc, rc != 0);
}
static int team_create_ctx_invalid(void) {
  shmem_ctx_t ctx = SHMEM_CTX_DEFAULT; /* must be overwritten */
  const int rc = shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &ctx);
  return returned("team_create_ctx(SHMEM_TEAM_INVALID)", rc, rc != 0 && ctx == SHMEM_CTX_INVALID);
}

static shmem_ctx_t destroyed_ctx(void) {
  shmem_ctx_t ctx = SHMEM_CTX_INVALID;
  if (shmem_ctx_create(0, &ctx) != 0) {
    printf("SETUP FAILED: shmem_ctx_create\n");
    shmem_global_exit(3);
  }
  shmem_ctx_destroy(ctx);
  return ctx; /* dangling on purpose */
}
static int team_queries_invalid(void) {
  const int my_pe = shmem_team_my_pe(SHMEM_TEAM_INVALID);
  const int n_pes = shmem_team_n_pes(SHMEM_TEAM_INVALID);
  return returned("team_my_pe(SHMEM_TEAM_INVALID)", my_pe, my_pe == -1) &
         returned("team_n_pes(SHMEM_TEAM_INVALID)", n_pes, n_pes == -1);
}

/* SHMEM_CTX_INVALID given to fence and quiet: no operation (OpenSHMEM 1.5, 1.6), and the
 * default context still works after it. */
static int default_ctx_works(const char *what) {
  const int me = shmem_my_pe(), next = (me + 1) % shmem_n_pes();
  shmem_long_p(heap + 2, 100 + me, next);
  shmem_quiet();
  shmem_barrier_all();
  const long expected = 100 + (me + shmem_n_pes() - 1) % shmem_n_pes();
  return returned(what, heap[2], heap[2] == expected);
}
static int ctx_quiet_invalid(void) {
  shmem_ctx_quiet(SHMEM_CTX_INVALID);
  return default_ctx_works("ctx_quiet(SHMEM_CTX_INVALID), then a put");
}
static int ctx_fence_invalid(void) {
  shmem_ctx_fence(SHMEM_CTX_INVALID);
  return default_ctx_works("ctx_fence(SHMEM_CTX_INVALID), then a put");
}
static int ctx_pe_quiet_invalid(void) {
  const int pes[1] = {0};
  shmem_ctx_pe_quiet(SHMEM_CTX_INVALID, pes, 1);
  return default_ctx_works("ctx_pe_quiet(SHMEM_CTX_INVALID), then a put");
}

static void ctx_invalid_put(void) { shmem_ctx_putmem(SHMEM_CTX_INVALID, heap, heap + 1, 8, 0); }
static void ctx_destroyed_put(void) { shmem_ctx_long_put(destroyed_ctx(), heap, heap + 1, 1, 0); }
static void ctx_destroyed_quiet(void) { shmem_ctx_quiet(destroyed_ctx()); }
static void ctx_destroy_twice(void) { shmem_ctx_destroy(destroyed_ctx()); }
static void ctx_destroy_default(void) { shmem_ctx_destroy(SHMEM_CTX_DEFAULT); }

static const struct error_case cases[] = {
    {"split_start_high", NULL, split_start_high},
    {"split_start_negative", NULL, split_start_negative},
    {"split_size_zero", NULL, split_size_zero},
    {"split_size_too_big", NULL, split_size_too_big},
    {"split_stride_zero", NULL, split_stride_zero},
    {"split_stride_past_end", NULL, split_stride_past_end},
    {"split_invalid_parent", NULL, split_invalid_parent},
    {"split_null_result", NULL, split_null_result},
    {"split_2d_xrange_zero", NULL, split_2d_xrange_zero},
    {"split_2d_invalid_parent", NULL, split_2d_invalid_parent},
    {"get_config_invalid", NULL, get_config_invalid},
    {"ctx_create_null", NULL, ctx_create_null},
    {"team_create_ctx_invalid", NULL, team_create_ctx_invalid},
    {"team_queries_invalid", NULL, team_queries_invalid},
    {"ctx_quiet_invalid", NULL, ctx_quiet_invalid},
    {"ctx_fence_invalid", NULL, ctx_fence_invalid},
    {"ctx_pe_quiet_invalid", NULL, ctx_pe_quiet_invalid},
    {"ctx_invalid_put", ctx_invalid_put, NULL},
    {"ctx_destroyed_put", ctx_destroyed_put, NULL},
    {"ctx_destroyed_quiet", ctx_destroyed_quiet, NULL},
    {"ctx_destroy_twice", ctx_destroy_twice, NULL},
    {"ctx_destroy_default", ctx_destroy_default, NULL},
};

int main(int argc, char **argv) {
  const struct error_case *c = INIT_FOR_CASE(cases);
  heap = (long *)shmem_calloc(4, sizeof(long));
  shmem_barrier_all();
  return run_case(c);
}
