/* pmix_probe: a PMIx client for testing oshrun without the Shoal library.
 *
 * It checks what a Shoal PE relies on: rank, job size, local rank/size/peers and node ids
 * from the server, and a Put/Commit/Fence(collect)/Get exchange across all PEs. Then it prints
 * "probe ok rank R of N" and performs the actions given as arguments, in order:
 *
 *   on=R | on=all     following actions apply to rank R only / to every rank (default all)
 *   sleep=S           sleep S seconds
 *   out=TEXT          print TEXT on stdout;   err=TEXT  print TEXT on stderr
 *   spew=N            print N numbered lines on stdout, as fast as possible
 *   env=VAR           print "env VAR=value" or "env VAR unset"
 *   nspace            print "nspace <namespace>"
 *   shm               create /dev/shm/shoal-<sanitized namespace>-probe<rank> (oshrun must
 *                     remove it) and print "shm <path>"
 *   echo              copy stdin to stdout, then print "stdin bytes N"
 *   signal=N          kill itself with signal N (default action restored first)
 *   ignoreterm        ignore SIGTERM from now on (so only SIGKILL ends it)
 *   abort=N           PMIx_Abort(N, msg) with the msg= given before it ("" by default),
 *                     then wait to be killed
 *   msg=TEXT          message for a following abort
 *   nofinalize        exit(0) at once, without PMIx_Finalize
 *   exit=N            PMIx_Finalize, then exit with status N (after the remaining actions)
 *
 * Any failed check prints "probe FAIL rank R: why" on stderr and exits 2.
 */
#include <pmix.h>

#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pmix_proc_t self;
static int nprocs;

static void fail(const char *fmt, ...) {
  va_list ap;
  char buf[512];
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  fprintf(stderr, "probe FAIL rank %u: %s\n", self.rank, buf);
  exit(2);
}

static pmix_value_t *get(const pmix_proc_t *proc, const char *key) {
  pmix_value_t *val = NULL;
  pmix_status_t rc = PMIx_Get(proc, key, NULL, 0, &val);
  if (rc != PMIX_SUCCESS || !val)
    fail("PMIx_Get(%s, rank %u): %s", key, proc->rank, PMIx_Error_string(rc));
  return val;
}

static unsigned long get_number(const pmix_proc_t *proc, const char *key) {
  pmix_value_t *v = get(proc, key);
  unsigned long out;
  switch (v->type) {
    case PMIX_UINT32:
      out = v->data.uint32;
      break;
    case PMIX_UINT16:
      out = v->data.uint16;
      break;
    case PMIX_PROC_RANK:
      out = v->data.rank;
      break;
    case PMIX_INT:
      out = (unsigned long)v->data.integer;
      break;
    default:
      fail("%s has unexpected type %d", key, (int)v->type);
      out = 0;
  }
  PMIX_VALUE_RELEASE(v);
  return out;
}

static void expect_number(const pmix_proc_t *proc, const char *key, unsigned long want) {
  unsigned long got = get_number(proc, key);
  if (got != want) fail("%s of rank %u is %lu, expected %lu", key, proc->rank, got, want);
}

static void check_job(void) {
  pmix_proc_t job, peer;
  PMIX_LOAD_PROCID(&job, self.nspace, PMIX_RANK_WILDCARD);
  nprocs = (int)get_number(&job, PMIX_JOB_SIZE);
  expect_number(&job, PMIX_UNIV_SIZE, (unsigned long)nprocs);
  expect_number(&job, PMIX_LOCAL_SIZE, (unsigned long)nprocs);
  expect_number(&job, PMIX_NUM_NODES, 1);
  expect_number(&self, PMIX_LOCAL_RANK, self.rank);
  expect_number(&self, PMIX_NODE_RANK, self.rank);

  /* Local peers: exactly "0,1,...,N-1". */
  pmix_value_t *v = get(&job, PMIX_LOCAL_PEERS);
  if (v->type != PMIX_STRING) fail("PMIX_LOCAL_PEERS has type %d", (int)v->type);
  char want[8192] = "";
  for (int r = 0; r < nprocs; ++r) {
    char item[16];
    snprintf(item, sizeof item, r ? ",%d" : "%d", r);
    strncat(want, item, sizeof want - strlen(want) - 1);
  }
  if (strcmp(v->data.string, want) != 0)
    fail("PMIX_LOCAL_PEERS is '%s', expected '%s'", v->data.string, want);
  PMIX_VALUE_RELEASE(v);

  /* Every peer on node 0 (the library derives locality from this). */
  for (int r = 0; r < nprocs; ++r) {
    PMIX_LOAD_PROCID(&peer, self.nspace, (pmix_rank_t)r);
    expect_number(&peer, PMIX_NODEID, 0);
  }
}

static void exchange(void) {
  char mine[320];
  snprintf(mine, sizeof mine, "probe-value-%u-of-%s", self.rank, self.nspace);
  pmix_value_t val;
  PMIX_VALUE_LOAD(&val, mine, PMIX_STRING);
  pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, "probe.key", &val);
  PMIX_VALUE_DESTRUCT(&val);
  if (rc != PMIX_SUCCESS) fail("PMIx_Put: %s", PMIx_Error_string(rc));
  if ((rc = PMIx_Commit()) != PMIX_SUCCESS) fail("PMIx_Commit: %s", PMIx_Error_string(rc));

  pmix_proc_t all;
  PMIX_LOAD_PROCID(&all, self.nspace, PMIX_RANK_WILDCARD);
  pmix_info_t info;
  bool collect = true;
  PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
  rc = PMIx_Fence(&all, 1, &info, 1);
  PMIX_INFO_DESTRUCT(&info);
  if (rc != PMIX_SUCCESS) fail("PMIx_Fence: %s", PMIx_Error_string(rc));

  for (int r = 0; r < nprocs; ++r) {
    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, self.nspace, (pmix_rank_t)r);
    pmix_value_t *v = get(&peer, "probe.key");
    char want[320];
    snprintf(want, sizeof want, "probe-value-%d-of-%s", r, self.nspace);
    if (v->type != PMIX_STRING || strcmp(v->data.string, want) != 0)
      fail("probe.key of rank %d is wrong", r);
    PMIX_VALUE_RELEASE(v);
  }
}

static void sanitize(char *s) {
  for (; *s; ++s)
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
          *s == '.' || *s == '_' || *s == '-'))
      *s = '_';
}

static void echo_stdin(void) {
  char buf[65536];
  unsigned long total = 0;
  ssize_t n;
  while ((n = read(0, buf, sizeof buf)) > 0) {
    fwrite(buf, 1, (size_t)n, stdout);
    total += (unsigned long)n;
  }
  printf("stdin bytes %lu\n", total);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);

  pmix_status_t rc = PMIx_Init(&self, NULL, 0);
  if (rc != PMIX_SUCCESS) fail("PMIx_Init: %s", PMIx_Error_string(rc));
  const char *env_rank = getenv("PMIX_RANK");
  if (!env_rank || (pmix_rank_t)atoi(env_rank) != self.rank) fail("PMIX_RANK does not match");
  check_job();
  exchange();
  printf("probe ok rank %u of %d\n", self.rank, nprocs);

  int target = -1, status = 0;
  const char *msg = "";
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char *eq = strchr(a, '=');
    const char *v = eq ? eq + 1 : "";
    if (strncmp(a, "on=", 3) == 0) {
      target = strcmp(v, "all") == 0 ? -1 : atoi(v);
      continue;
    }
    if (strncmp(a, "msg=", 4) == 0) {
      msg = v;
      continue;
    }
    if (target >= 0 && (pmix_rank_t)target != self.rank) continue;

    if (strncmp(a, "sleep=", 6) == 0) {
      sleep((unsigned)atoi(v));
    } else if (strncmp(a, "out=", 4) == 0) {
      printf("%s\n", v);
    } else if (strncmp(a, "err=", 4) == 0) {
      fprintf(stderr, "%s\n", v);
    } else if (strncmp(a, "spew=", 5) == 0) {
      setvbuf(stdout, NULL, _IOFBF, 1 << 16);
      for (int k = 0, n = atoi(v); k < n; ++k) printf("spew rank %u line %d\n", self.rank, k);
      fflush(stdout);
      setvbuf(stdout, NULL, _IOLBF, 0);
    } else if (strncmp(a, "env=", 4) == 0) {
      const char *value = getenv(v);
      if (value)
        printf("env %s=%s\n", v, value);
      else
        printf("env %s unset\n", v);
    } else if (strcmp(a, "nspace") == 0) {
      printf("nspace %s\n", self.nspace);
    } else if (strcmp(a, "shm") == 0) {
      char ns[PMIX_MAX_NSLEN + 1], path[512];
      snprintf(ns, sizeof ns, "%s", self.nspace);
      sanitize(ns);
      snprintf(path, sizeof path, "/dev/shm/shoal-%s-probe%u", ns, self.rank);
      int fd = open(path, O_CREAT | O_RDWR, 0600);
      if (fd < 0) fail("cannot create %s", path);
      close(fd);
      printf("shm %s\n", path);
    } else if (strcmp(a, "echo") == 0) {
      echo_stdin();
    } else if (strncmp(a, "signal=", 7) == 0) {
      fflush(NULL);
      signal(atoi(v), SIG_DFL);
      raise(atoi(v));
      fail("still alive after signal %s", v);
    } else if (strcmp(a, "ignoreterm") == 0) {
      signal(SIGTERM, SIG_IGN);
    } else if (strncmp(a, "abort=", 6) == 0) {
      fflush(NULL);
      PMIx_Abort(atoi(v), msg, NULL, 0);
      for (;;) pause(); /* oshrun ends us */
    } else if (strcmp(a, "nofinalize") == 0) {
      fflush(NULL);
      exit(0);
    } else if (strncmp(a, "exit=", 5) == 0) {
      status = atoi(v);
    } else {
      fail("unknown probe action '%s'", a);
    }
  }
  fflush(NULL);
  if ((rc = PMIx_Finalize(NULL, 0)) != PMIX_SUCCESS)
    fail("PMIx_Finalize: %s", PMIx_Error_string(rc));
  return status;
}
