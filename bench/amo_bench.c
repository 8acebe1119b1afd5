/*
 * amo_bench: latency of the 64-bit atomic memory operations and the message
 * rate of small non-blocking operations, for OpenSHMEM.
 *
 * Plain C against the standard OpenSHMEM API only, so the very same source
 * builds with Shoal and with any other implementation (bench/compare_oshmem.sh
 * --bench amo builds it with Open MPI's OSHMEM too).  Runs on 2 PEs: PE 0
 * issues every operation, PE 1 is the passive target.  On more PEs only
 * add_rate_many runs, where every PE but PE 1 issues.  Every operation
 * targets a symmetric heap (shmem_malloc) object on PE 1, or with --target
 * global a static array (the data segment); --window is then at most 1024.
 *
 * Output (PE 0, stdout): the same CSV as putget_bench, a header then one line
 * per measured point:
 *     test,size,value,unit,iters
 * size is always 8 (sizeof(long)).  Latencies are in microseconds per
 * operation (lower is better); message rates in Mops/s, 10^6 operations per
 * second (higher is better), and there iters counts windows.  Each line is
 * flushed as it is produced so results survive a crash later on, in
 * particular in shmem_finalize.  Diagnostics go to stderr, which ends, before
 * finalize, with "amo_bench: done: N points, M failed verification".
 * The timed iterations of a point run in up to 16 chunks and the value comes
 * from the median chunk (a preempted chunk does not decide it).
 *
 * Tests:
 *   fadd_lat   shmem_long_atomic_fetch_add(+1) per iteration
 *   cswap_lat  shmem_long_atomic_compare_swap per iteration (always succeeds:
 *              cond is the current value, value is that plus one)
 *   swap_lat   shmem_long_atomic_swap per iteration (writes a rising count)
 *   fetch_lat  shmem_long_atomic_fetch per iteration
 *   add_lat    shmem_long_atomic_add(+1) + shmem_quiet per iteration
 *   add_rate   window of shmem_long_atomic_add(+1), then shmem_quiet
 *   put8_rate  window of 8-byte shmem_putmem_nbi (one distinct target word
 *              per operation of the window), then shmem_quiet
 *   add_rate_many  add_rate from every PE but PE 1 at once, into the same
 *              word of PE 1: the operations of all of them per second, from
 *              a barrier before the first to a barrier after the last (on
 *              2 PEs: add_rate timed that way).  PE 1's side of every
 *              operation is what it measures.
 *
 * --ctx private, shared or serialized issues the timed operations on a context
 * of their own (shmem_ctx_create with SHMEM_CTX_PRIVATE, with no option, or
 * with SHMEM_CTX_SERIALIZED) instead of
 * SHMEM_CTX_DEFAULT; --thread-level multiple starts the library with
 * shmem_init_thread(SHMEM_THREAD_MULTIPLE) (the benchmark stays on one thread).
 *
 * Verification (unless --no-check): every value a fetching operation returns
 * is checked against the one it must be (the count of operations before it,
 * or the known value for fetch_lat), including during warm-up; and after
 * each point PE 1 reads the target in its own memory, which must hold the
 * number of operations issued (fetch_lat: the value it was given; put8_rate:
 * the pattern written by the puts).  A mismatch prints "VERIFY FAILED" on
 * stderr and makes the exit status 1.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_shmem.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum test_id {
    FADD_LAT,
    CSWAP_LAT,
    SWAP_LAT,
    FETCH_LAT,
    ADD_LAT,
    ADD_RATE,
    PUT8_RATE,
    ADD_RATE_MANY,
    NTESTS
};

static const char *const test_names[NTESTS] = {
    "fadd_lat", "cswap_lat", "swap_lat",  "fetch_lat",
    "add_lat",  "add_rate",  "put8_rate", "add_rate_many",
};

static int is_rate(int t) { return t == ADD_RATE || t == PUT8_RATE || t == ADD_RATE_MANY; }

struct options {
    int tests[NTESTS];
    long iters;  /* 0: default */
    long warmup; /* -1: default */
    int window;
    double max_time; /* seconds per point, <= 0: no cap */
    int check;
    int target; /* TARGET_HEAP or TARGET_GLOBAL */
    int ctx;    /* enum ctx_kind */
};

/* The context of the timed operations (--ctx). */
static shmem_ctx_t bench_ctx;

/* --target global: the symmetric layout of main() in the data segment, for windows of up to
 * GLOBAL_MAX_WINDOW operations. */
#define GLOBAL_MAX_WINDOW 1024
static long global_area[2 * 8 + 2 * GLOBAL_MAX_WINDOW] __attribute__((aligned(64)));

/* Default iteration counts (windows for *_rate); --max-time then trims
 * whatever would take longer than that on the machine at hand. */
#define LAT_IT        1000000L
#define RATE_IT       20000L
#define MIN_CAPPED_IT 4L /* --max-time never goes below this */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: amo_bench [options]   (run on 2 PEs; more: add_rate_many only)\n"
            "  -t, --tests LIST     comma-separated tests, or 'all' (default all):\n"
            "                       fadd_lat,cswap_lat,swap_lat,fetch_lat,add_lat,\n"
            "                       add_rate,put8_rate,add_rate_many\n"
            "  -i, --iters N        timed iterations per point (default %ld; for\n"
            "                       *_rate tests one iteration is one window, default %ld)\n"
            "  -w, --warmup N       untimed warm-up iterations (default iters/10,\n"
            "                       between 2 and 1000)\n"
            "  -W, --window N       operations per window for *_rate (default 64)\n"
            "  -T, --max-time SEC   cap the timed part of a point at about SEC seconds\n"
            "                       by lowering the iteration count (default 0.05,\n"
            "                       0 = no cap; never below 4 iterations; ignored\n"
            "                       with --iters)\n"
            "  -g, --target WHERE   heap (default) or global: the objects in a static\n"
            "                       array (--window at most 1024)\n"
            "  -c, --ctx KIND       default (SHMEM_CTX_DEFAULT), private, shared or\n"
            "                       serialized:\n"
            "                       the timed operations on a context of their own\n"
            "      --thread-level L single (default: shmem_init) or multiple\n"
            "                       (shmem_init_thread(SHMEM_THREAD_MULTIPLE))\n"
            "  -n, --no-check       do not report the value verification (fetched\n"
            "                       values are still compared, so timings match)\n"
            "  -h, --help           this text\n"
            "Output on PE 0: CSV 'test,size,value,unit,iters'; us = microseconds per\n"
            "operation (lower is better), Mops/s = 10^6 operations/s (higher is better).\n",
            LAT_IT, RATE_IT);
}

/* Returns 0 to run, 1 to exit successfully (help), -1 on a usage error.
 * Only PE 0 (quiet == 0) prints. */
static int parse_args(int argc, char **argv, struct options *o, int quiet)
{
    static const struct option longopts[] = {
        {"tests", required_argument, NULL, 't'},
        {"iters", required_argument, NULL, 'i'},
        {"warmup", required_argument, NULL, 'w'},
        {"window", required_argument, NULL, 'W'},
        {"max-time", required_argument, NULL, 'T'},
        {"target", required_argument, NULL, 'g'},
        {"ctx", required_argument, NULL, 'c'},
        {"thread-level", required_argument, NULL, 'L'},
        {"no-check", no_argument, NULL, 'n'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    for (int t = 0; t < NTESTS; t++)
        o->tests[t] = 1;
    o->iters = 0;
    o->warmup = -1;
    o->window = 64;
    o->max_time = 0.05;
    o->check = 1;
    o->target = TARGET_HEAP;
    o->ctx = CTX_DEFAULT;

    opterr = 0;
    int c;
    long v;
    const char *bad = NULL;
    while ((c = getopt_long(argc, argv, "t:i:w:W:T:g:c:nh", longopts, NULL)) != -1) {
        switch (c) {
        case 't':
            if (parse_tests(optarg, test_names, NTESTS, o->tests))
                bad = "bad value for --tests";
            break;
        case 'i':
            if (parse_long(optarg, 1, &o->iters))
                bad = "bad value for --iters";
            break;
        case 'w':
            if (parse_long(optarg, 0, &o->warmup))
                bad = "bad value for --warmup";
            break;
        case 'W':
            if (parse_long(optarg, 1, &v) || v > 1000000)
                bad = "bad value for --window";
            else
                o->window = (int)v;
            break;
        case 'T': {
            char *end;
            o->max_time = strtod(optarg, &end);
            if (end == optarg || *end != '\0' || o->max_time < 0)
                bad = "bad value for --max-time";
            break;
        }
        case 'g':
        case 'c':
        case 'L':
            parse_target_and_ctx_option(c, optarg, &o->target, &o->ctx, &bad);
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
    if (!bad && o->target == TARGET_GLOBAL && o->window > GLOBAL_MAX_WINDOW)
        bad = "--window is at most 1024 with --target global";
    if (bad) {
        if (!quiet) {
            fprintf(stderr, "amo_bench: %s\n", bad);
            usage(stderr);
        }
        return -1;
    }
    return 0;
}

/* The state of one point on PE 0.  ops counts the operations that changed
 * the target so far, which is also the value the target holds (it starts at
 * 0 for every test but fetch_lat). */
struct point {
    long *target;  /* the counter on PE 1 */
    long *put_src; /* window words on PE 0 (put8_rate) */
    long *put_dst; /* window words on PE 1 (put8_rate) */
    int window;
    int test;         /* which test the point runs */
    long fetch_value; /* what fetch_lat must read */
    long ops;
    long bad;                       /* fetched values that were wrong */
    long bad_at, bad_got, bad_want; /* the first one */
};

static void run_iters(int t, long n, struct point *p);

/* run_iters in the shape time_in_chunks() calls. */
static void run_point(void *point, long n)
{
    struct point *p = point;
    run_iters(p->test, n, p);
}

static void wrong_value(struct point *p, long at, long got, long want)
{
    if (p->bad++ == 0) {
        p->bad_at = at;
        p->bad_got = got;
        p->bad_want = want;
    }
}

/* n iterations of test t; PE 0 only (add_rate_many: every PE but PE 1). */
static void run_iters(int t, long n, struct point *p)
{
    const int peer = 1;
    long *target = p->target;
    long ops = p->ops;
    long r;

    switch (t) {
    case FADD_LAT:
        for (long i = 0; i < n; i++, ops++) {
            r = shmem_ctx_long_atomic_fetch_add(bench_ctx, target, 1, peer);
            if (r != ops)
                wrong_value(p, ops, r, ops);
        }
        break;
    case CSWAP_LAT:
        for (long i = 0; i < n; i++, ops++) {
            r = shmem_ctx_long_atomic_compare_swap(bench_ctx, target, ops, ops + 1, peer);
            if (r != ops)
                wrong_value(p, ops, r, ops);
        }
        break;
    case SWAP_LAT:
        for (long i = 0; i < n; i++, ops++) {
            r = shmem_ctx_long_atomic_swap(bench_ctx, target, ops + 1, peer);
            if (r != ops)
                wrong_value(p, ops, r, ops);
        }
        break;
    case FETCH_LAT:
        for (long i = 0; i < n; i++) {
            r = shmem_ctx_long_atomic_fetch(bench_ctx, target, peer);
            if (r != p->fetch_value)
                wrong_value(p, i, r, p->fetch_value);
        }
        break;
    case ADD_LAT:
        for (long i = 0; i < n; i++, ops++) {
            shmem_ctx_long_atomic_add(bench_ctx, target, 1, peer);
            shmem_ctx_quiet(bench_ctx);
        }
        break;
    case ADD_RATE:
    case ADD_RATE_MANY:
        for (long i = 0; i < n; i++) {
            for (int w = 0; w < p->window; w++)
                shmem_ctx_long_atomic_add(bench_ctx, target, 1, peer);
            shmem_ctx_quiet(bench_ctx);
        }
        ops += n * p->window;
        break;
    case PUT8_RATE:
        for (long i = 0; i < n; i++) {
            for (int w = 0; w < p->window; w++)
                shmem_ctx_putmem_nbi(bench_ctx, &p->put_dst[w], &p->put_src[w], sizeof(long), peer);
            shmem_ctx_quiet(bench_ctx);
        }
        ops += n * p->window;
        break;
    }
    p->ops = ops;
}

/* The word put8_rate writes to slot w of point `seed`. */
static long put_pattern(long w, unsigned seed)
{
    return (long)(((unsigned long)seed << 32) ^ (unsigned long)(w * 2654435761u + 1u));
}

int main(int argc, char **argv)
{
    int started = start_library(argc, argv);
    int me = shmem_my_pe();
    int npes = shmem_n_pes();

    struct options o;
    int pa = parse_args(argc, argv, &o, me != 0);
    if (pa == 0 && (started != 0 || make_ctx(o.ctx, &bench_ctx) != 0))
        pa = -1;
    if (pa != 0) {
        fflush(stdout);
        fflush(stderr);
        shmem_finalize();
        return pa < 0 ? 2 : 0;
    }
    if (npes < 2) {
        if (me == 0)
            fprintf(stderr,
                    "amo_bench: needs 2 PEs (PE 0 active, PE 1 target), or more for "
                    "add_rate_many; got %d; run it as: oshrun -np 2 amo_bench\n",
                    npes);
        fflush(stderr);
        shmem_finalize();
        return 2;
    }
    if (npes > 2) {
        int skipped = 0;
        for (int t = 0; t < NTESTS; t++)
            if (t != ADD_RATE_MANY && o.tests[t])
                o.tests[t] = 0, skipped = 1;
        if (me == 0 && skipped)
            fprintf(stderr, "amo_bench: on %d PEs only add_rate_many runs\n", npes);
    }

    /* Symmetric layout, in 64-byte cache lines: [counter][report][put src:
     * window words][put dst: window words].  The counter is the AMO target
     * on PE 1, alone on its line; PE 1 copies what it finds in its own
     * memory into report, which PE 0 then reads with a get. */
    size_t line = 64 / sizeof(long);
    size_t span = ((size_t)o.window + line - 1) / line * line;
    size_t words = 2 * line + 2 * span;
    long *base = o.target == TARGET_GLOBAL ? global_area : shmem_align(64, words * sizeof(long));
    if (!base) {
        if (me == 0)
            fprintf(stderr, "amo_bench: shmem_align(64, %zu) failed\n", words * sizeof(long));
        fflush(stderr);
        shmem_finalize();
        return 1;
    }
    memset(base, 0, words * sizeof(long)); /* touch every page before timing */
    long *counter = &base[0];
    static long shared_iters; /* add_rate_many: PE 0's iteration count, for every issuer */
    long *report = &base[line];
    struct point p;
    memset(&p, 0, sizeof p);
    p.target = counter;
    p.put_src = &base[2 * line];
    p.put_dst = &base[2 * line + span];
    p.window = o.window;
    shmem_barrier_all();

    int failures = 0;
    int points = 0;
    unsigned seed = 0;

    if (me == 0) {
        printf("test,size,value,unit,iters\n");
        fflush(stdout);
    }

    for (int t = 0; t < NTESTS; t++) {
        if (!o.tests[t])
            continue;
        seed++;
        long iters = o.iters > 0 ? o.iters : is_rate(t) ? RATE_IT : LAT_IT;
        long warm = o.warmup >= 0       ? o.warmup
                    : iters / 10 < 2    ? 2
                    : iters / 10 > 1000 ? 1000
                                        : iters / 10;
        double elapsed = 0.0;

        /* Fresh target for this point, set by its owner. */
        p.fetch_value = 0x5eed000000L + (long)seed;
        p.ops = 0;
        p.bad = 0;
        if (me == 1) {
            *counter = t == FETCH_LAT ? p.fetch_value : 0;
            for (int w = 0; w < o.window; w++)
                p.put_dst[w] = 0;
        } else {
            for (int w = 0; w < o.window; w++)
                p.put_src[w] = put_pattern(w, seed);
        }
        shmem_barrier_all();

        if (me == 0) {
            /* Warm up in doubling chunks (1, 2, 4, ...) so a slow
             * implementation cannot stretch the warm-up, and estimate the
             * cost of one iteration to honour --max-time. */
            long done = 0, last = 0;
            double wspent = 0.0, lastspent = 0.0;
            for (long chunk = 1; done < warm; chunk *= 2) {
                if (chunk > warm - done)
                    chunk = warm - done;
                double w0 = now_sec();
                run_iters(t, chunk, &p);
                lastspent = now_sec() - w0;
                wspent += lastspent;
                last = chunk;
                done += chunk;
                /* At least two chunks, so that a slow first operation
                 * (connection setup, a preemption) is not all we go by. */
                if (o.max_time > 0 && wspent > o.max_time / 4 && done > 1)
                    break;
            }
            if (last > 0 && o.max_time > 0 && o.iters == 0) {
                /* The last chunk is the largest and the most warmed up. */
                double per = lastspent / (double)last;
                if (per > 0 && per * (double)iters > o.max_time) {
                    long capped = (long)(o.max_time / per);
                    iters = capped < MIN_CAPPED_IT ? MIN_CAPPED_IT : capped;
                }
            }
            p.test = t;
            if (t != ADD_RATE_MANY)
                elapsed = time_in_chunks(run_point, &p, iters);
        }
        if (t == ADD_RATE_MANY) {
            /* Every issuer runs PE 0's count, all at once. */
            if (me == 0)
                for (int pe = 2; pe < npes; pe++)
                    shmem_long_p(&shared_iters, iters, pe);
            shmem_barrier_all();
            if (me > 1)
                iters = shared_iters;
            double t0 = now_sec();
            if (me != 1)
                run_iters(t, iters, &p);
            shmem_barrier_all();
            elapsed = now_sec() - t0;
            if (me == 0) /* what PE 1's counter must hold: the others' adds too */
                p.ops += (long)(npes - 2) * iters * o.window;
        }
        /* The barrier completes every operation PE 0 issued. */
        shmem_barrier_all();

        if (o.check) {
            /* PE 1 looks at the target in its own memory: the counter's
             * value, or for put8_rate 1 + the first wrong slot (0: none). */
            if (me == 1) {
                if (t == PUT8_RATE) {
                    *report = 0;
                    for (int w = 0; w < o.window; w++)
                        if (p.put_dst[w] != put_pattern(w, seed)) {
                            *report = w + 1;
                            break;
                        }
                } else {
                    *report = *counter;
                }
            }
            shmem_barrier_all();
            if (me == 0) {
                long seen = 0;
                shmem_getmem(&seen, report, sizeof seen, 1);
                int ok = 1;
                if (p.bad) {
                    ok = 0;
                    fprintf(stderr,
                            "amo_bench: VERIFY FAILED: %s: %ld fetched value(s) "
                            "wrong, the first at operation %ld: got %ld, expected %ld\n",
                            test_names[t], p.bad, p.bad_at, p.bad_got, p.bad_want);
                }
                if (t == PUT8_RATE) {
                    if (seen != 0) {
                        ok = 0;
                        fprintf(stderr,
                                "amo_bench: VERIFY FAILED: %s: PE 1 slot %ld "
                                "does not hold the value put there\n",
                                test_names[t], seen - 1);
                    }
                } else {
                    long want = t == FETCH_LAT ? p.fetch_value : p.ops;
                    if (seen != want) {
                        ok = 0;
                        fprintf(stderr,
                                "amo_bench: VERIFY FAILED: %s: the target on PE 1 "
                                "holds %ld after the point, expected %ld\n",
                                test_names[t], seen, want);
                    }
                }
                if (!ok) {
                    failures++;
                    fflush(stderr);
                }
            }
        }

        if (me == 0) {
            if (is_rate(t)) {
                double issuers = t == ADD_RATE_MANY ? npes - 1 : 1;
                double ops = issuers * (double)o.window * (double)iters;
                printf("%s,%zu,%.3f,Mops/s,%ld\n", test_names[t], sizeof(long), ops / elapsed / 1e6,
                       iters);
            } else {
                printf("%s,%zu,%.3f,us,%ld\n", test_names[t], sizeof(long),
                       elapsed * 1e6 / (double)iters, iters);
            }
            fflush(stdout);
            points++;
        }
    }

    shmem_barrier_all();
    if (o.ctx != CTX_DEFAULT)
        shmem_ctx_destroy(bench_ctx);
    if (o.target == TARGET_HEAP)
        shmem_free(base);
    /* The closing line tells a driver script that every result was
     * printed, whatever happens in shmem_finalize. */
    if (me == 0)
        fprintf(stderr, "amo_bench: done: %d points, %d failed verification\n", points, failures);
    /* Everything is printed and flushed before finalize: some
     * implementations crash inside shmem_finalize. */
    fflush(stdout);
    fflush(stderr);
    shmem_finalize();
    return failures ? 1 : 0;
}
