/*
 * bench_shmem.h: what the SHMEM benchmarks share beyond bench_common.h (which
 * limits_bench, with no SHMEM, uses too): starting the library at the thread
 * level of --thread-level, and the context of --ctx.  Plain C, header-only.
 */
#ifndef SHOAL_BENCH_SHMEM_H
#define SHOAL_BENCH_SHMEM_H

#include "bench_common.h"
#include <shmem.h>

#include <stdio.h>

/* Starts the library at the thread level the command line asks for (wants_thread_multiple);
 * returns 0, or -1 when SHMEM_THREAD_MULTIPLE was asked for and not provided. */
static inline int start_library(int argc, char **argv)
{
    if (!wants_thread_multiple(argc, argv)) {
        shmem_init();
        return 0;
    }
    int provided = -1;
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    if (provided == SHMEM_THREAD_MULTIPLE)
        return 0;
    if (shmem_my_pe() == 0)
        fprintf(stderr, "--thread-level multiple: the library provided thread level %d\n",
                provided);
    return -1;
}

/* The context of --ctx: SHMEM_CTX_DEFAULT or a new one; 0, or -1 when it cannot be made. */
static inline int make_ctx(int kind, shmem_ctx_t *ctx)
{
    *ctx = SHMEM_CTX_DEFAULT;
    if (kind == CTX_DEFAULT)
        return 0;
    const long options = kind == CTX_PRIVATE      ? SHMEM_CTX_PRIVATE
                         : kind == CTX_SERIALIZED ? SHMEM_CTX_SERIALIZED
                                                  : 0;
    if (shmem_ctx_create(options, ctx) == 0)
        return 0;
    if (shmem_my_pe() == 0)
        fprintf(stderr, "--ctx: shmem_ctx_create failed\n");
    return -1;
}

#endif /* SHOAL_BENCH_SHMEM_H */
