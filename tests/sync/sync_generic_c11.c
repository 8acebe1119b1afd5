/* The C11 type-generic names of the synchronization and signaling routines of <shmem.h>,
 * compiled as C11 (the _Generic macros exist only there), for every type of the
 * synchronization table and short / unsigned short (stamped out of core/types/type_tables.def);
 * values are in place beforehand, so no call blocks. Signals: put_signal[_nbi] with and without a
 * context, aimed at the calling PE, and signal_add / signal_set with and without a context. Called
 * from sync_wait_test.cpp; returns the number of failed checks. */
#include <shmem.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "type_tables.def"

#if !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L
#error "sync_generic_c11.c must be compiled as C11 or later"
#endif

#define C11_CHECK(cond)                                                                      \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      printf("[PE %d] C11 generic, line %d: %s is false\n", shmem_my_pe(), __LINE__, #cond); \
      fflush(stdout);                                                                        \
      ++bad;                                                                                 \
    }                                                                                        \
  } while (0)

#define C11_VARS(TN, T) static T c11_##TN[2];
SMA_SYNC_TYPES(C11_VARS)
SMA_SYNC_DEPRECATED_TYPES(C11_VARS) /* short, unsigned short: as in Sandia OpenSHMEM (issue 17) */
#undef C11_VARS

#define C11_SYNC(TN, T)                                                                  \
  {                                                                                      \
    T *v = c11_##TN;                                                                     \
    T refs[2] = {(T)3, (T)4};                                                            \
    size_t idx[2];                                                                       \
    v[0] = (T)3;                                                                         \
    v[1] = (T)4;                                                                         \
    shmem_wait_until(&v[0], SHMEM_CMP_EQ, (T)3);                                         \
    C11_CHECK(shmem_test(&v[1], SHMEM_CMP_GT, (T)3) == 1);                               \
    shmem_wait_until_all(v, 2, NULL, SHMEM_CMP_GE, (T)3);                                \
    C11_CHECK(shmem_wait_until_any(v, 2, NULL, SHMEM_CMP_EQ, (T)4) == 1);                \
    C11_CHECK(shmem_wait_until_some(v, 2, idx, NULL, SHMEM_CMP_LT, (T)5) == 2);          \
    shmem_wait_until_all_vector(v, 2, NULL, SHMEM_CMP_EQ, refs);                         \
    C11_CHECK(shmem_wait_until_any_vector(v, 2, NULL, SHMEM_CMP_EQ, refs) < 2);          \
    C11_CHECK(shmem_wait_until_some_vector(v, 2, idx, NULL, SHMEM_CMP_LE, refs) == 2);   \
    C11_CHECK(shmem_test_all(v, 2, NULL, SHMEM_CMP_NE, (T)0) == 1);                      \
    C11_CHECK(shmem_test_any(v, 2, NULL, SHMEM_CMP_LT, (T)3) == SIZE_MAX);               \
    C11_CHECK(shmem_test_some(v, 2, idx, NULL, SHMEM_CMP_EQ, (T)4) == 1 && idx[0] == 1); \
    C11_CHECK(shmem_test_all_vector(v, 2, NULL, SHMEM_CMP_GE, refs) == 1);               \
    C11_CHECK(shmem_test_any_vector(v, 2, NULL, SHMEM_CMP_GT, refs) == SIZE_MAX);        \
    C11_CHECK(shmem_test_some_vector(v, 2, idx, NULL, SHMEM_CMP_NE, refs) == 0);         \
  }

static long c11_dest[4];
static uint64_t c11_sig;

int shoal_sync_c11_generic_tests(void) {
  int bad = 0;
  const int me = shmem_my_pe();
  SMA_SYNC_TYPES(C11_SYNC)
  SMA_SYNC_DEPRECATED_TYPES(C11_SYNC)

  const long src[4] = {1, 2, 3, 4};
  c11_sig = 0;
  shmem_put_signal(c11_dest, src, 4, &c11_sig, 1, SHMEM_SIGNAL_ADD, me);
  shmem_put_signal(SHMEM_CTX_DEFAULT, c11_dest, src, 4, &c11_sig, 1, SHMEM_SIGNAL_ADD, me);
  shmem_put_signal_nbi(c11_dest, src, 4, &c11_sig, 1, SHMEM_SIGNAL_ADD, me);
  shmem_put_signal_nbi(SHMEM_CTX_DEFAULT, c11_dest, src, 4, &c11_sig, 1, SHMEM_SIGNAL_ADD, me);
  shmem_quiet();
  C11_CHECK(shmem_signal_wait_until(&c11_sig, SHMEM_CMP_EQ, 4) == 4);
  C11_CHECK(c11_dest[3] == 4);
  shmem_signal_add(&c11_sig, 10, me);
  shmem_signal_add(SHMEM_CTX_DEFAULT, &c11_sig, 100, me);
  C11_CHECK(shmem_signal_fetch(&c11_sig) == 114);
  shmem_signal_set(&c11_sig, 7, me);
  C11_CHECK(shmem_signal_fetch(&c11_sig) == 7);
  shmem_signal_set(SHMEM_CTX_DEFAULT, &c11_sig, 8, me);
  C11_CHECK(shmem_signal_fetch(&c11_sig) == 8);
  return bad;
}
