/*
 * coll_bench: latency of the OpenSHMEM collectives.
 *
 * Plain C against the standard OpenSHMEM API only, so the very same source
 * builds with Shoal and with any other implementation (bench/compare_oshmem.sh
 * --bench coll builds it with Open MPI's OSHMEM too).  Runs on any number of
 * PEs (1 or more; 2, 4 and 8 are the usual points).
 *
 * Two forms of the collectives, picked with --form:
 *   active  (default) the active-set forms over all PEs: shmem_sync,
 *           shmem_broadcast64, shmem_long_sum_to_all, shmem_double_sum_to_all,
 *           shmem_collect64, shmem_fcollect64, shmem_alltoall64 (PE_start 0,
 *           logPE_stride 0, PE_size n_pes).
 *           Every OpenSHMEM 1.x library has them (Open MPI 4.1's OSHMEM
 *           implements OpenSHMEM 1.4 and has no team-based collectives), so
 *           this is the form for comparing libraries like for like.
 *   team    the team-based forms of OpenSHMEM 1.5 on SHMEM_TEAM_WORLD:
 *           shmem_team_sync, shmem_long_broadcast, shmem_long_sum_reduce,
 *           shmem_double_sum_reduce, shmem_long_collect, shmem_long_fcollect,
 *           shmem_long_alltoall.  Only built when
 *           shmem.h declares OpenSHMEM 1.5 or later.
 * barrier_all is shmem_barrier_all in both forms.
 *
 * Tests (the size column is bytes per PE: the vector each PE contributes to
 * broadcast and sum_reduce, each PE's contribution to collect and fcollect,
 * the block each PE sends to each PE in alltoall; barrier_all and team_sync
 * have size 0):
 *   barrier_all  shmem_barrier_all
 *   team_sync    shmem_team_sync(SHMEM_TEAM_WORLD); active form: the
 *                OpenSHMEM 1.4 shmem_sync(0, 0, n_pes, pSync)
 *   broadcast    root PE 0, 8 B .. 1 MiB
 *   sum_reduce   sum of longs, 8 B .. 1 MiB
 *   sum_reduce_double  sum of doubles, 8 B .. 1 MiB
 *   collect      every PE contributes the same size, 8 B .. 256 KiB
 *   fcollect     8 B .. 256 KiB
 *   alltoall     8 B .. 256 KiB per PE pair
 *
 * Method (OSU style): each iteration of a point is shmem_barrier_all, then
 * one timed call; each PE times every call, inside the collective only.  A
 * point's value is, per PE, the median time per call (--stat mean: the
 * mean), then averaged over the PEs (--pe-stat max: the slowest PE's).  The
 * median is the default because this benchmark runs on shared, oversubscribed
 * machines, where a few preempted calls would dominate a mean.  barrier_all
 * and team_sync are timed back to back, each call timed.  The barrier between
 * calls also makes it legal by the specification to reuse one pSync array
 * for every call of the active-set forms.  The iteration count depends on
 * the size and is capped by --max-time after a warm-up, as in putget_bench
 * (from the median iteration time of the warm-up); PE 0 decides it and tells
 * the others, since every PE must make the same calls.  Should the timed
 * calls still take more than twice --max-time, PE 0 stops them early, at one
 * of 16 untimed checkpoints; the iters column gives the calls made.
 *
 * With --touch, before the barrier of every iteration (untimed) each PE
 * stores to every word of its source and reads every word of its
 * destination, as a program does that produces its data before the call and
 * uses the result after it.  Without it the buffers sit still between calls,
 * as in the OSU benchmarks: on one node a PE that reads a peer's source
 * straight through the mapping then finds its lines in its own cache from
 * the call before, which a real program's fresh data never is.
 *
 * Output (PE 0, stdout): the same CSV as putget_bench and amo_bench, a
 * header then one line per measured point:
 *     test,size,value,unit,iters
 * value in microseconds per call (lower is better).  Each line is flushed as
 * it is produced so results survive a crash later on, in particular in
 * shmem_finalize.  Diagnostics go to stderr, which ends, before finalize,
 * with "coll_bench: done: N points, M failed verification".
 *
 * Verification (unless --no-check), on every PE at every point: the
 * destination is filled with poison before the warm-up, and after the timed
 * calls it must hold exactly what the collective defines for the sources of
 * this point; then the sources get fresh values, the destination fresh
 * poison, and one more call must deliver those.  For barrier_all, each PE
 * puts a fresh value to the next PE before a barrier, and must find the one
 * of the previous PE after it; team_sync the same with shmem_quiet before
 * the call (a sync does not complete puts).  The doubles of
 * sum_reduce_double are integers, so every summation order is exact.  With the active-set broadcast the root's
 * destination is not checked (OpenSHMEM 1.4 leaves it alone).  A mismatch
 * prints "VERIFY FAILED" on stderr (PE 0) and makes the exit status 1.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_common.h"
#include <shmem.h>

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(SHMEM_MAJOR_VERSION) && defined(SHMEM_MINOR_VERSION) &&                                \
    (SHMEM_MAJOR_VERSION > 1 || (SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION >= 5))
#define HAVE_TEAM_COLLECTIVES 1
#else
#define HAVE_TEAM_COLLECTIVES 0
#endif

#define ELEM sizeof(long)

enum test_id {
    BARRIER_ALL,
    TEAM_SYNC,
    BROADCAST,
    SUM_REDUCE,
    SUM_REDUCE_DOUBLE,
    COLLECT,
    FCOLLECT,
    ALLTOALL,
    NTESTS
};

static const char *const test_names[NTESTS] = {
    "barrier_all",       "team_sync", "broadcast", "sum_reduce",
    "sum_reduce_double", "collect",   "fcollect",  "alltoall",
};

/* Largest size per test unless --max-size says otherwise. */
static const size_t default_max[NTESTS] = {
    0, 0, 1 * MIB, 1 * MIB, 1 * MIB, 256 * KIB, 256 * KIB, 256 * KIB,
};

/* The synchronizations: no data, one point of size 0, timed back to back. */
static int is_sync(int t) { return t == BARRIER_ALL || t == TEAM_SYNC; }
static int is_reduce(int t) { return t == SUM_REDUCE || t == SUM_REDUCE_DOUBLE; }

enum form { FORM_ACTIVE, FORM_TEAM };
enum stat { STAT_MEDIAN, STAT_MEAN };
enum pe_stat { PE_AVG, PE_MAX };

struct options {
    int tests[NTESTS];
    size_t min_size;
    size_t max_size; /* 0: per-test default */
    long iters;      /* 0: size-dependent default */
    long warmup;     /* -1: size-dependent default */
    double max_time; /* seconds per point, <= 0: no cap */
    int check;
    int form;
    int stat;
    int pe_stat;
    int touch; /* --touch: store to the source and read the destination before each iteration */
};

/* Size-dependent defaults: a byte budget per point, clamped; --max-time
 * then trims whatever would take longer than that on the machine at hand. */
#define BUDGET        ((size_t)256 * MIB)
#define MAX_IT        20000L
#define MIN_IT        10L
#define MIN_CAPPED_IT 4L  /* --max-time never goes below this */
#define MIN_WARM      15L /* warm-up calls before --max-time may stop it */
#define TIMED_CHUNKS  16L /* --max-time checks during the timed calls */

static const long poison = (long)0x5a5aa5a55a5aa5a5ULL;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: coll_bench [options]   (any number of PEs)\n"
            "  -t, --tests LIST     comma-separated tests, or 'all' (default all):\n"
            "                       barrier_all,team_sync,broadcast,sum_reduce,\n"
            "                       sum_reduce_double,collect,fcollect,alltoall\n"
            "  -f, --form FORM      active (default): active-set forms (shmem_sync,\n"
            "                       shmem_broadcast64, shmem_long_sum_to_all, ...); team:\n"
            "                       OpenSHMEM 1.5 team-based forms on SHMEM_TEAM_WORLD%s\n"
            "  -s, --min-size N     smallest size in bytes per PE (default 8; a multiple\n"
            "                       of 8; K/M suffix ok)\n"
            "  -S, --max-size N     largest size in bytes per PE for every test (default\n"
            "                       1M for broadcast and sum_reduce*, 256K for collect,\n"
            "                       fcollect and alltoall)\n"
            "  -i, --iters N        timed calls per point (default: by size)\n"
            "  -w, --warmup N       untimed warm-up calls (default: by size)\n"
            "  -T, --max-time SEC   cap the timed part of a point at about SEC seconds\n"
            "                       by lowering the iteration count (default 0.05,\n"
            "                       0 = no cap; never below 4 iterations; ignored\n"
            "                       with --iters)\n"
            "      --stat WHICH     per PE, median (default) or mean time per call\n"
            "      --pe-stat WHICH  avg (default): the average of the PEs' values;\n"
            "                       max: the slowest PE's\n"
            "  -n, --no-check       skip the result verification\n"
            "      --touch          before each iteration (untimed) store to all of the\n"
            "                       source and read all of the destination, as a\n"
            "                       program's fresh data and its use of the result do\n"
            "  -h, --help           this text\n"
            "Output on PE 0: CSV 'test,size,value,unit,iters'; us = microseconds per\n"
            "call (lower is better); size = bytes per PE.\n",
            HAVE_TEAM_COLLECTIVES
                ? ""
                : "\n                       (not available: this shmem.h predates 1.5)");
}

/* Returns 0 to run, 1 to exit successfully (help), -1 on a usage error.
 * Only PE 0 (quiet == 0) prints. */
static int parse_args(int argc, char **argv, struct options *o, int quiet)
{
    enum { OPT_STAT = 256, OPT_PE_STAT, OPT_TOUCH };
    static const struct option longopts[] = {
        {"tests", required_argument, NULL, 't'},
        {"form", required_argument, NULL, 'f'},
        {"min-size", required_argument, NULL, 's'},
        {"max-size", required_argument, NULL, 'S'},
        {"iters", required_argument, NULL, 'i'},
        {"warmup", required_argument, NULL, 'w'},
        {"max-time", required_argument, NULL, 'T'},
        {"stat", required_argument, NULL, OPT_STAT},
        {"pe-stat", required_argument, NULL, OPT_PE_STAT},
        {"no-check", no_argument, NULL, 'n'},
        {"touch", no_argument, NULL, OPT_TOUCH},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    for (int t = 0; t < NTESTS; t++)
        o->tests[t] = 1;
    o->min_size = ELEM;
    o->max_size = 0;
    o->iters = 0;
    o->warmup = -1;
    o->max_time = 0.05;
    o->check = 1;
    o->form = FORM_ACTIVE;
    o->stat = STAT_MEDIAN;
    o->pe_stat = PE_AVG;
    o->touch = 0;

    opterr = 0;
    int c;
    const char *bad = NULL;
    while ((c = getopt_long(argc, argv, "t:f:s:S:i:w:T:nh", longopts, NULL)) != -1) {
        switch (c) {
        case 't':
            if (parse_tests(optarg, test_names, NTESTS, o->tests))
                bad = "bad value for --tests";
            break;
        case 'f':
            if (strcmp(optarg, "active") == 0)
                o->form = FORM_ACTIVE;
            else if (strcmp(optarg, "team") == 0) {
                if (HAVE_TEAM_COLLECTIVES)
                    o->form = FORM_TEAM;
                else
                    bad = "--form team: this shmem.h is older than OpenSHMEM 1.5 "
                          "and has no team-based collectives";
            } else
                bad = "bad value for --form (active or team)";
            break;
        case 's':
            if (parse_size(optarg, &o->min_size))
                bad = "bad value for --min-size";
            break;
        case 'S':
            if (parse_size(optarg, &o->max_size))
                bad = "bad value for --max-size";
            break;
        case 'i':
            if (parse_long(optarg, 1, &o->iters))
                bad = "bad value for --iters";
            break;
        case 'w':
            if (parse_long(optarg, 0, &o->warmup))
                bad = "bad value for --warmup";
            break;
        case 'T': {
            char *end;
            o->max_time = strtod(optarg, &end);
            if (end == optarg || *end != '\0' || o->max_time < 0)
                bad = "bad value for --max-time";
            break;
        }
        case OPT_STAT:
            if (strcmp(optarg, "median") == 0)
                o->stat = STAT_MEDIAN;
            else if (strcmp(optarg, "mean") == 0)
                o->stat = STAT_MEAN;
            else
                bad = "bad value for --stat (median or mean)";
            break;
        case OPT_PE_STAT:
            if (strcmp(optarg, "avg") == 0)
                o->pe_stat = PE_AVG;
            else if (strcmp(optarg, "max") == 0)
                o->pe_stat = PE_MAX;
            else
                bad = "bad value for --pe-stat (avg or max)";
            break;
        case OPT_TOUCH:
            o->touch = 1;
            break;
        case 'n':
            o->check = 0;
            break;
        case 'h':
            if (!quiet)
                usage(stdout);
            return 1;
        default:
            bad = "unknown option or missing argument";
            break;
        }
        if (bad)
            break;
    }
    if (!bad && optind < argc)
        bad = "unexpected argument";
    if (!bad && o->min_size % ELEM != 0)
        bad = "--min-size must be a multiple of 8 (the collectives move longs)";
    if (!bad && o->max_size && o->min_size > o->max_size)
        bad = "--min-size is larger than --max-size";
    if (!bad && o->max_size > ((size_t)1 << 34))
        bad = "--max-size is too large";
    if (bad) {
        if (!quiet) {
            fprintf(stderr, "coll_bench: %s\n", bad);
            usage(stderr);
        }
        return -1;
    }
    return 0;
}

static size_t max_size_of(const struct options *o, int t)
{
    if (is_sync(t))
        return 0;
    return o->max_size ? o->max_size : default_max[t];
}

static long default_iters(const struct options *o, int t, size_t size)
{
    if (o->iters > 0)
        return o->iters;
    if (is_sync(t))
        return MAX_IT;
    long n = (long)(BUDGET / size);
    return n < MIN_IT ? MIN_IT : n > MAX_IT ? MAX_IT : n;
}

static long default_warmup(const struct options *o, long iters)
{
    if (o->warmup >= 0)
        return o->warmup;
    long w = iters / 10;
    return w < 2 ? 2 : w > 1000 ? 1000 : w;
}

/* ---- the state every PE shares --------------------------------------------- */

static int me, npes;
static struct options opt;

/* Symmetric objects (shmem_malloc'd). */
static long *src, *dst;     /* collective source and destination */
static long *pwrk;          /* sum_to_all work array */
static double *pwrk_d;      /* double_sum_to_all work array */
static long *psync_barrier; /* shmem_sync */
static long *psync_bcast, *psync_reduce, *psync_collect, *psync_alltoall;
static long *ctl;     /* PE 0 -> everyone: one value */
static long *report;  /* everyone -> PE 0: [npes] */
static double *times; /* everyone -> PE 0: [npes] */
static long *ring;    /* barrier_all check: [1] */

static long coll_errors; /* team form: non-zero return codes */

/* PE 0's v, on every PE.  Every PE must call it. */
static long share_from_0(long v)
{
    if (me == 0) {
        for (int pe = 1; pe < npes; pe++)
            shmem_long_p(ctl, v, pe);
        *ctl = v;
    }
    shmem_barrier_all(); /* completes the puts */
    long r = *ctl;
    shmem_barrier_all(); /* nobody overwrites ctl before all read it */
    return r;
}

/* One call of test t with `size` bytes per PE. */
static void call_once(int t, size_t size)
{
    size_t n = size / ELEM;
    int rc = 0;
    (void)rc;
    if (t == BARRIER_ALL) {
        shmem_barrier_all();
        return;
    }
#if HAVE_TEAM_COLLECTIVES
    if (opt.form == FORM_TEAM) {
        switch (t) {
        case TEAM_SYNC:
            rc = shmem_team_sync(SHMEM_TEAM_WORLD);
            break;
        case BROADCAST:
            rc = shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, n, 0);
            break;
        case SUM_REDUCE:
            rc = shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, n);
            break;
        case SUM_REDUCE_DOUBLE:
            rc = shmem_double_sum_reduce(SHMEM_TEAM_WORLD, (double *)dst, (double *)src, n);
            break;
        case COLLECT:
            rc = shmem_long_collect(SHMEM_TEAM_WORLD, dst, src, n);
            break;
        case FCOLLECT:
            rc = shmem_long_fcollect(SHMEM_TEAM_WORLD, dst, src, n);
            break;
        case ALLTOALL:
            rc = shmem_long_alltoall(SHMEM_TEAM_WORLD, dst, src, n);
            break;
        }
        if (rc != 0)
            coll_errors++;
        return;
    }
#endif
    switch (t) {
    case TEAM_SYNC:
        shmem_sync(0, 0, npes, psync_barrier);
        break;
    case BROADCAST:
        shmem_broadcast64(dst, src, n, 0, 0, 0, npes, psync_bcast);
        break;
    case SUM_REDUCE:
        shmem_long_sum_to_all(dst, src, (int)n, 0, 0, npes, pwrk, psync_reduce);
        break;
    case SUM_REDUCE_DOUBLE:
        shmem_double_sum_to_all((double *)dst, (double *)src, (int)n, 0, 0, npes, pwrk_d,
                                psync_reduce);
        break;
    case COLLECT:
        shmem_collect64(dst, src, n, 0, 0, npes, psync_collect);
        break;
    case FCOLLECT:
        shmem_fcollect64(dst, src, n, 0, 0, npes, psync_collect);
        break;
    case ALLTOALL:
        shmem_alltoall64(dst, src, n, 0, 0, npes, psync_alltoall);
        break;
    }
}

static size_t src_elems(int t, size_t n);
static size_t dst_elems(int t, size_t n);

/* What --touch reads, so that the reads are not optimized away. */
static volatile long touch_sink;

/* --touch: this PE stores every word of its source again (the same values:
 * verification still holds) and reads every word of its destination. */
static void touch_buffers(int t, size_t size)
{
    size_t n = size / ELEM;
    volatile long *s = src;
    for (size_t i = 0, m = src_elems(t, n); i < m; i++)
        s[i] = s[i];
    long sum = 0;
    for (size_t i = 0, m = dst_elems(t, n); i < m; i++)
        sum += dst[i];
    touch_sink = sum;
}

/* n iterations; the time of each call goes to per_call[i] if not NULL. */
static void run_iters(int t, long n, size_t size, double *per_call)
{
    for (long i = 0; i < n; i++) {
        if (opt.touch && !is_sync(t))
            touch_buffers(t, size);
        if (!is_sync(t))
            shmem_barrier_all();
        double t0 = now_sec();
        call_once(t, size);
        if (per_call)
            per_call[i] = now_sec() - t0;
    }
}

/* This PE's statistic of the n call times (may sort them). */
static double call_stat(double *v, long n)
{
    if (opt.stat == STAT_MEAN) {
        double s = 0.0;
        for (long i = 0; i < n; i++)
            s += v[i];
        return s / (double)n;
    }
    return median(v, n);
}

/* ---- data and verification ------------------------------------------------- */

/* The long at index i of PE pe's source for point `seed`.  Small enough
 * that a sum over thousands of PEs does not overflow. */
static long value(int pe, size_t i, unsigned seed)
{
    return (long)(((unsigned long)(seed & 0x3ffu) << 40) | ((unsigned long)(pe & 0xfff) << 28) |
                  (unsigned long)(i & 0xfffffffu));
}

/* sum_reduce_double's element i of PE pe's source: an integer below 2^41,
 * so that the sum over up to 4096 PEs is exact in any order. */
static double dvalue(int pe, size_t i, unsigned seed)
{
    return (double)(((unsigned long)(seed & 0x3ffu) << 30) | ((unsigned long)(pe & 0xfff) << 18) |
                    (unsigned long)(i & 0x3ffffu));
}

static size_t src_elems(int t, size_t n) { return t == ALLTOALL ? n * (size_t)npes : n; }

static size_t dst_elems(int t, size_t n)
{
    return (t == COLLECT || t == FCOLLECT || t == ALLTOALL) ? n * (size_t)npes : n;
}

static void fill_src(int t, size_t n, unsigned seed)
{
    size_t m = src_elems(t, n);
    if (t == SUM_REDUCE_DOUBLE) {
        double *d = (double *)src;
        for (size_t i = 0; i < m; i++)
            d[i] = dvalue(me, i, seed);
        return;
    }
    for (size_t i = 0; i < m; i++)
        src[i] = value(me, i, seed);
}

static void poison_dst(int t, size_t n)
{
    size_t m = dst_elems(t, n);
    for (size_t i = 0; i < m; i++)
        dst[i] = poison;
}

/* What dst[i] must hold on this PE. */
static long expected(int t, size_t n, size_t i, unsigned seed)
{
    switch (t) {
    case BROADCAST:
        return value(0, i, seed);
    case SUM_REDUCE: {
        unsigned long s = 0;
        for (int pe = 0; pe < npes; pe++)
            s += (unsigned long)value(pe, i, seed);
        return (long)s;
    }
    case COLLECT:
    case FCOLLECT:
        return value((int)(i / n), i % n, seed);
    case ALLTOALL:
        /* block p came from PE p, which sent block `me` of its source */
        return value((int)(i / n), (size_t)me * n + i % n, seed);
    }
    return 0;
}

/* 0 if dst is right on this PE, else 1 + the index of the first wrong long. */
static long check_dst(int t, size_t n, unsigned seed)
{
    if (t == BROADCAST && opt.form == FORM_ACTIVE && me == 0)
        return 0; /* the active-set broadcast leaves the root's dest alone */
    size_t m = dst_elems(t, n);
    if (t == SUM_REDUCE) {
        /* sum of value() over the PEs, without the O(npes) loop per element */
        unsigned long base = 0;
        for (int pe = 0; pe < npes; pe++)
            base += (unsigned long)value(pe, 0, seed);
        for (size_t i = 0; i < m; i++)
            if (dst[i] != (long)(base + (unsigned long)npes * (unsigned long)(i & 0xfffffffu)))
                return (long)i + 1;
        return 0;
    }
    if (t == SUM_REDUCE_DOUBLE) {
        const double *d = (const double *)dst;
        double base = 0.0;
        for (int pe = 0; pe < npes; pe++)
            base += dvalue(pe, 0, seed);
        for (size_t i = 0; i < m; i++)
            if (d[i] != base + (double)npes * (double)(i & 0x3ffffu))
                return (long)i + 1;
        return 0;
    }
    for (size_t i = 0; i < m; i++)
        if (dst[i] != expected(t, n, i, seed))
            return (long)i + 1;
    return 0;
}

/* Gathers every PE's verdict (0: good) on PE 0; returns the number of PEs
 * that failed, on PE 0 (0 elsewhere), and prints them.  Every PE calls it. */
static int gather_verdict(long mine, const char *what, int t, size_t size)
{
    shmem_long_p(&report[me], mine, 0);
    shmem_barrier_all();
    int bad = 0;
    if (me == 0) {
        for (int pe = 0; pe < npes; pe++) {
            if (report[pe] == 0)
                continue;
            if (bad++ < 4) {
                if (is_sync(t))
                    fprintf(stderr,
                            "coll_bench: VERIFY FAILED: %s: %s: PE %d did not see "
                            "the put of PE %d issued before the call\n",
                            test_names[t], what, pe, (pe + npes - 1) % npes);
                else if (report[pe] < 0)
                    fprintf(stderr,
                            "coll_bench: VERIFY FAILED: %s size %zu: %s: PE %d: "
                            "%ld call(s) returned non-zero\n",
                            test_names[t], size, what, pe, -report[pe]);
                else
                    fprintf(stderr,
                            "coll_bench: VERIFY FAILED: %s size %zu: %s: PE %d: "
                            "first wrong long at index %ld of dest\n",
                            test_names[t], size, what, pe, report[pe] - 1);
            }
        }
        if (bad > 4)
            fprintf(stderr, "coll_bench: ... and %d more PEs\n", bad - 4);
        fflush(stderr);
    }
    shmem_barrier_all(); /* report is reused by the next check */
    return bad;
}

/* barrier_all: each PE puts a fresh value to the next PE, then the barrier
 * must have made the previous PE's value visible here.  team_sync: the
 * same, with shmem_quiet before the call (a sync does not complete puts). */
static long check_barrier(int t, unsigned seed)
{
    *ring = -1;
    shmem_barrier_all();
    shmem_long_p(ring, (long)seed, (me + 1) % npes);
    if (t == TEAM_SYNC)
        shmem_quiet();
    call_once(t, 0);
    long ok = *ring == (long)seed;
    shmem_barrier_all();
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();

    int pa = parse_args(argc, argv, &opt, me != 0);
    if (pa != 0) {
        fflush(stdout);
        fflush(stderr);
        shmem_finalize();
        return pa < 0 ? 2 : 0;
    }

    /* Buffer sizes for the largest point of the selected tests. */
    size_t src_max = 0, dst_max = 0, red_max = 0;
    for (int t = 0; t < NTESTS; t++) {
        if (!opt.tests[t] || is_sync(t))
            continue;
        size_t n = max_size_of(&opt, t) / ELEM;
        if (src_elems(t, n) > src_max)
            src_max = src_elems(t, n);
        if (dst_elems(t, n) > dst_max)
            dst_max = dst_elems(t, n);
        if (is_reduce(t) && n > red_max)
            red_max = n;
    }
    if (src_max == 0)
        src_max = 1;
    if (dst_max == 0)
        dst_max = 1;
    size_t wrk = red_max / 2 + 1;
    if (wrk < (size_t)SHMEM_REDUCE_MIN_WRKDATA_SIZE)
        wrk = SHMEM_REDUCE_MIN_WRKDATA_SIZE;

    src = shmem_malloc(src_max * ELEM);
    dst = shmem_malloc(dst_max * ELEM);
    pwrk = shmem_malloc(wrk * ELEM);
    pwrk_d = shmem_malloc(wrk * sizeof(double));
    psync_barrier = shmem_malloc(SHMEM_BARRIER_SYNC_SIZE * sizeof(long));
    psync_bcast = shmem_malloc(SHMEM_BCAST_SYNC_SIZE * sizeof(long));
    psync_reduce = shmem_malloc(SHMEM_REDUCE_SYNC_SIZE * sizeof(long));
    psync_collect = shmem_malloc(SHMEM_COLLECT_SYNC_SIZE * sizeof(long));
    psync_alltoall = shmem_malloc(SHMEM_ALLTOALL_SYNC_SIZE * sizeof(long));
    ctl = shmem_malloc(sizeof(long));
    ring = shmem_malloc(sizeof(long));
    report = shmem_malloc((size_t)npes * sizeof(long));
    times = shmem_malloc((size_t)npes * sizeof(double));
    if (!src || !dst || !pwrk || !pwrk_d || !psync_barrier || !psync_bcast || !psync_reduce ||
        !psync_collect || !psync_alltoall || !ctl || !ring || !report || !times) {
        if (me == 0)
            fprintf(stderr,
                    "coll_bench: shmem_malloc of %zu + %zu bytes failed; is the "
                    "symmetric heap large enough?\n",
                    src_max * ELEM, dst_max * ELEM);
        fflush(stderr);
        shmem_finalize();
        return 1;
    }
    /* Touch every page before timing. */
    memset(src, 0, src_max * ELEM);
    memset(dst, 0, dst_max * ELEM);
    memset(pwrk, 0, wrk * ELEM);
    memset(pwrk_d, 0, wrk * sizeof(double));
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        psync_barrier[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        psync_bcast[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync_reduce[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++)
        psync_collect[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_ALLTOALL_SYNC_SIZE; i++)
        psync_alltoall[i] = SHMEM_SYNC_VALUE;
    *ctl = 0;
    *ring = 0;
    memset(report, 0, (size_t)npes * sizeof(long));
    memset(times, 0, (size_t)npes * sizeof(double));
    shmem_barrier_all();

    int failures = 0;
    int points = 0;
    unsigned seed = 0;

    if (me == 0) {
        fprintf(stderr,
                "coll_bench: %d PEs, %s forms, %s over the PEs of each PE's %s "
                "time per call\n",
                npes, opt.form == FORM_TEAM ? "team-based" : "active-set",
                opt.pe_stat == PE_MAX ? "maximum" : "average",
                opt.stat == STAT_MEAN ? "mean" : "median");
        fflush(stderr);
        printf("test,size,value,unit,iters\n");
        fflush(stdout);
    }

    for (int t = 0; t < NTESTS; t++) {
        if (!opt.tests[t])
            continue;
        size_t top = max_size_of(&opt, t);
        for (size_t size = is_sync(t) ? 0 : opt.min_size; size <= top; size = size ? size * 2 : 1) {
            size_t n = size / ELEM;
            seed++;
            long iters = default_iters(&opt, t, size);
            long warm = default_warmup(&opt, iters);
            int bad = 0;

            if (!is_sync(t)) {
                fill_src(t, n, seed);
                poison_dst(t, n);
            }
            coll_errors = 0;
            shmem_barrier_all();

            /* Warm up in doubling chunks (1, 2, 4, ...) so a slow
             * implementation cannot stretch the warm-up, and estimate the
             * cost of one iteration (barrier and call) to honour --max-time:
             * the median over the last, largest and most warmed-up chunk,
             * so that a few preempted iterations do not cut the point down
             * to nothing.  PE 0 decides when to stop; every PE must make
             * the same calls. */
            double *wt = malloc((size_t)(warm > 0 ? warm : 1) * sizeof *wt);
            if (!wt) {
                fprintf(stderr, "coll_bench: PE %d: no memory for %ld warm-up times\n", me, warm);
                shmem_global_exit(1);
            }
            long done = 0, last = 0;
            double wspent = 0.0;
            for (long chunk = 1; done < warm; chunk *= 2) {
                if (chunk > warm - done)
                    chunk = warm - done;
                for (long i = 0; i < chunk; i++) {
                    double w0 = now_sec();
                    run_iters(t, 1, size, NULL);
                    wt[done + i] = now_sec() - w0;
                    wspent += wt[done + i];
                }
                last = chunk;
                done += chunk;
                /* At least MIN_WARM iterations, so that a slow first call
                 * (connection setup, a preemption) is not all we go by. */
                long stop = opt.max_time > 0 && wspent > opt.max_time / 4 && done >= MIN_WARM;
                if (done < warm && share_from_0(stop))
                    break;
            }
            if (me == 0 && last > 0 && opt.max_time > 0 && opt.iters == 0) {
                double per = median(wt + done - last, last);
                if (per > 0 && per * (double)iters > opt.max_time) {
                    long capped = (long)(opt.max_time / per);
                    iters = capped < MIN_CAPPED_IT ? MIN_CAPPED_IT : capped;
                }
            }
            free(wt);
            iters = share_from_0(iters);

            double *per_call = malloc((size_t)iters * sizeof *per_call);
            if (!per_call) {
                fprintf(stderr, "coll_bench: PE %d: no memory for %ld call times\n", me, iters);
                shmem_global_exit(1);
            }
            /* The timed calls, in up to TIMED_CHUNKS chunks: between two
             * chunks (untimed), PE 0 may stop the point once it has run for
             * twice --max-time of wall time.  The median above can promise
             * far less than what preemption costs on a loaded machine,
             * where a PE that spins while its peer is descheduled loses a
             * whole time slice now and then. */
            long step = (iters + TIMED_CHUNKS - 1) / TIMED_CHUNKS, ran = 0;
            double t_start = now_sec();
            while (ran < iters) {
                long k = iters - ran < step ? iters - ran : step;
                run_iters(t, k, size, per_call + ran);
                ran += k;
                if (ran < iters && opt.max_time > 0 && opt.iters == 0) {
                    long stop = ran >= MIN_CAPPED_IT && now_sec() - t_start > 2 * opt.max_time;
                    if (share_from_0(stop))
                        break;
                }
            }
            iters = ran;
            shmem_double_p(&times[me], call_stat(per_call, iters), 0);
            free(per_call);
            shmem_barrier_all();

            if (opt.check) {
                if (is_sync(t)) {
                    bad += gather_verdict(check_barrier(t, seed), "after the timed calls", t,
                                          size) > 0;
                } else {
                    long v = coll_errors ? -coll_errors : check_dst(t, n, seed);
                    bad += gather_verdict(v, "after the timed calls", t, size) > 0;
                    /* One more call with fresh data into fresh poison. */
                    seed++;
                    fill_src(t, n, seed);
                    poison_dst(t, n);
                    coll_errors = 0;
                    shmem_barrier_all();
                    call_once(t, size);
                    shmem_barrier_all();
                    v = coll_errors ? -coll_errors : check_dst(t, n, seed);
                    bad += gather_verdict(v, "a fresh call", t, size) > 0;
                }
                if (bad)
                    failures++;
            }

            if (me == 0) {
                double sum = 0.0, mx = 0.0;
                for (int pe = 0; pe < npes; pe++) {
                    sum += times[pe];
                    if (times[pe] > mx)
                        mx = times[pe];
                }
                double v = opt.pe_stat == PE_MAX ? mx : sum / npes;
                printf("%s,%zu,%.3f,us,%ld\n", test_names[t], size, v * 1e6, iters);
                fflush(stdout);
                points++;
            }
            if (size > top / 2 || size == 0)
                break; /* no overflow; barrier_all and team_sync have one point */
        }
    }

    shmem_barrier_all();
    shmem_free(times);
    shmem_free(report);
    shmem_free(ring);
    shmem_free(ctl);
    shmem_free(psync_alltoall);
    shmem_free(psync_collect);
    shmem_free(psync_reduce);
    shmem_free(psync_bcast);
    shmem_free(psync_barrier);
    shmem_free(pwrk_d);
    shmem_free(pwrk);
    shmem_free(dst);
    shmem_free(src);
    /* The closing line tells a driver script that every result was
     * printed, whatever happens in shmem_finalize. */
    if (me == 0)
        fprintf(stderr, "coll_bench: done: %d points, %d failed verification\n", points, failures);
    /* Everything is printed and flushed before finalize: some
     * implementations crash inside shmem_finalize. */
    fflush(stdout);
    fflush(stderr);
    shmem_finalize();
    return failures ? 1 : 0;
}
