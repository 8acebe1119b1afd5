// Misuse of team handles, one case per run (argv[1]); every PE makes the same call. The
// specification leaves these undefined; Shoal reports them. tests/cmake/expect_job.cmake runs a
// case and checks the outcome: either the call returns an error code on every PE after a message
// naming the routine (mode "return": this program then exits 0 if every PE got the documented
// value), or the job ends promptly, non-zero, with such a message (mode "fatal": a PE printing
// "RETURNED" went on after the error).
#include <shmem.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

long g_src[4], g_dst[4];

shmem_team_t destroyed_team() {
  shmem_team_t t = SHMEM_TEAM_INVALID;
  if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), nullptr, 0, &t) != 0 ||
      t == SHMEM_TEAM_INVALID) {
    std::printf("SETUP FAILED: split\n");
    shmem_global_exit(2);
  }
  shmem_team_destroy(t);
  return t;  // dangling on purpose
}

// Reports the value a call returned; true when it is the expected one.
bool returned(const char* what, long got, bool ok) {
  std::printf("RETURNED pe %d: %s -> %ld (%s)\n", shmem_my_pe(), what, got,
              ok ? "as expected" : "UNEXPECTED");
  std::fflush(stdout);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CASE\n", argv[0]);
    return 2;
  }
  const std::string c = argv[1];
  shmem_init();
  bool ok = true;

  if (c == "sync_destroyed") {
    shmem_team_t t = destroyed_team();
    const int rc = shmem_team_sync(t);
    ok = returned("shmem_team_sync(destroyed)", rc, rc != 0);
  } else if (c == "sync_invalid") {
    const int rc = shmem_team_sync(SHMEM_TEAM_INVALID);
    ok = returned("shmem_team_sync(SHMEM_TEAM_INVALID)", rc, rc != 0);
  } else if (c == "reduce_destroyed") {
    shmem_team_t t = destroyed_team();
    const int rc = shmem_long_sum_reduce(t, g_dst, g_src, 4);
    ok = returned("shmem_long_sum_reduce(destroyed)", rc, rc != 0);
  } else if (c == "broadcast_destroyed") {
    shmem_team_t t = destroyed_team();
    const int rc = shmem_long_broadcast(t, g_dst, g_src, 4, 0);
    ok = returned("shmem_long_broadcast(destroyed)", rc, rc != 0);
  } else if (c == "split_destroyed") {
    shmem_team_t t = destroyed_team();
    shmem_team_t out = SHMEM_TEAM_WORLD;
    const int rc = shmem_team_split_strided(t, 0, 1, 1, nullptr, 0, &out);
    ok = returned("shmem_team_split_strided(destroyed parent)", rc,
                  rc != 0 && out == SHMEM_TEAM_INVALID);
  } else if (c == "create_ctx_destroyed") {
    shmem_team_t t = destroyed_team();
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
    const int rc = shmem_team_create_ctx(t, 0, &ctx);
    ok = returned("shmem_team_create_ctx(destroyed)", rc, rc != 0 && ctx == SHMEM_CTX_INVALID);
  } else if (c == "queries_destroyed") {
    shmem_team_t t = destroyed_team();
    ok = returned("shmem_team_my_pe(destroyed)", shmem_team_my_pe(t), shmem_team_my_pe(t) == -1);
    ok &= returned("shmem_team_n_pes(destroyed)", shmem_team_n_pes(t), shmem_team_n_pes(t) == -1);
    const int tr = shmem_team_translate_pe(t, 0, SHMEM_TEAM_WORLD);
    ok &= returned("shmem_team_translate_pe(destroyed)", tr, tr == -1);
  } else if (c == "destroy_twice") {
    shmem_team_t t = destroyed_team();
    shmem_team_destroy(t);
    ok = returned("shmem_team_destroy(destroyed)", 0, true);
    ok &= returned("shmem_team_sync(WORLD) afterwards", shmem_team_sync(SHMEM_TEAM_WORLD), true);
  } else if (c == "destroy_world") {
    shmem_team_destroy(SHMEM_TEAM_WORLD);
    const int n = shmem_team_n_pes(SHMEM_TEAM_WORLD);
    ok = returned("shmem_team_n_pes(WORLD) after shmem_team_destroy(WORLD)", n, n == shmem_n_pes());
    ok &= returned("shmem_team_sync(WORLD) afterwards", shmem_team_sync(SHMEM_TEAM_WORLD), true);
  } else {
    std::fprintf(stderr, "unknown case %s\n", c.c_str());
    shmem_global_exit(2);
  }

  shmem_barrier_all();
  shmem_finalize();
  return ok ? 0 : 1;
}
