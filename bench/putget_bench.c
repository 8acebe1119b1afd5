/*
 * putget_bench: OSU-style put/get latency and bandwidth for OpenSHMEM.
 *
 * Plain C against the standard OpenSHMEM API only, so the very same source
 * builds with Shoal and with any other implementation (bench/compare_oshmem.sh
 * builds it with Open MPI's OSHMEM too).  Runs on exactly 2 PEs: PE 0 issues
 * every operation, PE 1 is the passive target (put_signal_lat: PE 1 answers).
 *
 * Output (PE 0, stdout): a CSV header then one line per measured point:
 *     test,size,value,unit,iters
 * Latencies are in microseconds per operation (lower is better); bandwidths
 * in MB/s, 1 MB = 10^6 bytes, and message rates in Mops/s, 10^6 operations
 * per second (higher is better).  Each line is flushed as it
 * is produced so results survive a crash later on, in particular in
 * shmem_finalize.  Diagnostics go to stderr, which ends, before finalize,
 * with "putget_bench: done: N points, M failed verification".
 *
 * Tests:
 *   put_lat          shmem_putmem + shmem_quiet per iteration
 *   put_lat_noquiet  back-to-back shmem_putmem, one shmem_quiet at the end
 *                    (like OSU osu_oshm_put); time per putmem
 *   get_lat          shmem_getmem per iteration
 *   put_bw           window of shmem_putmem_nbi then shmem_quiet
 *   get_bw           window of shmem_getmem_nbi then shmem_quiet
 *   put_rate         put_bw's loop, reported as operations per second;
 *                    sizes up to 8 KiB
 *   get_rate         get_bw's loop, reported as operations per second;
 *                    sizes up to 8 KiB
 *   put_signal_lat   ping-pong of shmem_putmem_signal(SHMEM_SIGNAL_SET):
 *                    PE 0 puts to PE 1, PE 1 waits for the signal with
 *                    shmem_signal_wait_until and answers the same way;
 *                    half the round trip; sizes up to 64 KiB.  Needs
 *                    OpenSHMEM 1.5: with an older shmem.h the test is
 *                    accepted but skipped (no rows, a note on stderr).
 *   flag_lat         ping-pong of the classic notification: shmem_putmem,
 *                    shmem_fence, shmem_long_atomic_set of a flag, which
 *                    the other PE waits for with shmem_long_wait_until and
 *                    answers the same way; half the round trip; sizes up
 *                    to 4 KiB
 *   iput_lat         shmem_iput64 of size/16 words into every other word of
 *                    size bytes at PE 1 (target stride 2), + shmem_quiet;
 *                    sizes 16 B .. 64 KiB
 *   iget_lat         shmem_iget64 of every other word of size bytes at PE 1
 *                    (source stride 2) into size/16 consecutive words
 *   flag_idle_lat    flag_lat where each PE computes for 1 ms (a loop on
 *                    the clock, no SHMEM call) before it sends, so the PE
 *                    it notifies has waited at least that long: what a
 *                    PE that waits for a slower peer pays on top; half the
 *                    round trip less the 1 ms
 *
 * --target global puts the buffers, flag and signal in a static array (the
 * data segment) instead of the symmetric heap; --max-size is then at most
 * 1 MiB (the array's size).
 *
 * --ctx private, shared or serialized issues the timed operations on a context
 * of their own (shmem_ctx_create with SHMEM_CTX_PRIVATE, with no option, or
 * with SHMEM_CTX_SERIALIZED) instead of
 * SHMEM_CTX_DEFAULT, on both PEs; --thread-level multiple starts the library
 * with shmem_init_thread(SHMEM_THREAD_MULTIPLE), as a program with threads
 * would (the benchmark itself stays on one thread).
 *
 * The timed iterations of a point run in up to 16 chunks and the value comes
 * from the median chunk, so a chunk the shared machine preempted does not
 * decide it.
 *
 * After each timed point the data path is verified once (a fresh pattern is
 * moved with the same kind of call and checked at the destination) unless
 * --no-check is given; a mismatch is reported on stderr and the exit status
 * is 1.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_shmem.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(SHMEM_MAJOR_VERSION) && defined(SHMEM_MINOR_VERSION) &&                                \
    (SHMEM_MAJOR_VERSION > 1 || (SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION >= 5))
#define HAVE_PUT_SIGNAL 1
#else
#define HAVE_PUT_SIGNAL 0
#endif

enum test_id {
    PUT_LAT,
    PUT_LAT_NOQUIET,
    GET_LAT,
    PUT_BW,
    GET_BW,
    PUT_RATE,
    GET_RATE,
    PUT_SIGNAL_LAT,
    FLAG_LAT,
    FLAG_IDLE_LAT,
    IPUT_LAT,
    IGET_LAT,
    NTESTS
};

static const char *const test_names[NTESTS] = {
    "put_lat",  "put_lat_noquiet", "get_lat",  "put_bw",        "get_bw",   "put_rate",
    "get_rate", "put_signal_lat",  "flag_lat", "flag_idle_lat", "iput_lat", "iget_lat",
};

/* Largest size per test (--max-size lowers it, never raises it). */
static const size_t test_max[NTESTS] = {
    4 * MIB, 4 * MIB, 4 * MIB, 4 * MIB, 4 * MIB,  8 * KIB,
    8 * KIB, 4 * MIB, 4 * KIB, 4 * KIB, 64 * KIB, 64 * KIB,
};

static int is_rate(int t) { return t == PUT_RATE || t == GET_RATE; }
/* Windows of non-blocking operations, then shmem_quiet. */
static int is_win(int t) { return t == PUT_BW || t == GET_BW || is_rate(t); }
static int is_flag(int t) { return t == FLAG_LAT || t == FLAG_IDLE_LAT; }
/* Strided: size/16 words, every other word of size bytes at PE 1. */
static int is_strided(int t) { return t == IPUT_LAT || t == IGET_LAT; }
static int is_put(int t)
{
    return t == PUT_LAT || t == PUT_LAT_NOQUIET || t == PUT_BW || t == PUT_RATE || is_flag(t) ||
           t == IPUT_LAT;
}

struct options {
    int tests[NTESTS]; /* which tests to run */
    size_t min_size;
    size_t max_size;
    long iters;  /* 0: size-dependent default */
    long warmup; /* -1: size-dependent default */
    int window;
    double max_time; /* seconds per point, <= 0: no cap */
    int check;
    int target; /* TARGET_HEAP or TARGET_GLOBAL */
    int ctx;    /* enum ctx_kind */
};

/* The context of the timed operations (--ctx). */
static shmem_ctx_t bench_ctx;

/* --target global: the symmetric layout of main() in the data segment. */
#define GLOBAL_MAX_SIZE (1 * MIB)
static char global_area[2 * GLOBAL_MAX_SIZE + 128] __attribute__((aligned(64)));

/* Size-dependent defaults: a byte budget per point, clamped; --max-time
 * then trims whatever would take longer than that on the machine at hand. */
#define LAT_BUDGET    ((size_t)1024 * MIB)
#define LAT_MAX_IT    100000L
#define LAT_MIN_IT    20L
#define BW_BUDGET     ((size_t)4096 * MIB)
#define BW_MAX_IT     2000L /* windows */
#define BW_MIN_IT     4L
#define MIN_CAPPED_IT 4L /* --max-time never goes below this */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: putget_bench [options]   (run on exactly 2 PEs)\n"
            "  -t, --tests LIST     comma-separated tests, or 'all' (default all):\n"
            "                       put_lat,put_lat_noquiet,get_lat,put_bw,get_bw,\n"
            "                       put_rate,get_rate (up to 8K), put_signal_lat\n"
            "                       (OpenSHMEM 1.5, skipped before%s),\n"
            "                       flag_lat, flag_idle_lat (up to 4K),\n"
            "                       iput_lat, iget_lat (16 B up to 64K)\n"
            "  -s, --min-size N     smallest message in bytes (default 1; K/M suffix ok)\n"
            "  -S, --max-size N     largest message in bytes (default 4M; rate and\n"
            "                       signal tests stop at their own limit above)\n"
            "  -i, --iters N        timed iterations per point (default: by size;\n"
            "                       for *_bw and *_rate one iteration is one window,\n"
            "                       for put_signal_lat one round trip)\n"
            "  -w, --warmup N       untimed warm-up iterations (default: by size)\n"
            "  -W, --window N       operations per window for *_bw, *_rate (default 64)\n"
            "  -T, --max-time SEC   cap the timed part of a point at about SEC seconds\n"
            "                       by lowering the iteration count (default 0.05,\n"
            "                       0 = no cap; never below 4 iterations; ignored\n"
            "                       with --iters)\n"
            "  -g, --target WHERE   heap (default) or global: the buffers in a static\n"
            "                       array (--max-size at most 1M)\n"
            "  -c, --ctx KIND       default (SHMEM_CTX_DEFAULT), private, shared or\n"
            "                       serialized:\n"
            "                       the timed operations on a context of their own\n"
            "      --thread-level L single (default: shmem_init) or multiple\n"
            "                       (shmem_init_thread(SHMEM_THREAD_MULTIPLE))\n"
            "  -n, --no-check       skip the data verification after each point\n"
            "  -h, --help           this text\n"
            "Output on PE 0: CSV 'test,size,value,unit,iters'; us = microseconds per\n"
            "operation (lower is better), MB/s = 10^6 bytes/s, Mops/s = 10^6\n"
            "operations/s (higher is better).\n",
            HAVE_PUT_SIGNAL ? "" : "; this shmem.h is older");
}

/* Returns 0 to run, 1 to exit successfully (help), -1 on a usage error.
 * Only PE 0 (quiet == 0) prints. */
static int parse_args(int argc, char **argv, struct options *o, int quiet)
{
    static const struct option longopts[] = {
        {"tests", required_argument, NULL, 't'},
        {"min-size", required_argument, NULL, 's'},
        {"max-size", required_argument, NULL, 'S'},
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
    o->min_size = 1;
    o->max_size = 4 * MIB;
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
    while ((c = getopt_long(argc, argv, "t:s:S:i:w:W:T:g:c:nh", longopts, NULL)) != -1) {
        switch (c) {
        case 't':
            if (parse_tests(optarg, test_names, NTESTS, o->tests))
                bad = "bad value for --tests";
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
    if (!bad && o->target == TARGET_GLOBAL && o->max_size > GLOBAL_MAX_SIZE)
        o->max_size = GLOBAL_MAX_SIZE;
    if (!bad && o->min_size > o->max_size)
        bad = "--min-size is larger than --max-size";
    if (bad) {
        if (!quiet) {
            fprintf(stderr, "putget_bench: %s\n", bad);
            usage(stderr);
        }
        return -1;
    }
    return 0;
}

static long default_iters(const struct options *o, int test, size_t size)
{
    if (o->iters > 0)
        return o->iters;
    size_t per_it = is_win(test) ? size * (size_t)o->window : size;
    size_t budget = is_win(test) ? BW_BUDGET : LAT_BUDGET;
    long lo = is_win(test) ? BW_MIN_IT : LAT_MIN_IT;
    long hi = is_win(test) ? BW_MAX_IT : LAT_MAX_IT;
    long n = (long)(budget / per_it);
    return n < lo ? lo : n > hi ? hi : n;
}

static long default_warmup(const struct options *o, long iters)
{
    if (o->warmup >= 0)
        return o->warmup;
    long w = iters / 10;
    return w < 2 ? 2 : w > 1000 ? 1000 : w;
}

/* put_signal_lat: the signal word (symmetric) and the last sequence number
 * PE 0 sent in this point.  STOP_SIGNAL ends PE 1's answering loop. */
static uint64_t *sig;
static uint64_t sig_seq;
#define STOP_SIGNAL UINT64_MAX

/* flag_lat, flag_idle_lat: the flag word (symmetric), the last value PE 0
 * sent in this point, and how long each PE computes before it sends in
 * flag_idle_lat.  STOP_FLAG ends PE 1's answering loop. */
static long *ping;
static long ping_seq;
#define STOP_FLAG (-1L)
#define IDLE_USEC 1000.0

/* Computes (spins on the clock, no SHMEM call) for usec microseconds. */
static void compute_for(double usec)
{
    double end = now_sec() + usec * 1e-6;
    while (now_sec() < end) {
    }
}

/* One notification: size bytes, then the flag, ordered by a fence. */
static void notify(int t, char *remote, const char *local, size_t size, long v, int pe)
{
    if (t == FLAG_IDLE_LAT)
        compute_for(IDLE_USEC);
    shmem_ctx_putmem(bench_ctx, remote, local, size, pe);
    shmem_ctx_fence(bench_ctx);
    shmem_ctx_long_atomic_set(bench_ctx, ping, v, pe);
}

/* PE 1's side of flag_lat and flag_idle_lat: answer every flag from PE 0
 * the same way, until STOP_FLAG. */
static void answer_flags(int t, size_t size, char *local, char *remote)
{
    for (long next = 1;; next++) {
        shmem_long_wait_until(ping, SHMEM_CMP_NE, next - 1);
        long v = *(volatile long *)ping;
        if (v == STOP_FLAG)
            break;
        notify(t, remote, local, size, v, 0);
    }
}

#if HAVE_PUT_SIGNAL
/* PE 1's side of put_signal_lat: answer every signal from PE 0 with a put
 * of the same size and the same signal value, until STOP_SIGNAL. */
static void answer_signals(size_t size, char *local, char *remote)
{
    uint64_t next = 1;
    for (;;) {
        uint64_t v = shmem_signal_wait_until(sig, SHMEM_CMP_GE, next);
        if (v == STOP_SIGNAL)
            break;
        shmem_ctx_putmem_signal(bench_ctx, remote, local, size, sig, v, SHMEM_SIGNAL_SET, 0);
        next = v + 1;
    }
}
#endif

/* n iterations of test t at this size; PE 0 only. */
static void run_iters(int t, long n, size_t size, int window, char *local, char *remote, int peer)
{
    switch (t) {
    case PUT_SIGNAL_LAT:
#if HAVE_PUT_SIGNAL
        for (long i = 0; i < n; i++) {
            uint64_t v = ++sig_seq;
            shmem_ctx_putmem_signal(bench_ctx, remote, local, size, sig, v, SHMEM_SIGNAL_SET, peer);
            shmem_signal_wait_until(sig, SHMEM_CMP_GE, v);
        }
#endif
        break;
    case FLAG_LAT:
    case FLAG_IDLE_LAT:
        for (long i = 0; i < n; i++) {
            long v = ++ping_seq;
            notify(t, remote, local, size, v, peer);
            shmem_long_wait_until(ping, SHMEM_CMP_EQ, v);
        }
        break;
    case IPUT_LAT:
        for (long i = 0; i < n; i++) {
            shmem_ctx_iput64(bench_ctx, remote, local, 2, 1, size / 16, peer);
            shmem_ctx_quiet(bench_ctx);
        }
        break;
    case IGET_LAT:
        for (long i = 0; i < n; i++)
            shmem_ctx_iget64(bench_ctx, local, remote, 1, 2, size / 16, peer);
        break;
    case PUT_LAT:
        for (long i = 0; i < n; i++) {
            shmem_ctx_putmem(bench_ctx, remote, local, size, peer);
            shmem_ctx_quiet(bench_ctx);
        }
        break;
    case PUT_LAT_NOQUIET:
        for (long i = 0; i < n; i++)
            shmem_ctx_putmem(bench_ctx, remote, local, size, peer);
        shmem_ctx_quiet(bench_ctx);
        break;
    case GET_LAT:
        for (long i = 0; i < n; i++)
            shmem_ctx_getmem(bench_ctx, local, remote, size, peer);
        break;
    case PUT_BW:
    case PUT_RATE:
        for (long i = 0; i < n; i++) {
            for (int w = 0; w < window; w++)
                shmem_ctx_putmem_nbi(bench_ctx, remote, local, size, peer);
            shmem_ctx_quiet(bench_ctx);
        }
        break;
    case GET_BW:
    case GET_RATE:
        for (long i = 0; i < n; i++) {
            for (int w = 0; w < window; w++)
                shmem_ctx_getmem_nbi(bench_ctx, local, remote, size, peer);
            shmem_ctx_quiet(bench_ctx);
        }
        break;
    }
}

/* One point's run_iters arguments, for time_in_chunks(). */
struct point {
    int test;
    size_t size;
    int window;
    char *local, *remote;
    int peer;
};

static void run_point(void *point, long n)
{
    struct point *p = point;
    run_iters(p->test, n, p->size, p->window, p->local, p->remote, p->peer);
}

static unsigned char pattern(size_t i, unsigned seed)
{
    return (unsigned char)((i * 7u + seed * 13u + 1u) & 0xffu);
}

static void fill(char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (char)pattern(i, seed);
}

/* Offset of the first byte that differs from the pattern, or -1. */
static long long first_bad(const char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)p[i] != pattern(i, seed))
            return (long long)i;
    return -1;
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
    if (npes != 2) {
        if (me == 0)
            fprintf(stderr,
                    "putget_bench: needs exactly 2 PEs (PE 0 active, PE 1 target), "
                    "got %d; run it as: oshrun -np 2 putget_bench\n",
                    npes);
        fflush(stderr);
        shmem_finalize();
        return 2;
    }

    if (o.tests[PUT_SIGNAL_LAT] && !HAVE_PUT_SIGNAL) {
        o.tests[PUT_SIGNAL_LAT] = 0;
        if (me == 0)
            fprintf(stderr, "putget_bench: put_signal_lat skipped: this shmem.h predates "
                            "OpenSHMEM 1.5 (no shmem_putmem_signal)\n");
    }

    /* Symmetric layout: [src: max_size][dst: max_size], then two 64-byte
     * lines: [flag][signal, ping].  Put tests move PE 0's src to PE 1's dst; get
     * tests move PE 1's src to PE 0's dst; put_signal_lat does both. */
    size_t cap = o.max_size;
    size_t tail = (2 * cap + 63) / 64 * 64;
    char *base = o.target == TARGET_GLOBAL ? global_area : shmem_align(64, tail + 128);
    if (!base) {
        if (me == 0)
            fprintf(stderr,
                    "putget_bench: shmem_align(64, %zu) failed; is the "
                    "symmetric heap large enough?\n",
                    tail + 128);
        fflush(stderr);
        shmem_finalize();
        return 1;
    }
    char *src = base;
    char *dst = base + cap;
    int *flag = (int *)(base + tail);
    sig = (uint64_t *)(base + tail + 64);
    ping = (long *)(base + tail + 96);
    memset(base, me + 1, tail + 128); /* touch every page before timing */
    *flag = 0;
    *sig = 0;
    *ping = 0;
    shmem_barrier_all();

    const int peer = 1;
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
        size_t top = o.max_size < test_max[t] ? o.max_size : test_max[t];
        for (size_t size = o.min_size; size <= top; size *= 2) {
            if (is_strided(t) && size < 16)
                continue; /* not one word at stride 2 */
            seed++;
            long iters = default_iters(&o, t, size);
            long warm = default_warmup(&o, iters);
            double elapsed = 0.0;

            if (t == PUT_SIGNAL_LAT) {
                *sig = 0; /* each PE resets its own signal */
                sig_seq = 0;
            }
            if (is_flag(t)) {
                *ping = 0; /* each PE resets its own flag */
                ping_seq = 0;
            }
            shmem_barrier_all();
#if HAVE_PUT_SIGNAL
            if (t == PUT_SIGNAL_LAT && me == 1)
                answer_signals(size, src, dst);
#endif
            if (is_flag(t) && me == 1)
                answer_flags(t, size, src, dst);
            if (me == 0) {
                char *local = is_put(t) ? src : dst;
                char *remote = is_put(t) ? dst : src;
                /* Warm up in doubling chunks (1, 2, 4, ...) so a slow
                 * implementation cannot stretch the warm-up, and estimate
                 * the cost of one iteration to honour --max-time. */
                long done = 0, last = 0;
                double wspent = 0.0, lastspent = 0.0;
                for (long chunk = 1; done < warm; chunk *= 2) {
                    if (chunk > warm - done)
                        chunk = warm - done;
                    double w0 = now_sec();
                    run_iters(t, chunk, size, o.window, local, remote, peer);
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
                struct point p = {t, size, o.window, local, remote, peer};
                elapsed = time_in_chunks(run_point, &p, iters);
#if HAVE_PUT_SIGNAL
                if (t == PUT_SIGNAL_LAT) /* end PE 1's answering loop */
                    shmem_putmem_signal(remote, local, 0, sig, STOP_SIGNAL, SHMEM_SIGNAL_SET, peer);
#endif
                if (is_flag(t)) /* end PE 1's answering loop */
                    shmem_long_atomic_set(ping, STOP_FLAG, peer);
            }
            shmem_barrier_all();

            if (o.check) {
                /* Move a fresh pattern once with the same kind of call and
                 * check it where it landed. */
                int ok = 1;
                long long off = -1;
                if (t == PUT_SIGNAL_LAT) {
#if HAVE_PUT_SIGNAL
                    /* One round trip with fresh patterns both ways: the
                     * data must be there as soon as the signal is. */
                    *sig = 0;
                    if (me == 1)
                        fill(src, size, seed + 1000u);
                    else
                        fill(src, size, seed);
                    shmem_barrier_all();
                    if (me == 0) {
                        shmem_ctx_putmem_signal(bench_ctx, dst, src, size, sig, 1, SHMEM_SIGNAL_SET,
                                                peer);
                        shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 2);
                        off = first_bad(dst, size, seed + 1000u);
                        if (off >= 0)
                            ok = 0;
                    } else {
                        shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
                        off = first_bad(dst, size, seed);
                        *flag = off < 0 ? 0 : (int)(off >= 0x7ffffffe ? 0x7ffffffe : off) + 1;
                        shmem_ctx_putmem_signal(bench_ctx, dst, src, size, sig, 2, SHMEM_SIGNAL_SET,
                                                0);
                    }
                    shmem_barrier_all();
                    if (me == 0 && ok) {
                        int remote_flag = 0;
                        shmem_getmem(&remote_flag, flag, sizeof remote_flag, peer);
                        if (remote_flag) {
                            ok = 0;
                            off = remote_flag - 1;
                        }
                    }
#endif
                } else if (is_strided(t)) {
                    /* Word k of PE 0's side is word 2k of PE 1's. */
                    size_t words = size / 16;
                    if (me == (t == IPUT_LAT ? 0 : 1))
                        fill(src, size, seed);
                    if (me == (t == IPUT_LAT ? 1 : 0))
                        memset(dst, 0, size);
                    shmem_barrier_all();
                    if (t == IPUT_LAT && me == 0) {
                        shmem_ctx_iput64(bench_ctx, dst, src, 2, 1, words, peer);
                        shmem_ctx_quiet(bench_ctx);
                    }
                    if (t == IGET_LAT && me == 0)
                        shmem_ctx_iget64(bench_ctx, dst, src, 1, 2, words, peer);
                    shmem_barrier_all();
                    if (me == (t == IPUT_LAT ? 1 : 0)) {
                        for (size_t k = 0; k < words && off < 0; k++)
                            for (size_t b = 0; b < 8; b++) {
                                size_t at = t == IPUT_LAT ? 16 * k + b : 8 * k + b;
                                size_t from = t == IPUT_LAT ? 8 * k + b : 16 * k + b;
                                if ((unsigned char)dst[at] != pattern(from, seed)) {
                                    off = (long long)at;
                                    break;
                                }
                            }
                        if (t == IPUT_LAT)
                            *flag = off < 0 ? 0 : (int)(off >= 0x7ffffffe ? 0x7ffffffe : off) + 1;
                        else if (off >= 0)
                            ok = 0;
                    }
                    shmem_barrier_all();
                    if (t == IPUT_LAT && me == 0) {
                        int remote_flag = 0;
                        shmem_getmem(&remote_flag, flag, sizeof remote_flag, peer);
                        if (remote_flag) {
                            ok = 0;
                            off = remote_flag - 1;
                        }
                    }
                } else if (is_put(t)) {
                    if (me == 0) {
                        fill(src, size, seed);
                        if (is_win(t))
                            shmem_ctx_putmem_nbi(bench_ctx, dst, src, size, peer);
                        else
                            shmem_ctx_putmem(bench_ctx, dst, src, size, peer);
                        shmem_ctx_quiet(bench_ctx);
                    }
                    shmem_barrier_all();
                    if (me == 1) {
                        off = first_bad(dst, size, seed);
                        *flag = off < 0 ? 0 : (int)(off >= 0x7ffffffe ? 0x7ffffffe : off) + 1;
                    }
                    shmem_barrier_all();
                    if (me == 0) {
                        int remote_flag = 0;
                        shmem_getmem(&remote_flag, flag, sizeof remote_flag, peer);
                        if (remote_flag) {
                            ok = 0;
                            off = remote_flag - 1;
                        }
                    }
                } else {
                    if (me == 1)
                        fill(src, size, seed);
                    if (me == 0)
                        memset(dst, 0, size);
                    shmem_barrier_all();
                    if (me == 0) {
                        if (is_win(t)) {
                            shmem_ctx_getmem_nbi(bench_ctx, dst, src, size, peer);
                            shmem_ctx_quiet(bench_ctx);
                        } else {
                            shmem_ctx_getmem(bench_ctx, dst, src, size, peer);
                        }
                        off = first_bad(dst, size, seed);
                        if (off >= 0)
                            ok = 0;
                    }
                }
                if (me == 0 && !ok) {
                    failures++;
                    fprintf(stderr,
                            "putget_bench: VERIFY FAILED: %s size %zu: "
                            "first wrong byte at offset %lld\n",
                            test_names[t], size, off);
                    fflush(stderr);
                }
            }

            if (me == 0) {
                if (is_rate(t)) {
                    double ops = (double)o.window * (double)iters;
                    printf("%s,%zu,%.3f,Mops/s,%ld\n", test_names[t], size, ops / elapsed / 1e6,
                           iters);
                } else if (is_win(t)) {
                    double bytes = (double)size * (double)o.window * (double)iters;
                    printf("%s,%zu,%.2f,MB/s,%ld\n", test_names[t], size, bytes / elapsed / 1e6,
                           iters);
                } else if (is_flag(t)) {
                    /* half the round trip, less what each PE computed */
                    printf("%s,%zu,%.3f,us,%ld\n", test_names[t], size,
                           elapsed * 1e6 / (double)iters / 2 -
                               (t == FLAG_IDLE_LAT ? IDLE_USEC : 0.0),
                           iters);
                } else if (t == PUT_SIGNAL_LAT) {
                    /* half the round trip */
                    printf("%s,%zu,%.3f,us,%ld\n", test_names[t], size,
                           elapsed * 1e6 / (double)iters / 2, iters);
                } else {
                    printf("%s,%zu,%.3f,us,%ld\n", test_names[t], size,
                           elapsed * 1e6 / (double)iters, iters);
                }
                fflush(stdout);
                points++;
            }
            if (size > top / 2)
                break;
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
        fprintf(stderr, "putget_bench: done: %d points, %d failed verification\n", points,
                failures);
    /* Everything is printed and flushed before finalize: some
     * implementations crash inside shmem_finalize. */
    fflush(stdout);
    fflush(stderr);
    shmem_finalize();
    return failures ? 1 : 0;
}
