"""Function shapes of the OpenSHMEM 1.6 C API, read by scripts/gen_api.py.

Each FAMILY groups the routines of one part of the specification; only families with
enabled=True are written to the public headers.  Flip a flag (and regenerate) once the
library implements the family.  `category` is the category column of the spec's symbol
inventory (api-c.txt), used by `gen_api.py --check-spec`.

Entries of a group:
  F(proto, ctx=False)                 one routine; ctx=True adds the shmem_ctx_ twin
  T(proto, types, ctx=False, generic=None)
                                      one routine per TYPENAME: `{T}` is replaced by the
                                      TYPENAME and the word TYPE by its C type; `generic`
                                      names the C11 _Generic macro / C++ overload set
  S(proto, sizes=..., mem=False, ctx=False)
                                      one routine per size: `{SIZE}` is replaced by the
                                      BITS column of SMA_RMA_SIZES (or the given subset),
                                      mem=True adds the `mem` (byte) form
  Alias(name, targets, default=None)  a generic name that dispatches on the type of its
                                      first argument (not on an element type), e.g.
                                      shmem_sync(team) -> shmem_team_sync

`types` is a tuple of table names of core/types/type_tables.def (SMA_...) and/or bare
TYPENAMEs; C types always come from the .def file.  The subsets given as bare TYPENAMEs
are deprecated names that have no table of their own in the specification.
"""

from collections import namedtuple

F = namedtuple("F", "proto ctx noreturn")
F.__new__.__defaults__ = (False, False)
T = namedtuple("T", "proto types ctx generic")
T.__new__.__defaults__ = (False, None)
S = namedtuple("S", "proto sizes mem ctx")
S.__new__.__defaults__ = ("SMA_RMA_SIZES", False, False)
Alias = namedtuple("Alias", "name targets default")
Alias.__new__.__defaults__ = (None,)
Group = namedtuple("Group", "title entries deprecated")
Group.__new__.__defaults__ = (None,)
Family = namedtuple("Family", "key category chapter enabled groups")

# ---- type sets -------------------------------------------------------------------------------

RMA = ("SMA_RMA_TYPES",)
AMO_STD = ("SMA_AMO_STANDARD_TYPES",)
AMO_EXT = ("SMA_AMO_STANDARD_TYPES", "SMA_AMO_EXTENDED_ONLY_TYPES")
AMO_BIT = ("SMA_AMO_BITWISE_TYPES",)
AMO_DEP = ("SMA_AMO_DEPRECATED_TYPES",)
AMO_DEP_EXT = ("SMA_AMO_DEPRECATED_TYPES", "SMA_AMO_DEPRECATED_EXTENDED_ONLY_TYPES")
SYNC = ("SMA_SYNC_TYPES",)
SYNC_WITH_DEP = ("SMA_SYNC_TYPES", "SMA_SYNC_DEPRECATED_TYPES")
RED_BIT = ("SMA_REDUCE_BITWISE_TYPES",)
RED_CMP = ("SMA_REDUCE_COMPARE_TYPES",)
RED_ARITH = ("SMA_REDUCE_COMPARE_TYPES", "SMA_REDUCE_ARITH_COMPLEX_TYPES")
# Deprecated sets without a table of their own in the specification.
WAIT_DEP = ("short", "int", "long", "longlong")              # shmem_TYPENAME_wait (1.0-1.3)
RED_BIT_SIGNED_DEP = ("SMA_REDUCE_BITWISE_SIGNED_DEPRECATED_TYPES",)  # 1.5 Table 9 erratum
TO_ALL_BIT = ("SMA_TO_ALL_INTEGER_TYPES",)                   # shmem_TYPENAME_{and,or,xor}_to_all
TO_ALL_CMP = ("SMA_TO_ALL_INTEGER_TYPES", "SMA_TO_ALL_FLOATING_TYPES")
TO_ALL_ARITH = TO_ALL_CMP + ("SMA_REDUCE_ARITH_COMPLEX_TYPES",)

ACTIVE_SET = "int PE_start, int logPE_stride, int PE_size"


def _amo(op, proto, types, nbi=False):
    return T(proto, types, ctx=True, generic="shmem_atomic_" + op + ("_nbi" if nbi else ""))


FAMILIES = [
    # ---------------------------------------------------------------------------------------
    Family("init", "init", "Library setup, exit, and query routines", True, [
        Group("Initialization, finalization and exit", [
            F("void shmem_init(void)"),
            F("int shmem_init_thread(int requested, int *provided)"),
            F("void shmem_finalize(void)"),
            F("void shmem_global_exit(int status)", noreturn=True),
        ]),
        Group("Legacy initialization", [
            F("void start_pes(int npes)"),
        ], deprecated="1.2"),
    ]),
    Family("query", "query", "Library query routines", True, [
        Group("PE and library queries", [
            F("int shmem_my_pe(void)"),
            F("int shmem_n_pes(void)"),
            F("int shmem_pe_accessible(int pe)"),
            F("int shmem_addr_accessible(const void *addr, int pe)"),
            F("void *shmem_ptr(const void *dest, int pe)"),
            F("void shmem_info_get_version(int *major, int *minor)"),
            F("void shmem_info_get_name(char *name)"),
            F("void shmem_query_thread(int *provided)"),
            F("void shmem_query_initialized(int *initialized)"),
        ]),
        Group("Legacy PE queries (my_pe/num_pes: SGI/Cray C names)", [
            F("int _my_pe(void)"),
            F("int _num_pes(void)"),
            F("int my_pe(void)"),
            F("int num_pes(void)"),
        ], deprecated="1.2"),
    ]),
    Family("query_team", "query", "Team pointer query", True, [
        Group("Local pointer to a symmetric object on a team PE", [
            F("void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe)"),
        ]),
    ]),
    # ---------------------------------------------------------------------------------------
    Family("memory", "memory", "Memory management routines", True, [
        Group("Symmetric heap allocation", [
            F("void *shmem_malloc(size_t size)"),
            F("void *shmem_malloc_with_hints(size_t size, long hints)"),
            F("void *shmem_calloc(size_t count, size_t size)"),
            F("void *shmem_align(size_t alignment, size_t size)"),
            F("void *shmem_realloc(void *ptr, size_t size)"),
            F("void shmem_free(void *ptr)"),
        ]),
        Group("Legacy symmetric heap allocation", [
            F("void *shmalloc(size_t size)"),
            F("void *shmemalign(size_t alignment, size_t size)"),
            F("void *shrealloc(void *ptr, size_t size)"),
            F("void shfree(void *ptr)"),
        ], deprecated="1.2"),
    ]),
    # ---------------------------------------------------------------------------------------
    Family("team", "team", "Team management routines", True, [
        Group("Team queries, splitting and destruction", [
            F("int shmem_team_my_pe(shmem_team_t team)"),
            F("int shmem_team_n_pes(shmem_team_t team)"),
            F("int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config)"),
            F("int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)"),
            F("int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size, "
              "const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team)"),
            F("int shmem_team_split_2d(shmem_team_t parent_team, int xrange, "
              "const shmem_team_config_t *xaxis_config, long xaxis_mask, shmem_team_t *xaxis_team, "
              "const shmem_team_config_t *yaxis_config, long yaxis_mask, shmem_team_t *yaxis_team)"),
            F("void shmem_team_destroy(shmem_team_t team)"),
        ]),
    ]),
    Family("ctx", "ctx", "Communication management routines", True, [
        Group("Contexts", [
            F("int shmem_ctx_create(long options, shmem_ctx_t *ctx)"),
            F("int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx)"),
            F("void shmem_ctx_destroy(shmem_ctx_t ctx)"),
            F("int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)"),
        ]),
        Group("Sessions", [
            F("void shmem_ctx_session_start(shmem_ctx_t ctx, long options, "
              "const shmem_ctx_session_config_t *config, long config_mask)"),
            F("void shmem_ctx_session_stop(shmem_ctx_t ctx)"),
        ]),
    ]),
    # ---------------------------------------------------------------------------------------
    Family("rma", "rma", "Remote memory access routines", True, [
        Group("Blocking contiguous put", [
            T("void shmem_{T}_put(TYPE *dest, const TYPE *source, size_t nelems, int pe)", RMA,
              ctx=True, generic="shmem_put"),
            S("void shmem_put{SIZE}(void *dest, const void *source, size_t nelems, int pe)",
              mem=True, ctx=True),
        ]),
        Group("Elemental put", [
            T("void shmem_{T}_p(TYPE *dest, TYPE value, int pe)", RMA, ctx=True, generic="shmem_p"),
        ]),
        Group("Strided put", [
            T("void shmem_{T}_iput(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, "
              "size_t nelems, int pe)", RMA, ctx=True, generic="shmem_iput"),
            S("void shmem_iput{SIZE}(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, "
              "size_t nelems, int pe)", ctx=True),
        ]),
        Group("Blocked strided put (1.6)", [
            T("void shmem_{T}_ibput(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, "
              "size_t bsize, size_t nblocks, int pe)", RMA, ctx=True, generic="shmem_ibput"),
            S("void shmem_ibput{SIZE}(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, "
              "size_t bsize, size_t nblocks, int pe)", ctx=True),
        ]),
        Group("Blocking contiguous get", [
            T("void shmem_{T}_get(TYPE *dest, const TYPE *source, size_t nelems, int pe)", RMA,
              ctx=True, generic="shmem_get"),
            S("void shmem_get{SIZE}(void *dest, const void *source, size_t nelems, int pe)",
              mem=True, ctx=True),
        ]),
        Group("Elemental get", [
            T("TYPE shmem_{T}_g(const TYPE *source, int pe)", RMA, ctx=True, generic="shmem_g"),
        ]),
        Group("Strided get", [
            T("void shmem_{T}_iget(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, "
              "size_t nelems, int pe)", RMA, ctx=True, generic="shmem_iget"),
            S("void shmem_iget{SIZE}(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, "
              "size_t nelems, int pe)", ctx=True),
        ]),
        Group("Blocked strided get (1.6)", [
            T("void shmem_{T}_ibget(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, "
              "size_t bsize, size_t nblocks, int pe)", RMA, ctx=True, generic="shmem_ibget"),
            S("void shmem_ibget{SIZE}(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, "
              "size_t bsize, size_t nblocks, int pe)", ctx=True),
        ]),
    ]),
    Family("rma_nbi", "rma_nbi", "Nonblocking remote memory access routines", True, [
        Group("Nonblocking contiguous put", [
            T("void shmem_{T}_put_nbi(TYPE *dest, const TYPE *source, size_t nelems, int pe)", RMA,
              ctx=True, generic="shmem_put_nbi"),
            S("void shmem_put{SIZE}_nbi(void *dest, const void *source, size_t nelems, int pe)",
              mem=True, ctx=True),
        ]),
        Group("Nonblocking contiguous get", [
            T("void shmem_{T}_get_nbi(TYPE *dest, const TYPE *source, size_t nelems, int pe)", RMA,
              ctx=True, generic="shmem_get_nbi"),
            S("void shmem_get{SIZE}_nbi(void *dest, const void *source, size_t nelems, int pe)",
              mem=True, ctx=True),
        ]),
    ]),
    # ---------------------------------------------------------------------------------------
    Family("amo", "amo", "Atomic memory operations", True, [
        Group("Atomic fetch", [
            _amo("fetch", "TYPE shmem_{T}_atomic_fetch(const TYPE *source, int pe)", AMO_EXT),
        ]),
        Group("Atomic set", [
            _amo("set", "void shmem_{T}_atomic_set(TYPE *dest, TYPE value, int pe)", AMO_EXT),
        ]),
        Group("Atomic compare and swap", [
            _amo("compare_swap", "TYPE shmem_{T}_atomic_compare_swap(TYPE *dest, TYPE cond, TYPE value, int pe)",
                 AMO_STD),
        ]),
        Group("Atomic swap", [
            _amo("swap", "TYPE shmem_{T}_atomic_swap(TYPE *dest, TYPE value, int pe)", AMO_EXT),
        ]),
        Group("Atomic fetch and increment", [
            _amo("fetch_inc", "TYPE shmem_{T}_atomic_fetch_inc(TYPE *dest, int pe)", AMO_STD),
        ]),
        Group("Atomic increment", [
            _amo("inc", "void shmem_{T}_atomic_inc(TYPE *dest, int pe)", AMO_STD),
        ]),
        Group("Atomic fetch and add", [
            _amo("fetch_add", "TYPE shmem_{T}_atomic_fetch_add(TYPE *dest, TYPE value, int pe)", AMO_STD),
        ]),
        Group("Atomic add", [
            _amo("add", "void shmem_{T}_atomic_add(TYPE *dest, TYPE value, int pe)", AMO_STD),
        ]),
        Group("Atomic fetch and bitwise and/or/xor", [
            _amo("fetch_and", "TYPE shmem_{T}_atomic_fetch_and(TYPE *dest, TYPE value, int pe)", AMO_BIT),
            _amo("fetch_or", "TYPE shmem_{T}_atomic_fetch_or(TYPE *dest, TYPE value, int pe)", AMO_BIT),
            _amo("fetch_xor", "TYPE shmem_{T}_atomic_fetch_xor(TYPE *dest, TYPE value, int pe)", AMO_BIT),
        ]),
        Group("Atomic bitwise and/or/xor", [
            _amo("and", "void shmem_{T}_atomic_and(TYPE *dest, TYPE value, int pe)", AMO_BIT),
            _amo("or", "void shmem_{T}_atomic_or(TYPE *dest, TYPE value, int pe)", AMO_BIT),
            _amo("xor", "void shmem_{T}_atomic_xor(TYPE *dest, TYPE value, int pe)", AMO_BIT),
        ]),
        Group("Legacy atomics (shmem_swap is the 1.0-1.2 long-typed C routine)", [
            T("TYPE shmem_{T}_fetch(const TYPE *source, int pe)", AMO_DEP_EXT, generic="shmem_fetch"),
            T("void shmem_{T}_set(TYPE *dest, TYPE value, int pe)", AMO_DEP_EXT, generic="shmem_set"),
            T("TYPE shmem_{T}_cswap(TYPE *dest, TYPE cond, TYPE value, int pe)", AMO_DEP, generic="shmem_cswap"),
            T("TYPE shmem_{T}_swap(TYPE *dest, TYPE value, int pe)", AMO_DEP_EXT, generic="shmem_swap"),
            F("long shmem_swap(long *dest, long value, int pe)"),
            T("TYPE shmem_{T}_finc(TYPE *dest, int pe)", AMO_DEP, generic="shmem_finc"),
            T("void shmem_{T}_inc(TYPE *dest, int pe)", AMO_DEP, generic="shmem_inc"),
            T("TYPE shmem_{T}_fadd(TYPE *dest, TYPE value, int pe)", AMO_DEP, generic="shmem_fadd"),
            T("void shmem_{T}_add(TYPE *dest, TYPE value, int pe)", AMO_DEP, generic="shmem_add"),
        ], deprecated="1.4"),
    ]),
    Family("amo_nbi", "amo_nbi", "Nonblocking atomic memory operations", True, [
        Group("Nonblocking fetching atomics", [
            _amo("fetch", "void shmem_{T}_atomic_fetch_nbi(TYPE *fetch, const TYPE *source, int pe)",
                 AMO_EXT, nbi=True),
            _amo("compare_swap", "void shmem_{T}_atomic_compare_swap_nbi(TYPE *fetch, TYPE *dest, TYPE cond, "
                 "TYPE value, int pe)", AMO_STD, nbi=True),
            _amo("swap", "void shmem_{T}_atomic_swap_nbi(TYPE *fetch, TYPE *dest, TYPE value, int pe)",
                 AMO_EXT, nbi=True),
            _amo("fetch_inc", "void shmem_{T}_atomic_fetch_inc_nbi(TYPE *fetch, TYPE *dest, int pe)",
                 AMO_STD, nbi=True),
            _amo("fetch_add", "void shmem_{T}_atomic_fetch_add_nbi(TYPE *fetch, TYPE *dest, TYPE value, int pe)",
                 AMO_STD, nbi=True),
            _amo("fetch_and", "void shmem_{T}_atomic_fetch_and_nbi(TYPE *fetch, TYPE *dest, TYPE value, int pe)",
                 AMO_BIT, nbi=True),
            _amo("fetch_or", "void shmem_{T}_atomic_fetch_or_nbi(TYPE *fetch, TYPE *dest, TYPE value, int pe)",
                 AMO_BIT, nbi=True),
            _amo("fetch_xor", "void shmem_{T}_atomic_fetch_xor_nbi(TYPE *fetch, TYPE *dest, TYPE value, int pe)",
                 AMO_BIT, nbi=True),
        ]),
    ]),
    # ---------------------------------------------------------------------------------------
    Family("signal", "signal", "Signaling operations", True, [
        Group("Put with signal", [
            T("void shmem_{T}_put_signal(TYPE *dest, const TYPE *source, size_t nelems, uint64_t *sig_addr, "
              "uint64_t signal, int sig_op, int pe)", RMA, ctx=True, generic="shmem_put_signal"),
            S("void shmem_put{SIZE}_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, "
              "uint64_t signal, int sig_op, int pe)", mem=True, ctx=True),
        ]),
        Group("Nonblocking put with signal", [
            T("void shmem_{T}_put_signal_nbi(TYPE *dest, const TYPE *source, size_t nelems, uint64_t *sig_addr, "
              "uint64_t signal, int sig_op, int pe)", RMA, ctx=True, generic="shmem_put_signal_nbi"),
            S("void shmem_put{SIZE}_signal_nbi(void *dest, const void *source, size_t nelems, "
              "uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)", mem=True, ctx=True),
        ]),
        Group("Signal fetch, add and set", [
            F("uint64_t shmem_signal_fetch(const uint64_t *sig_addr)"),
            F("void shmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe)", ctx=True),
            F("void shmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe)", ctx=True),
            Alias("shmem_signal_add", (("shmem_ctx_t", "shmem_ctx_signal_add"),), default="shmem_signal_add"),
            Alias("shmem_signal_set", (("shmem_ctx_t", "shmem_ctx_signal_set"),), default="shmem_signal_set"),
        ]),
    ]),
    # ---------------------------------------------------------------------------------------
    Family("barrier_all", "collective", "Collective routines: world barrier and sync", True, [
        Group("Barrier and sync over all PEs", [
            F("void shmem_barrier_all(void)"),
            F("void shmem_sync_all(void)"),
        ]),
    ]),
    Family("team_collective", "collective", "Collective routines over teams", True, [
        Group("Team sync", [
            F("int shmem_team_sync(shmem_team_t team)"),
            Alias("shmem_sync", (("shmem_team_t", "shmem_team_sync"),), default="shmem_sync"),
        ]),
        Group("All-to-all", [
            T("int shmem_{T}_alltoall(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems)", RMA,
              generic="shmem_alltoall"),
            F("int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems)"),
        ]),
        Group("Strided all-to-all", [
            T("int shmem_{T}_alltoalls(shmem_team_t team, TYPE *dest, const TYPE *source, ptrdiff_t dst, "
              "ptrdiff_t sst, size_t nelems)", RMA, generic="shmem_alltoalls"),
            F("int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, "
              "ptrdiff_t sst, size_t nelems)"),
        ]),
        Group("Broadcast", [
            T("int shmem_{T}_broadcast(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems, "
              "int PE_root)", RMA, generic="shmem_broadcast"),
            F("int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems, "
              "int PE_root)"),
        ]),
        Group("Collect (concatenation, varying sizes)", [
            T("int shmem_{T}_collect(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems)", RMA,
              generic="shmem_collect"),
            F("int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)"),
        ]),
        Group("Fixed-size collect", [
            T("int shmem_{T}_fcollect(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems)", RMA,
              generic="shmem_fcollect"),
            F("int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)"),
        ]),
    ]),
    Family("reduce", "collective", "Reductions over teams", True, [
        Group("Bitwise reductions", [
            T("int shmem_{T}_and_reduce(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce)",
              RED_BIT, generic="shmem_and_reduce"),
            T("int shmem_{T}_or_reduce(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce)",
              RED_BIT, generic="shmem_or_reduce"),
            T("int shmem_{T}_xor_reduce(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce)",
              RED_BIT, generic="shmem_xor_reduce"),
        ]),
        Group("Signed bitwise reductions (1.5 erratum, not in 1.6)", [
            T("int shmem_{T}_and_reduce(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce)",
              RED_BIT_SIGNED_DEP),
            T("int shmem_{T}_or_reduce(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce)",
              RED_BIT_SIGNED_DEP),
            T("int shmem_{T}_xor_reduce(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce)",
              RED_BIT_SIGNED_DEP),
        ], deprecated="1.6"),
        Group("Comparison reductions", [
            T("int shmem_{T}_max_reduce(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce)",
              RED_CMP, generic="shmem_max_reduce"),
            T("int shmem_{T}_min_reduce(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce)",
              RED_CMP, generic="shmem_min_reduce"),
        ]),
        Group("Arithmetic reductions", [
            T("int shmem_{T}_sum_reduce(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce)",
              RED_ARITH, generic="shmem_sum_reduce"),
            T("int shmem_{T}_prod_reduce(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce)",
              RED_ARITH, generic="shmem_prod_reduce"),
        ]),
    ]),
    Family("scan", "collective", "Scans over teams (1.6)", True, [
        Group("Inclusive and exclusive prefix sums", [
            T("int shmem_{T}_sum_inscan(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems)",
              RED_ARITH, generic="shmem_sum_inscan"),
            T("int shmem_{T}_sum_exscan(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems)",
              RED_ARITH, generic="shmem_sum_exscan"),
        ]),
    ]),
    Family("active_set", "collective", "Active-set collective routines (pSync/pWrk)", True, [
        Group("Active-set barrier and sync", [
            F("void shmem_barrier(" + ACTIVE_SET + ", long *pSync)"),
            F("void shmem_sync(" + ACTIVE_SET + ", long *pSync)"),
        ], deprecated="1.5"),
        Group("Active-set all-to-all", [
            S("void shmem_alltoall{SIZE}(void *dest, const void *source, size_t nelems, " + ACTIVE_SET
              + ", long *pSync)", sizes=(32, 64)),
            S("void shmem_alltoalls{SIZE}(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, "
              "size_t nelems, " + ACTIVE_SET + ", long *pSync)", sizes=(32, 64)),
        ], deprecated="1.5"),
        Group("Active-set broadcast", [
            S("void shmem_broadcast{SIZE}(void *dest, const void *source, size_t nelems, int PE_root, "
              + ACTIVE_SET + ", long *pSync)", sizes=(32, 64)),
        ], deprecated="1.5"),
        Group("Active-set collect", [
            S("void shmem_collect{SIZE}(void *dest, const void *source, size_t nelems, " + ACTIVE_SET
              + ", long *pSync)", sizes=(32, 64)),
            S("void shmem_fcollect{SIZE}(void *dest, const void *source, size_t nelems, " + ACTIVE_SET
              + ", long *pSync)", sizes=(32, 64)),
        ], deprecated="1.5"),
        Group("Active-set reductions", [
            T("void shmem_{T}_" + op + "_to_all(TYPE *dest, const TYPE *source, int nreduce, " + ACTIVE_SET
              + ", TYPE *pWrk, long *pSync)", types)
            for op, types in (("and", TO_ALL_BIT), ("or", TO_ALL_BIT), ("xor", TO_ALL_BIT),
                              ("max", TO_ALL_CMP), ("min", TO_ALL_CMP),
                              ("sum", TO_ALL_ARITH), ("prod", TO_ALL_ARITH))
        ], deprecated="1.5"),
    ]),
    # ---------------------------------------------------------------------------------------
    Family("p2p_sync", "p2p_sync", "Point-to-point synchronization routines", True, [
        Group("Wait until (short/ushort: deprecated since 1.5 for wait_until, extensions as in Sandia OpenSHMEM for the others)", [
            T("void shmem_{T}_wait_until(TYPE *ivar, int cmp, TYPE cmp_value)", SYNC_WITH_DEP,
              generic="shmem_wait_until"),
            T("void shmem_{T}_wait_until_all(TYPE *ivars, size_t nelems, const int *status, int cmp, "
              "TYPE cmp_value)", SYNC_WITH_DEP, generic="shmem_wait_until_all"),
            T("size_t shmem_{T}_wait_until_any(TYPE *ivars, size_t nelems, const int *status, int cmp, "
              "TYPE cmp_value)", SYNC_WITH_DEP, generic="shmem_wait_until_any"),
            T("size_t shmem_{T}_wait_until_some(TYPE *ivars, size_t nelems, size_t *indices, "
              "const int *status, int cmp, TYPE cmp_value)", SYNC_WITH_DEP, generic="shmem_wait_until_some"),
            T("void shmem_{T}_wait_until_all_vector(TYPE *ivars, size_t nelems, const int *status, int cmp, "
              "TYPE *cmp_values)", SYNC_WITH_DEP, generic="shmem_wait_until_all_vector"),
            T("size_t shmem_{T}_wait_until_any_vector(TYPE *ivars, size_t nelems, const int *status, int cmp, "
              "TYPE *cmp_values)", SYNC_WITH_DEP, generic="shmem_wait_until_any_vector"),
            T("size_t shmem_{T}_wait_until_some_vector(TYPE *ivars, size_t nelems, size_t *indices, "
              "const int *status, int cmp, TYPE *cmp_values)", SYNC_WITH_DEP, generic="shmem_wait_until_some_vector"),
        ]),
        Group("Test (short/ushort: deprecated since 1.5 for test, extensions as in Sandia OpenSHMEM for the others)", [
            T("int shmem_{T}_test(TYPE *ivar, int cmp, TYPE cmp_value)", SYNC_WITH_DEP, generic="shmem_test"),
            T("int shmem_{T}_test_all(TYPE *ivars, size_t nelems, const int *status, int cmp, TYPE cmp_value)",
              SYNC_WITH_DEP, generic="shmem_test_all"),
            T("size_t shmem_{T}_test_any(TYPE *ivars, size_t nelems, const int *status, int cmp, "
              "TYPE cmp_value)", SYNC_WITH_DEP, generic="shmem_test_any"),
            T("size_t shmem_{T}_test_some(TYPE *ivars, size_t nelems, size_t *indices, const int *status, "
              "int cmp, TYPE cmp_value)", SYNC_WITH_DEP, generic="shmem_test_some"),
            T("int shmem_{T}_test_all_vector(TYPE *ivars, size_t nelems, const int *status, int cmp, "
              "TYPE *cmp_values)", SYNC_WITH_DEP, generic="shmem_test_all_vector"),
            T("size_t shmem_{T}_test_any_vector(TYPE *ivars, size_t nelems, const int *status, int cmp, "
              "TYPE *cmp_values)", SYNC_WITH_DEP, generic="shmem_test_any_vector"),
            T("size_t shmem_{T}_test_some_vector(TYPE *ivars, size_t nelems, size_t *indices, "
              "const int *status, int cmp, TYPE *cmp_values)", SYNC_WITH_DEP, generic="shmem_test_some_vector"),
        ]),
        Group("Signal wait", [
            F("uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)"),
        ]),
        Group("Legacy waits (shmem_wait/shmem_wait_until: long-typed C routines)", [
            T("void shmem_{T}_wait(TYPE *ivar, TYPE cmp_value)", WAIT_DEP),
            F("void shmem_wait(long *ivar, long cmp_value)"),
            F("void shmem_wait_until(long *ivar, int cmp, long cmp_value)"),
        ], deprecated="1.4"),
    ]),
    # ---------------------------------------------------------------------------------------
    Family("misc", "misc", "Memory ordering routines", True, [
        Group("Fence and quiet", [
            F("void shmem_fence(void)", ctx=True),
            F("void shmem_quiet(void)", ctx=True),
            F("void shmem_pe_quiet(const int *target_pes, size_t npes)", ctx=True),
        ]),
    ]),
    Family("lock", "lock", "Distributed locking routines", True, [
        Group("Locks", [
            F("void shmem_set_lock(long *lock)"),
            F("void shmem_clear_lock(long *lock)"),
            F("int shmem_test_lock(long *lock)"),
        ]),
    ]),
    Family("cache", "cache", "Cache management routines (no-ops)", True, [
        Group("Cache management", [
            F("void shmem_set_cache_inv(void)"),
            F("void shmem_set_cache_line_inv(void *dest)"),
            F("void shmem_clear_cache_inv(void)"),
            F("void shmem_clear_cache_line_inv(void *dest)"),
            F("void shmem_udcflush(void)"),
            F("void shmem_udcflush_line(void *dest)"),
        ], deprecated="1.3"),
    ]),
    Family("profiling", "profiling", "Profiling interface", True, [
        Group("Profiling control", [
            F("void shmem_pcontrol(const int level, ...)"),
        ]),
    ]),
]

# Extensions (shmemx.h / pshmemx.h).
EXTENSIONS = [
    Family("shmemx_error", "shmemx", "Shoal extensions: error reporting", True, [
        Group("Text of the last error raised on the calling thread", [
            F("const char *shmemx_last_error_string(void)"),
        ]),
    ]),
]

# ---- constants (shmem.h) ---------------------------------------------------------------------
# (group title, [(name, value)]).  Values fixed by Shoal where the specification leaves them
# implementation-defined.
CONSTANTS = [
    ("Library version and vendor", [
        ("SHMEM_MAJOR_VERSION", "1"),
        ("SHMEM_MINOR_VERSION", "6"),
        ("SHMEM_MAX_NAME_LEN", "256"),
        ("SHMEM_VENDOR_STRING", '"Shoal 0.1.0"'),
    ]),
    ("Thread levels (shmem_init_thread, shmem_query_thread)", [
        ("SHMEM_THREAD_SINGLE", "0"),
        ("SHMEM_THREAD_FUNNELED", "1"),
        ("SHMEM_THREAD_SERIALIZED", "2"),
        ("SHMEM_THREAD_MULTIPLE", "3"),
    ]),
    ("Comparison operators (wait_until, test, signal_wait_until)", [
        ("SHMEM_CMP_EQ", "1"),
        ("SHMEM_CMP_NE", "2"),
        ("SHMEM_CMP_GT", "3"),
        ("SHMEM_CMP_LE", "4"),
        ("SHMEM_CMP_LT", "5"),
        ("SHMEM_CMP_GE", "6"),
    ]),
    ("Signal operators (put_signal)", [
        ("SHMEM_SIGNAL_SET", "0"),
        ("SHMEM_SIGNAL_ADD", "1"),
    ]),
    ("Context options (shmem_ctx_create, shmem_team_create_ctx)", [
        ("SHMEM_CTX_SERIALIZED", "(1L<<0)"),
        ("SHMEM_CTX_PRIVATE", "(1L<<1)"),
        ("SHMEM_CTX_NOSTORE", "(1L<<2)"),
    ]),
    ("Session options and configuration mask (shmem_ctx_session_start)", [
        ("SHMEM_CTX_SESSION_TOTAL_OPS", "(1L<<0)"),
        ("SHMEM_CTX_SESSION_BATCH", "(1L<<0)"),
    ]),
    ("Allocation hints (shmem_malloc_with_hints)", [
        ("SHMEM_MALLOC_ATOMICS_REMOTE", "(1L<<0)"),
        ("SHMEM_MALLOC_SIGNAL_REMOTE", "(1L<<1)"),
    ]),
    ("Team configuration mask (shmem_team_split_*, shmem_team_get_config)", [
        ("SHMEM_TEAM_NUM_CONTEXTS", "(1L<<0)"),
    ]),
    ("Active-set collectives: pSync initial value and array lengths (deprecated since 1.5)", [
        ("SHMEM_SYNC_VALUE", "0L"),
        ("SHMEM_SYNC_SIZE", "64"),
        ("SHMEM_BCAST_SYNC_SIZE", "64"),
        ("SHMEM_REDUCE_SYNC_SIZE", "64"),
        ("SHMEM_BARRIER_SYNC_SIZE", "64"),
        ("SHMEM_COLLECT_SYNC_SIZE", "64"),
        ("SHMEM_ALLTOALL_SYNC_SIZE", "64"),
        ("SHMEM_ALLTOALLS_SYNC_SIZE", "64"),
        ("SHMEM_REDUCE_MIN_WRKDATA_SIZE", "64"),
    ]),
    ("Legacy spellings (deprecated since 1.3)", [
        ("_SHMEM_MAJOR_VERSION", "SHMEM_MAJOR_VERSION"),
        ("_SHMEM_MINOR_VERSION", "SHMEM_MINOR_VERSION"),
        ("_SHMEM_MAX_NAME_LEN", "SHMEM_MAX_NAME_LEN"),
        ("_SHMEM_VENDOR_STRING", "SHMEM_VENDOR_STRING"),
        ("_SHMEM_CMP_EQ", "SHMEM_CMP_EQ"),
        ("_SHMEM_CMP_NE", "SHMEM_CMP_NE"),
        ("_SHMEM_CMP_GT", "SHMEM_CMP_GT"),
        ("_SHMEM_CMP_LE", "SHMEM_CMP_LE"),
        ("_SHMEM_CMP_LT", "SHMEM_CMP_LT"),
        ("_SHMEM_CMP_GE", "SHMEM_CMP_GE"),
        ("_SHMEM_SYNC_VALUE", "SHMEM_SYNC_VALUE"),
        ("_SHMEM_BCAST_SYNC_SIZE", "SHMEM_BCAST_SYNC_SIZE"),
        ("_SHMEM_REDUCE_SYNC_SIZE", "SHMEM_REDUCE_SYNC_SIZE"),
        ("_SHMEM_BARRIER_SYNC_SIZE", "SHMEM_BARRIER_SYNC_SIZE"),
        ("_SHMEM_COLLECT_SYNC_SIZE", "SHMEM_COLLECT_SYNC_SIZE"),
        ("_SHMEM_REDUCE_MIN_WRKDATA_SIZE", "SHMEM_REDUCE_MIN_WRKDATA_SIZE"),
    ]),
]
