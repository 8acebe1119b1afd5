/*
 * limits_bench: what this machine allows, measured the same way as the
 * SHMEM benchmarks so that their figures can be read as a fraction of it.
 *
 * Plain C and pthreads, no SHMEM: run it directly, not through oshrun.
 *
 * Tests:
 *   memcpy_bw      one thread (pinned to the first CPU of the allowed set)
 *                  memcpy()s size bytes from one buffer to another, back to
 *                  back; MB/s (10^6 B/s), 1 B .. 4 MiB like putget_bench.
 *                  The two buffers come from separate 64 KiB-aligned blocks
 *                  of max-size bytes and are written before timing.  The
 *                  timed copies run in 16 chunks and the median chunk
 *                  gives the value (a shared machine preempts some).
 *   cacheline_rtt  two threads pinned to two different CPUs of the allowed
 *                  set bounce one 64-byte-aligned cache line: A stores an
 *                  odd count and waits for B's even answer.  us per round
 *                  trip; the value is the median over 16 chunks of the
 *                  round trips, so a preempted chunk does not decide it.
 *                  The same run also prints cacheline_oneway = rtt / 2.
 *                  Skipped (a note on stderr) with fewer than 2 CPUs.
 *
 * Output (stdout): the CSV of the other benchmarks, a header then one line
 * per point, flushed as it goes:
 *     test,size,value,unit,iters
 * size is 64 for the cache-line rows.  stderr ends with
 * "limits_bench: done: N points, M failed verification" (memcpy_bw checks
 * the copied bytes after each point; the ping-pong checks every count).
 */
#define _GNU_SOURCE

#include "bench_common.h"
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINE   64
#define CHUNKS 16

struct options {
    int memcpy_bw, cacheline;
    size_t min_size, max_size;
    long rtt_iters;  /* round trips in all */
    double max_time; /* seconds per memcpy point, <= 0: no cap */
    int check;
};

static void usage(FILE *f)
{
    fprintf(f, "usage: limits_bench [options]   (no SHMEM; run directly)\n"
               "  -t, --tests LIST     comma-separated, or 'all' (default all):\n"
               "                       memcpy_bw, cacheline_rtt (also prints cacheline_oneway)\n"
               "  -s, --min-size N     smallest memcpy in bytes (default 1; K/M suffix ok)\n"
               "  -S, --max-size N     largest memcpy in bytes (default 4M)\n"
               "  -r, --round-trips N  cache-line round trips (default 2000000)\n"
               "  -T, --max-time SEC   about SEC seconds per memcpy point and, times 20,\n"
               "                       for the round trips (default 0.05; 0 = no cap)\n"
               "  -n, --no-check       skip the checks\n"
               "  -h, --help           this text\n"
               "Output: CSV 'test,size,value,unit,iters'.\n");
}

static int parse_args(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {
        {"tests", required_argument, NULL, 't'},    {"min-size", required_argument, NULL, 's'},
        {"max-size", required_argument, NULL, 'S'}, {"round-trips", required_argument, NULL, 'r'},
        {"max-time", required_argument, NULL, 'T'}, {"no-check", no_argument, NULL, 'n'},
        {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
    };
    *o = (struct options){1, 1, 1, 4 * MIB, 2000000L, 0.05, 1};
    opterr = 0;
    int c;
    char *end;
    const char *bad = NULL;
    while ((c = getopt_long(argc, argv, "t:s:S:r:T:nh", longopts, NULL)) != -1) {
        switch (c) {
        case 't': {
            char buf[256];
            snprintf(buf, sizeof buf, "%s", optarg);
            o->memcpy_bw = o->cacheline = 0;
            for (char *sv = NULL, *tok = strtok_r(buf, ",", &sv); tok;
                 tok = strtok_r(NULL, ",", &sv)) {
                if (!strcmp(tok, "all"))
                    o->memcpy_bw = o->cacheline = 1;
                else if (!strcmp(tok, "memcpy_bw"))
                    o->memcpy_bw = 1;
                else if (!strcmp(tok, "cacheline_rtt") || !strcmp(tok, "cacheline_oneway"))
                    o->cacheline = 1;
                else
                    bad = "bad value for --tests";
            }
            break;
        }
        case 's':
            if (parse_size(optarg, &o->min_size))
                bad = "bad value for --min-size";
            break;
        case 'S':
            if (parse_size(optarg, &o->max_size))
                bad = "bad value for --max-size";
            break;
        case 'r':
            o->rtt_iters = strtol(optarg, &end, 10);
            if (end == optarg || *end != '\0' || o->rtt_iters < CHUNKS)
                bad = "bad value for --round-trips (>= 16)";
            break;
        case 'T':
            o->max_time = strtod(optarg, &end);
            if (end == optarg || *end != '\0' || o->max_time < 0)
                bad = "bad value for --max-time";
            break;
        case 'n':
            o->check = 0;
            break;
        case 'h':
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
    if (!bad && o->min_size > o->max_size)
        bad = "--min-size is larger than --max-size";
    if (bad) {
        fprintf(stderr, "limits_bench: %s\n", bad);
        usage(stderr);
        return -1;
    }
    return 0;
}

/* The CPUs this process may run on, in order; returns how many (<= max). */
static int allowed_cpus(int *cpu, int max)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 0;
    int n = 0;
    for (int c = 0; c < CPU_SETSIZE && n < max; c++)
        if (CPU_ISSET(c, &set))
            cpu[n++] = c;
    return n;
}

static int pin_self(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* ---- memcpy_bw ------------------------------------------------------------ */

static void copy_n(char *dst, const char *src, size_t size, long n)
{
    for (long i = 0; i < n; i++) {
        memcpy(dst, src, size);
        __asm__ __volatile__("" ::: "memory"); /* keep every copy */
    }
}

static int run_memcpy(const struct options *o, int *failures)
{
    size_t block = (o->max_size + 64 * KIB - 1) / (64 * KIB) * (64 * KIB);
    char *src = NULL, *dst = NULL;
    if (posix_memalign((void **)&src, 64 * KIB, block) ||
        posix_memalign((void **)&dst, 64 * KIB, block)) {
        fprintf(stderr, "limits_bench: no memory for 2 x %zu bytes\n", block);
        return 0;
    }
    memset(src, 1, block);
    memset(dst, 2, block);
    int points = 0;
    unsigned seed = 0;
    for (size_t size = o->min_size; size <= o->max_size; size *= 2) {
        seed++;
        for (size_t i = 0; i < size; i++)
            src[i] = (char)(i * 7u + seed * 13u + 1u);
        /* Warm up in doubling chunks until a quarter of --max-time; the
         * last chunk gives the cost of one copy. */
        long iters = (long)((size_t)1024 * MIB / size);
        if (iters > 1000000)
            iters = 1000000;
        if (iters < 20)
            iters = 20;
        double per = 0.0, spent = 0.0;
        for (long chunk = 1; chunk <= iters; chunk *= 2) {
            double t0 = now_sec();
            copy_n(dst, src, size, chunk);
            double dt = now_sec() - t0;
            spent += dt;
            per = dt / (double)chunk;
            if (o->max_time > 0 && spent > o->max_time / 4 && chunk > 1)
                break;
        }
        if (o->max_time > 0 && per > 0 && per * (double)iters > o->max_time) {
            iters = (long)(o->max_time / per);
            if (iters < 4)
                iters = 4;
        }
        /* The timed copies in CHUNKS chunks; the median chunk decides, so
         * that a preempted chunk on a shared machine does not. */
        long step = iters / CHUNKS < 1 ? 1 : iters / CHUNKS;
        double chunk_sec[CHUNKS];
        for (int k = 0; k < CHUNKS; k++) {
            double t0 = now_sec();
            copy_n(dst, src, size, step);
            chunk_sec[k] = now_sec() - t0;
        }
        qsort(chunk_sec, CHUNKS, sizeof chunk_sec[0], cmp_double);
        double elapsed = (chunk_sec[CHUNKS / 2 - 1] + chunk_sec[CHUNKS / 2]) / 2;
        iters = step; /* per chunk, for the rate below */
        if (o->check && memcmp(dst, src, size) != 0) {
            fprintf(stderr, "limits_bench: VERIFY FAILED: memcpy_bw size %zu\n", size);
            (*failures)++;
        }
        printf("memcpy_bw,%zu,%.2f,MB/s,%ld\n", size, (double)size * (double)iters / elapsed / 1e6,
               iters * CHUNKS);
        fflush(stdout);
        points++;
        if (size > o->max_size / 2)
            break;
    }
    free(src);
    free(dst);
    return points;
}

/* ---- cacheline_rtt -------------------------------------------------------- */

struct pingpong {
    _Alignas(LINE) _Atomic long word; /* the bounced line */
    char pad[LINE - sizeof(long)];
    int cpu;
    int pin_error;
    long bad; /* answers that were not count + 1 */
};

/* Thread B: answer every odd count c with c + 1 (c must be the one after
 * the previous answer), until A stores -1. */
static void *answer(void *arg)
{
    struct pingpong *p = arg;
    p->pin_error = pin_self(p->cpu);
    long want = 1;
    for (;;) {
        long v = atomic_load_explicit(&p->word, memory_order_acquire);
        if (v == -1)
            break;
        if (v & 1) {
            if (v != want)
                p->bad++;
            atomic_store_explicit(&p->word, v + 1, memory_order_release);
            want = v + 2;
        }
    }
    return NULL;
}

/* Thread A: n round trips starting after count `from` (even). */
static void ping(struct pingpong *p, long from, long n)
{
    for (long c = from + 1; c < from + 2 * n; c += 2) {
        atomic_store_explicit(&p->word, c, memory_order_release);
        while (atomic_load_explicit(&p->word, memory_order_acquire) != c + 1)
            ;
    }
}

static int run_cacheline(const struct options *o, const int *cpu, int ncpu, int *failures)
{
    if (ncpu < 2) {
        fprintf(stderr, "limits_bench: cacheline_rtt skipped: only %d CPU allowed\n", ncpu);
        return 0;
    }
    static struct pingpong p;
    long total = o->rtt_iters;
    long warm = total / 20 < 1000 ? 1000 : total / 20;
    atomic_store(&p.word, 0);
    p.cpu = cpu[1];
    p.bad = 0;
    if (pin_self(cpu[0]) != 0)
        fprintf(stderr, "limits_bench: warning: could not pin to CPU %d\n", cpu[0]);
    pthread_t th;
    if (pthread_create(&th, NULL, answer, &p) != 0) {
        fprintf(stderr, "limits_bench: pthread_create failed\n");
        return 0;
    }
    double t0 = now_sec();
    ping(&p, 0, warm);
    double per = (now_sec() - t0) / (double)warm;
    long n = total;
    if (o->max_time > 0 && per * (double)n > 20 * o->max_time) {
        n = (long)(20 * o->max_time / per);
        if (n < CHUNKS * 100)
            n = CHUNKS * 100;
        if (n > total)
            n = total;
    }
    long step = n / CHUNKS, done = warm;
    double chunk_us[CHUNKS];
    for (int k = 0; k < CHUNKS; k++) {
        double c0 = now_sec();
        ping(&p, 2 * done, step);
        chunk_us[k] = (now_sec() - c0) * 1e6 / (double)step;
        done += step;
    }
    atomic_store_explicit(&p.word, -1, memory_order_release); /* B stops */
    pthread_join(th, NULL);
    if (p.pin_error)
        fprintf(stderr, "limits_bench: warning: could not pin the second thread to CPU %d\n",
                cpu[1]);
    if (o->check && p.bad) {
        fprintf(stderr, "limits_bench: VERIFY FAILED: cacheline_rtt: %ld unexpected counts\n",
                p.bad);
        (*failures)++;
    }
    qsort(chunk_us, CHUNKS, sizeof chunk_us[0], cmp_double);
    double rtt = (chunk_us[CHUNKS / 2 - 1] + chunk_us[CHUNKS / 2]) / 2;
    fprintf(stderr, "limits_bench: cache line bounced between CPUs %d and %d\n", cpu[0], cpu[1]);
    printf("cacheline_rtt,%d,%.4f,us,%ld\n", LINE, rtt, step * CHUNKS);
    printf("cacheline_oneway,%d,%.4f,us,%ld\n", LINE, rtt / 2, step * CHUNKS);
    fflush(stdout);
    return 2;
}

int main(int argc, char **argv)
{
    struct options o;
    int pa = parse_args(argc, argv, &o);
    if (pa != 0)
        return pa < 0 ? 2 : 0;
    int cpu[2];
    int ncpu = allowed_cpus(cpu, 2);
    int failures = 0, points = 0;
    printf("test,size,value,unit,iters\n");
    fflush(stdout);
    if (o.memcpy_bw) {
        if (ncpu > 0 && pin_self(cpu[0]) != 0)
            fprintf(stderr, "limits_bench: warning: could not pin to CPU %d\n", cpu[0]);
        points += run_memcpy(&o, &failures);
    }
    if (o.cacheline)
        points += run_cacheline(&o, cpu, ncpu, &failures);
    fprintf(stderr, "limits_bench: done: %d points, %d failed verification\n", points, failures);
    return failures ? 1 : 0;
}
