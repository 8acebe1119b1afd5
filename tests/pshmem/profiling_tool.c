/* A minimal profiling tool built on the PSHMEM name-shifted interface: it intercepts
 * shmem_putmem and shmem_barrier_all, counts the calls and forwards them to
 * pshmem_putmem / pshmem_barrier_all. Linked before the OpenSHMEM library, its
 * definitions take precedence over the library's. */
#include <pshmem.h>
#include <shmem.h>

#include <stddef.h>

static long putmem_calls;
static long putmem_bytes;
static long barrier_all_calls;

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe) {
  ++putmem_calls;
  putmem_bytes += (long)nelems;
  pshmem_putmem(dest, source, nelems, pe);
}

void shmem_barrier_all(void) {
  ++barrier_all_calls;
  pshmem_barrier_all();
}

/* Counter getters for the test program. */
long shoal_tool_putmem_calls(void) { return putmem_calls; }
long shoal_tool_putmem_bytes(void) { return putmem_bytes; }
long shoal_tool_barrier_all_calls(void) { return barrier_all_calls; }
