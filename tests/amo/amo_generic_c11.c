/* The C11 type-generic AMO names of <shmem.h>, compiled as C11 (the _Generic macros exist only
 * there), for every type of every AMO table, stamped out of core/types/type_tables.def. Every
 * generic name is called with and without a context, aimed at the calling PE and at the next
 * PE. Called from amo_generic_test.cpp (collective: every PE runs the same sequence).
 *
 * Each family uses the array c11_<TYPENAME> = {guard, slot, guard, slot, guard}: slot 1 is the
 * target of this PE's own calls, slot 3 the target of the previous PE's. Fixed-width, size_t and
 * ptrdiff_t arguments reach the routine of the builtin type they alias (for int32_t / int64_t in
 * the bitwise names, through the nested default association). */
#include <shmem.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "type_tables.def"

#if !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L
#error "amo_generic_c11.c must be compiled as C11 or later"
#endif

static int g_me, g_right, g_left;

static void report(const char *type, const char *what, int line, const void *got, const void *want,
                   size_t size) {
  unsigned long long g = 0, w = 0;
  memcpy(&g, got, size);
  memcpy(&w, want, size);
  printf("[PE %d] C11 generic, %s, line %d: %s: got 0x%llx, expected 0x%llx\n", g_me, type, line,
         what, g, w);
  fflush(stdout);
}

#define C11_EXPECT(T, got, want, what)                      \
  do {                                                      \
    T got_ = (got), want_ = (want);                         \
    if (memcmp(&got_, &want_, sizeof(T)) != 0) {            \
      report(#T, what, __LINE__, &got_, &want_, sizeof(T)); \
      ++*bad;                                               \
    }                                                       \
  } while (0)

#define C11_ARRAY(TN, T) static T c11_##TN[5] = {(T)1, (T)1, (T)1, (T)1, (T)1};
SMA_AMO_STANDARD_TYPES(C11_ARRAY)
SMA_AMO_EXTENDED_ONLY_TYPES(C11_ARRAY)
#undef C11_ARRAY

/* fetch, set, swap and their ctx / nbi forms; the slot holds 10 on entry. */
#define C11_EXTENDED(TN, T)                                                                        \
  static T extended_##TN(T *p, int t, int *bad) {                                                  \
    const T *cp = p;                                                                               \
    T f = (T)0;                                                                                    \
    C11_EXPECT(T, shmem_atomic_fetch(p, t), (T)10, "shmem_atomic_fetch");                          \
    C11_EXPECT(T, shmem_atomic_fetch(cp, t), (T)10, "shmem_atomic_fetch(const)");                  \
    C11_EXPECT(T, shmem_atomic_fetch(SHMEM_CTX_DEFAULT, cp, t), (T)10, "shmem_atomic_fetch(ctx)"); \
    shmem_atomic_set(p, (T)20, t);                                                                 \
    shmem_quiet();                                                                                 \
    C11_EXPECT(T, shmem_atomic_fetch(p, t), (T)20, "shmem_atomic_set");                            \
    shmem_atomic_set(SHMEM_CTX_DEFAULT, p, (T)21, t);                                              \
    shmem_ctx_quiet(SHMEM_CTX_DEFAULT);                                                            \
    C11_EXPECT(T, shmem_atomic_swap(p, (T)22, t), (T)21, "shmem_atomic_swap");                     \
    C11_EXPECT(T, shmem_atomic_swap(SHMEM_CTX_DEFAULT, p, (T)23, t), (T)22,                        \
               "shmem_atomic_swap(ctx)");                                                          \
    shmem_atomic_fetch_nbi(&f, cp, t);                                                             \
    shmem_quiet();                                                                                 \
    C11_EXPECT(T, f, (T)23, "shmem_atomic_fetch_nbi");                                             \
    f = (T)0;                                                                                      \
    shmem_atomic_fetch_nbi(SHMEM_CTX_DEFAULT, &f, cp, t);                                          \
    shmem_ctx_quiet(SHMEM_CTX_DEFAULT);                                                            \
    C11_EXPECT(T, f, (T)23, "shmem_atomic_fetch_nbi(ctx)");                                        \
    shmem_atomic_swap_nbi(&f, p, (T)24, t);                                                        \
    shmem_quiet();                                                                                 \
    C11_EXPECT(T, f, (T)23, "shmem_atomic_swap_nbi");                                              \
    shmem_atomic_swap_nbi(SHMEM_CTX_DEFAULT, &f, p, (T)25, t);                                     \
    shmem_ctx_quiet(SHMEM_CTX_DEFAULT);                                                            \
    C11_EXPECT(T, f, (T)24, "shmem_atomic_swap_nbi(ctx)");                                         \
    return (T)25;                                                                                  \
  }

/* compare_swap, fetch_inc, inc, fetch_add, add and their ctx / nbi forms. */
#define C11_STANDARD(TN, T)                                                                \
  static T standard_##TN(T *p, int t, int *bad) {                                          \
    T f = (T)0;                                                                            \
    C11_EXPECT(T, shmem_atomic_compare_swap(p, (T)0, (T)1, t), (T)10,                      \
               "shmem_atomic_compare_swap (fails)");                                       \
    C11_EXPECT(T, shmem_atomic_compare_swap(p, (T)10, (T)30, t), (T)10,                    \
               "shmem_atomic_compare_swap");                                               \
    C11_EXPECT(T, shmem_atomic_compare_swap(SHMEM_CTX_DEFAULT, p, (T)30, (T)31, t), (T)30, \
               "shmem_atomic_compare_swap(ctx)");                                          \
    shmem_atomic_compare_swap_nbi(&f, p, (T)31, (T)32, t);                                 \
    shmem_quiet();                                                                         \
    C11_EXPECT(T, f, (T)31, "shmem_atomic_compare_swap_nbi");                              \
    shmem_atomic_compare_swap_nbi(SHMEM_CTX_DEFAULT, &f, p, (T)32, (T)33, t);              \
    shmem_ctx_quiet(SHMEM_CTX_DEFAULT);                                                    \
    C11_EXPECT(T, f, (T)32, "shmem_atomic_compare_swap_nbi(ctx)");                         \
    C11_EXPECT(T, shmem_atomic_fetch_inc(p, t), (T)33, "shmem_atomic_fetch_inc");          \
    C11_EXPECT(T, shmem_atomic_fetch_inc(SHMEM_CTX_DEFAULT, p, t), (T)34,                  \
               "shmem_atomic_fetch_inc(ctx)");                                             \
    shmem_atomic_inc(p, t);                                                                \
    shmem_atomic_inc(SHMEM_CTX_DEFAULT, p, t);                                             \
    shmem_quiet();                                                                         \
    shmem_atomic_fetch_inc_nbi(&f, p, t);                                                  \
    shmem_quiet();                                                                         \
    C11_EXPECT(T, f, (T)37, "shmem_atomic_fetch_inc_nbi after shmem_atomic_inc");          \
    shmem_atomic_fetch_inc_nbi(SHMEM_CTX_DEFAULT, &f, p, t);                               \
    shmem_ctx_quiet(SHMEM_CTX_DEFAULT);                                                    \
    C11_EXPECT(T, f, (T)38, "shmem_atomic_fetch_inc_nbi(ctx)");                            \
    C11_EXPECT(T, shmem_atomic_fetch_add(p, (T)5, t), (T)39, "shmem_atomic_fetch_add");    \
    C11_EXPECT(T, shmem_atomic_fetch_add(SHMEM_CTX_DEFAULT, p, (T)5, t), (T)44,            \
               "shmem_atomic_fetch_add(ctx)");                                             \
    shmem_atomic_add(p, (T)5, t);                                                          \
    shmem_atomic_add(SHMEM_CTX_DEFAULT, p, (T)5, t);                                       \
    shmem_quiet();                                                                         \
    shmem_atomic_fetch_add_nbi(&f, p, (T)1, t);                                            \
    shmem_quiet();                                                                         \
    C11_EXPECT(T, f, (T)59, "shmem_atomic_fetch_add_nbi after shmem_atomic_add");          \
    shmem_atomic_fetch_add_nbi(SHMEM_CTX_DEFAULT, &f, p, (T)1, t);                         \
    shmem_ctx_quiet(SHMEM_CTX_DEFAULT);                                                    \
    C11_EXPECT(T, f, (T)60, "shmem_atomic_fetch_add_nbi(ctx)");                            \
    return (T)61;                                                                          \
  }

/* fetch_and, and, fetch_or, or, fetch_xor, xor and their ctx / nbi forms. */
#define C11_BITWISE(TN, T)                                                                    \
  static T bitwise_##TN(T *p, int t, int *bad) {                                              \
    T f = (T)0;                                                                               \
    C11_EXPECT(T, shmem_atomic_fetch_or(p, (T)0xF0, t), (T)0x0A, "shmem_atomic_fetch_or");    \
    C11_EXPECT(T, shmem_atomic_fetch_or(SHMEM_CTX_DEFAULT, p, (T)0x100, t), (T)0xFA,          \
               "shmem_atomic_fetch_or(ctx)");                                                 \
    C11_EXPECT(T, shmem_atomic_fetch_and(p, (T)0xF0, t), (T)0x1FA, "shmem_atomic_fetch_and"); \
    C11_EXPECT(T, shmem_atomic_fetch_and(SHMEM_CTX_DEFAULT, p, (T)0x30, t), (T)0xF0,          \
               "shmem_atomic_fetch_and(ctx)");                                                \
    C11_EXPECT(T, shmem_atomic_fetch_xor(p, (T)0x11, t), (T)0x30, "shmem_atomic_fetch_xor");  \
    C11_EXPECT(T, shmem_atomic_fetch_xor(SHMEM_CTX_DEFAULT, p, (T)0x01, t), (T)0x21,          \
               "shmem_atomic_fetch_xor(ctx)");                                                \
    shmem_atomic_and(p, (T)0x2F, t);                                                          \
    shmem_atomic_and(SHMEM_CTX_DEFAULT, p, (T)0xFF, t);                                       \
    shmem_atomic_or(p, (T)0x01, t);                                                           \
    shmem_atomic_or(SHMEM_CTX_DEFAULT, p, (T)0x40, t);                                        \
    shmem_atomic_xor(p, (T)0x01, t);                                                          \
    shmem_atomic_xor(SHMEM_CTX_DEFAULT, p, (T)0x0F, t);                                       \
    shmem_quiet();                                                                            \
    C11_EXPECT(T, shmem_atomic_fetch(p, t), (T)0x6F, "shmem_atomic_{and,or,xor}");            \
    shmem_atomic_fetch_and_nbi(&f, p, (T)0x0F, t);                                            \
    shmem_quiet();                                                                            \
    C11_EXPECT(T, f, (T)0x6F, "shmem_atomic_fetch_and_nbi");                                  \
    shmem_atomic_fetch_and_nbi(SHMEM_CTX_DEFAULT, &f, p, (T)0x07, t);                         \
    shmem_ctx_quiet(SHMEM_CTX_DEFAULT);                                                       \
    C11_EXPECT(T, f, (T)0x0F, "shmem_atomic_fetch_and_nbi(ctx)");                             \
    shmem_atomic_fetch_or_nbi(&f, p, (T)0x80, t);                                             \
    shmem_quiet();                                                                            \
    C11_EXPECT(T, f, (T)0x07, "shmem_atomic_fetch_or_nbi");                                   \
    shmem_atomic_fetch_or_nbi(SHMEM_CTX_DEFAULT, &f, p, (T)0x100, t);                         \
    shmem_ctx_quiet(SHMEM_CTX_DEFAULT);                                                       \
    C11_EXPECT(T, f, (T)0x87, "shmem_atomic_fetch_or_nbi(ctx)");                              \
    shmem_atomic_fetch_xor_nbi(&f, p, (T)0x01, t);                                            \
    shmem_quiet();                                                                            \
    C11_EXPECT(T, f, (T)0x187, "shmem_atomic_fetch_xor_nbi");                                 \
    shmem_atomic_fetch_xor_nbi(SHMEM_CTX_DEFAULT, &f, p, (T)0x06, t);                         \
    shmem_ctx_quiet(SHMEM_CTX_DEFAULT);                                                       \
    C11_EXPECT(T, f, (T)0x186, "shmem_atomic_fetch_xor_nbi(ctx)");                            \
    return (T)0x180;                                                                          \
  }

/* Deprecated generic names: shmem_fetch, shmem_set, shmem_swap ... */
#define C11_DEPRECATED_EXTENDED(TN, T)                                      \
  static T deprecated_extended_##TN(T *p, int t, int *bad) {                \
    const T *cp = p;                                                        \
    C11_EXPECT(T, shmem_fetch(cp, t), (T)10, "shmem_fetch");                \
    shmem_set(p, (T)20, t);                                                 \
    shmem_quiet();                                                          \
    C11_EXPECT(T, shmem_fetch(p, t), (T)20, "shmem_fetch after shmem_set"); \
    C11_EXPECT(T, shmem_swap(p, (T)21, t), (T)20, "shmem_swap");            \
    return (T)21;                                                           \
  }
/* ... and shmem_cswap, shmem_finc, shmem_inc, shmem_fadd, shmem_add. */
#define C11_DEPRECATED_STANDARD(TN, T)                                           \
  static T deprecated_standard_##TN(T *p, int t, int *bad) {                     \
    C11_EXPECT(T, shmem_cswap(p, (T)10, (T)30, t), (T)10, "shmem_cswap");        \
    C11_EXPECT(T, shmem_cswap(p, (T)10, (T)0, t), (T)30, "shmem_cswap (fails)"); \
    C11_EXPECT(T, shmem_finc(p, t), (T)30, "shmem_finc");                        \
    shmem_inc(p, t);                                                             \
    shmem_quiet();                                                               \
    C11_EXPECT(T, shmem_fadd(p, (T)3, t), (T)32, "shmem_fadd after shmem_inc");  \
    shmem_add(p, (T)6, t);                                                       \
    shmem_quiet();                                                               \
    C11_EXPECT(T, shmem_fetch(p, t), (T)41, "shmem_fetch after shmem_add");      \
    return (T)41;                                                                \
  }

/* The untyped long swap as a function (the name is also a generic macro in C11). */
static long untyped_swap_long(long *p, int t, int *bad) {
  C11_EXPECT(long, (shmem_swap)(p, 20L, t), 10L, "shmem_swap called as a function");
  C11_EXPECT(long, (shmem_swap)(p, 21L, t), 20L, "shmem_swap called as a function (2)");
  return 21L;
}

/* Runs one family on c11_<TN>: reset (slots 10, guards 99), this PE's calls on its own slot 1
 * and on slot 3 of the next PE, then checks this PE's array. Returns the number of failures. */
#define C11_RUN(FAMILY, TN, T)                                                      \
  static int run_##FAMILY##_##TN(void) {                                            \
    int failures = 0, *bad = &failures;                                             \
    T *a = c11_##TN;                                                                \
    a[0] = a[2] = a[4] = (T)99;                                                     \
    a[1] = a[3] = (T)10;                                                            \
    shmem_barrier_all();                                                            \
    const T fin = FAMILY(&a[1], g_me, bad);                                         \
    const T fin_next = FAMILY(&a[3], g_right, bad);                                 \
    C11_EXPECT(T, fin_next, fin, "the same sequence ends alike on both targets");   \
    shmem_quiet();                                                                  \
    shmem_barrier_all();                                                            \
    C11_EXPECT(T, a[1], fin, #FAMILY ": value left on this PE by its own calls");   \
    C11_EXPECT(T, a[3], fin, #FAMILY ": value left on this PE by the previous PE"); \
    C11_EXPECT(T, a[0], (T)99, #FAMILY ": guard 0");                                \
    C11_EXPECT(T, a[2], (T)99, #FAMILY ": guard 2");                                \
    C11_EXPECT(T, a[4], (T)99, #FAMILY ": guard 4");                                \
    shmem_barrier_all();                                                            \
    return failures;                                                                \
  }

/* The bitwise family starts from 0x0A. */
#define C11_RUN_BITWISE(TN, T)                                                     \
  static int run_bitwise_##TN(void) {                                              \
    int failures = 0, *bad = &failures;                                            \
    T *a = c11_##TN;                                                               \
    a[0] = a[2] = a[4] = (T)99;                                                    \
    a[1] = a[3] = (T)0x0A;                                                         \
    shmem_barrier_all();                                                           \
    const T fin = bitwise_##TN(&a[1], g_me, bad);                                  \
    (void)bitwise_##TN(&a[3], g_right, bad);                                       \
    shmem_quiet();                                                                 \
    shmem_barrier_all();                                                           \
    C11_EXPECT(T, a[1], fin, "bitwise: value left on this PE by its own calls");   \
    C11_EXPECT(T, a[3], fin, "bitwise: value left on this PE by the previous PE"); \
    C11_EXPECT(T, a[0], (T)99, "bitwise: guard 0");                                \
    C11_EXPECT(T, a[2], (T)99, "bitwise: guard 2");                                \
    C11_EXPECT(T, a[4], (T)99, "bitwise: guard 4");                                \
    shmem_barrier_all();                                                           \
    return failures;                                                               \
  }

SMA_AMO_STANDARD_TYPES(C11_EXTENDED)
SMA_AMO_EXTENDED_ONLY_TYPES(C11_EXTENDED)
SMA_AMO_STANDARD_TYPES(C11_STANDARD)
SMA_AMO_BITWISE_TYPES(C11_BITWISE)
SMA_AMO_DEPRECATED_TYPES(C11_DEPRECATED_EXTENDED)
SMA_AMO_DEPRECATED_EXTENDED_ONLY_TYPES(C11_DEPRECATED_EXTENDED)
SMA_AMO_DEPRECATED_TYPES(C11_DEPRECATED_STANDARD)

#define C11_RUN_EXTENDED(TN, T) C11_RUN(extended_##TN, TN, T)
#define C11_RUN_STANDARD(TN, T) C11_RUN(standard_##TN, TN, T)
#define C11_RUN_DEPRECATED_EXTENDED(TN, T) C11_RUN(deprecated_extended_##TN, TN, T)
#define C11_RUN_DEPRECATED_STANDARD(TN, T) C11_RUN(deprecated_standard_##TN, TN, T)
SMA_AMO_STANDARD_TYPES(C11_RUN_EXTENDED)
SMA_AMO_EXTENDED_ONLY_TYPES(C11_RUN_EXTENDED)
SMA_AMO_STANDARD_TYPES(C11_RUN_STANDARD)
SMA_AMO_BITWISE_TYPES(C11_RUN_BITWISE)
SMA_AMO_DEPRECATED_TYPES(C11_RUN_DEPRECATED_EXTENDED)
SMA_AMO_DEPRECATED_EXTENDED_ONLY_TYPES(C11_RUN_DEPRECATED_EXTENDED)
SMA_AMO_DEPRECATED_TYPES(C11_RUN_DEPRECATED_STANDARD)
C11_RUN(untyped_swap_long, long, long)

int shoal_amo_c11_generic_tests(int *families_run) {
  int bad = 0, families = 0;
  g_me = shmem_my_pe();
  g_right = (g_me + 1) % shmem_n_pes();
  g_left = (g_me + shmem_n_pes() - 1) % shmem_n_pes();
#define C11_CALL(NAME) bad += NAME(), ++families;
#define C11_CALL_EXTENDED(TN, T) C11_CALL(run_extended_##TN##_##TN)
#define C11_CALL_STANDARD(TN, T) C11_CALL(run_standard_##TN##_##TN)
#define C11_CALL_BITWISE(TN, T) C11_CALL(run_bitwise_##TN)
#define C11_CALL_DEPRECATED_EXTENDED(TN, T) C11_CALL(run_deprecated_extended_##TN##_##TN)
#define C11_CALL_DEPRECATED_STANDARD(TN, T) C11_CALL(run_deprecated_standard_##TN##_##TN)
  SMA_AMO_STANDARD_TYPES(C11_CALL_EXTENDED)
  SMA_AMO_EXTENDED_ONLY_TYPES(C11_CALL_EXTENDED)
  SMA_AMO_STANDARD_TYPES(C11_CALL_STANDARD)
  SMA_AMO_BITWISE_TYPES(C11_CALL_BITWISE)
  SMA_AMO_DEPRECATED_TYPES(C11_CALL_DEPRECATED_EXTENDED)
  SMA_AMO_DEPRECATED_EXTENDED_ONLY_TYPES(C11_CALL_DEPRECATED_EXTENDED)
  SMA_AMO_DEPRECATED_TYPES(C11_CALL_DEPRECATED_STANDARD)
  C11_CALL(run_untyped_swap_long_long)
  (void)g_left;
  *families_run = families;
  return bad;
}
