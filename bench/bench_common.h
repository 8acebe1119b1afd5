/*
 * bench_common.h: the small helpers every benchmark of bench/ shares (a clock,
 * option parsing, a median).  Plain C and header-only, so each benchmark stays
 * one source file that any OpenSHMEM implementation's oshcc can build.
 */
#ifndef SHOAL_BENCH_COMMON_H
#define SHOAL_BENCH_COMMON_H

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KIB ((size_t)1024)
#define MIB (KIB * KIB)

static inline double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A byte count such as 64, 8K, 4M, 16KiB; 0 and negative values are errors. */
static inline int parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || s[0] == '-')
        return -1;
    if (*end == 'k' || *end == 'K') {
        v *= KIB;
        end++;
    } else if (*end == 'm' || *end == 'M') {
        v *= MIB;
        end++;
    }
    if (*end == 'i' || *end == 'I')
        end++; /* accept KiB / MiB */
    if (*end == 'b' || *end == 'B')
        end++;
    if (*end != '\0' || v == 0)
        return -1;
    *out = (size_t)v;
    return 0;
}

/* A whole number >= min. */
static inline int parse_long(const char *s, long min, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < min)
        return -1;
    *out = v;
    return 0;
}

/* Where the benchmarks' symmetric objects live: the symmetric heap (shmem_malloc/shmem_align)
 * or a static (global) array in the data segment, which OpenSHMEM also makes symmetric. */
enum target_kind { TARGET_HEAP, TARGET_GLOBAL };

static inline int parse_target(const char *s, int *out)
{
    if (strcmp(s, "heap") == 0) {
        *out = TARGET_HEAP;
        return 0;
    }
    if (strcmp(s, "global") == 0) {
        *out = TARGET_GLOBAL;
        return 0;
    }
    return -1;
}

/* Which context the timed operations use (--ctx): SHMEM_CTX_DEFAULT, or one the benchmark
 * creates, private (SHMEM_CTX_PRIVATE: only the creating thread uses it), shared (options 0)
 * or serialized (SHMEM_CTX_SERIALIZED: one thread at a time). */
enum ctx_kind { CTX_DEFAULT, CTX_PRIVATE, CTX_SHARED, CTX_SERIALIZED };

static inline int parse_ctx(const char *s, int *out)
{
    static const char *const names[] = {"default", "private", "shared", "serialized"};
    for (int k = 0; k < 4; k++)
        if (strcmp(s, names[k]) == 0) {
            *out = k;
            return 0;
        }
    return -1;
}

/* The thread level to start the library with: --thread-level multiple asks for
 * SHMEM_THREAD_MULTIPLE (as a hybrid program with threads would), anything else the plain
 * shmem_init.  Read before shmem_init, so from argv directly; parse_args accepts the option. */
static inline int wants_thread_multiple(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--thread-level=multiple") == 0)
            return 1;
        if (strcmp(argv[i], "--thread-level") == 0 && i + 1 < argc &&
            strcmp(argv[i + 1], "multiple") == 0)
            return 1;
    }
    return 0;
}

static inline int parse_thread_level(const char *s)
{
    return strcmp(s, "single") == 0 || strcmp(s, "multiple") == 0 ? 0 : -1;
}

/* The options putget_bench and amo_bench share: 'g' (--target), 'c' (--ctx) and 'L'
 * (--thread-level).  Returns 1 when c is one of them (with *bad set to a message when its value
 * is bad), 0 otherwise. */
static inline int parse_target_and_ctx_option(int c, const char *arg, int *target, int *ctx,
                                              const char **bad)
{
    switch (c) {
    case 'g':
        if (parse_target(arg, target))
            *bad = "bad value for --target (heap or global)";
        return 1;
    case 'c':
        if (parse_ctx(arg, ctx))
            *bad = "bad value for --ctx (default, private, shared or serialized)";
        return 1;
    case 'L':
        if (parse_thread_level(arg))
            *bad = "bad value for --thread-level (single or multiple)";
        return 1;
    }
    return 0;
}

/* A comma-separated list of names[0..n) or 'all' into the flags selected[0..n). */
static inline int parse_tests(const char *list, const char *const *names, int n, int *selected)
{
    char buf[256];
    if (strlen(list) >= sizeof buf)
        return -1;
    strcpy(buf, list);
    memset(selected, 0, (size_t)n * sizeof *selected);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "all") == 0) {
            for (int t = 0; t < n; t++)
                selected[t] = 1;
            continue;
        }
        int found = 0;
        for (int t = 0; t < n; t++)
            if (strcmp(tok, names[t]) == 0) {
                selected[t] = 1;
                found = 1;
            }
        if (!found)
            return -1;
    }
    return 0;
}

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0..n) (sorts them), n > 0. */
static inline double median(double *v, long n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The timed iterations of one point, run as up to TIMED_CHUNKS chunks of
 * consecutive iterations: returns the median chunk's seconds per iteration
 * times iters.  The machine is shared, so a chunk that was preempted must
 * not decide the point.  run(ctx, n) runs n iterations. */
#define TIMED_CHUNKS 16L
static inline double time_in_chunks(void (*run)(void *ctx, long n), void *ctx, long iters)
{
    double per_iter[TIMED_CHUNKS];
    long chunks = iters < TIMED_CHUNKS ? iters : TIMED_CHUNKS;
    long left = iters;
    for (long c = 0; c < chunks; c++) {
        long n = left / (chunks - c);
        double t0 = now_sec();
        run(ctx, n);
        per_iter[c] = (now_sec() - t0) / (double)n;
        left -= n;
    }
    return median(per_iter, chunks) * (double)iters;
}

#endif /* SHOAL_BENCH_COMMON_H */
