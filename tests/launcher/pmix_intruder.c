/* pmix_intruder: tries to reach a running oshrun job's PMIx server, for the test that another
 * user cannot (issue 18). Prints one line and exits 0 if it got in, 1 if it was refused, 2 on
 * bad usage:
 *
 *   pmix_intruder client           PMIx_Init as the client whose PMIX_* variables (namespace,
 *                                  rank, server URI) are in the environment, then PMIx_Get of
 *                                  the job size: "connected" / "refused <status>"
 *   pmix_intruder tool URI [self]  PMIx_tool_init to the server at URI ("<nspace>.<rank>;tcp4://
 *                                  ..."), with an identity of its own if "self" is given
 *                                  (otherwise the server must assign one)
 *
 * With CLAIM_UID=N (and CLAIM_GID=N) in the environment it claims that uid and gid instead of
 * its own: geteuid()/getuid()/getegid()/getgid() are defined here, so they interpose the libc
 * ones for libpmix, whose native security puts them in its credential. That is what a hostile
 * user's own build of the PMIx client library could send. */
#define _GNU_SOURCE
#include <pmix.h>
#include <pmix_tool.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long claimed(const char *var, long real) {
  const char *v = getenv(var);
  return v && *v ? atol(v) : real;
}
uid_t geteuid(void) { return (uid_t)claimed("CLAIM_UID", syscall(SYS_geteuid)); }
uid_t getuid(void) { return (uid_t)claimed("CLAIM_UID", syscall(SYS_getuid)); }
gid_t getegid(void) { return (gid_t)claimed("CLAIM_GID", syscall(SYS_getegid)); }
gid_t getgid(void) { return (gid_t)claimed("CLAIM_GID", syscall(SYS_getgid)); }

static int client(void) {
  pmix_proc_t me;
  pmix_status_t rc = PMIx_Init(&me, NULL, 0);
  if (rc != PMIX_SUCCESS) {
    printf("refused %s\n", PMIx_Error_string(rc));
    return 1;
  }
  pmix_proc_t wild;
  PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
  pmix_value_t *v = NULL;
  rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v);
  if (rc != PMIX_SUCCESS) {
    printf("refused get %s\n", PMIx_Error_string(rc));
    return 1;
  }
  printf("connected as %s.%u: job size %u\n", me.nspace, me.rank, v->data.uint32);
  PMIX_VALUE_RELEASE(v);
  PMIx_Finalize(NULL, 0);
  return 0;
}

static int tool(const char *uri, int own_identity) {
  pmix_info_t info[5];
  size_t n = 0;
  PMIX_INFO_LOAD(&info[n], PMIX_SERVER_URI, uri, PMIX_STRING);
  ++n;
  const uint32_t retries = 1;
  PMIX_INFO_LOAD(&info[n], PMIX_CONNECT_MAX_RETRIES, &retries, PMIX_UINT32);
  ++n;
  if (own_identity) {
    PMIX_INFO_LOAD(&info[n], PMIX_TOOL_NSPACE, "intruder", PMIX_STRING);
    ++n;
    const pmix_rank_t rank = 0;
    PMIX_INFO_LOAD(&info[n], PMIX_TOOL_RANK, &rank, PMIX_PROC_RANK);
    ++n;
  }
  pmix_proc_t me;
  const pmix_status_t rc = PMIx_tool_init(&me, info, n);
  for (size_t i = 0; i < n; ++i) PMIX_INFO_DESTRUCT(&info[i]);
  if (rc != PMIX_SUCCESS) {
    printf("refused %s\n", PMIx_Error_string(rc));
    return 1;
  }
  /* PMIx_tool_init succeeds without a server when the tool names itself: it is in only if
   * the server answers a query. */
  pmix_query_t q;
  PMIX_QUERY_CONSTRUCT(&q);
  pmix_status_t arc;
  PMIX_ARGV_APPEND(arc, q.keys, PMIX_QUERY_NAMESPACES);
  (void)arc;
  pmix_info_t *results = NULL;
  size_t nresults = 0;
  const pmix_status_t qrc = PMIx_Query_info(&q, 1, &results, &nresults);
  if (nresults > 0) PMIX_INFO_FREE(results, nresults);
  if (qrc != PMIX_SUCCESS) {
    printf("refused (tool %s.%u, query %s)\n", me.nspace, me.rank, PMIx_Error_string(qrc));
    PMIx_tool_finalize();
    return 1;
  }
  printf("connected as tool %s.%u\n", me.nspace, me.rank);
  PMIx_tool_finalize();
  return 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  if (argc >= 2 && strcmp(argv[1], "client") == 0) return client();
  if (argc >= 3 && strcmp(argv[1], "tool") == 0)
    return tool(argv[2], argc >= 4 && strcmp(argv[3], "self") == 0);
  fprintf(stderr, "usage: pmix_intruder client | tool URI [self]\n");
  return 2;
}
