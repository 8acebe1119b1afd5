// Reductions and scans over teams (specification sections "SHMEM_REDUCTIONS" and "SHMEM_SCAN"):
// shmem_TYPENAME_OP_reduce and shmem_TYPENAME_sum_{inscan,exscan}, one per row of the reduction
// type tables, each handing the collective the combine function of its operator and type.
// Returns what the collective returns (0, or nonzero after it logged why).
#include "api/export.hpp"
#include "observe/observe.hpp"
#include "collectives/collectives.hpp"
#include "collectives/reduce_ops.hpp"
#include "types/type_tables.def"

using shoal::coll::combine;
using shoal::coll::ReduceOp;

#define SMA_REDUCE_FORM(TN, T, OPNAME, OP)                                                        \
  extern "C" int pshmem_##TN##_##OPNAME##_reduce(shmem_team_t team, T *dest, const T *source,     \
                                                 size_t nreduce) noexcept {                       \
    SMA_OBSERVE_CALL(reduce, "shmem_" #TN "_" #OPNAME "_reduce", nreduce * sizeof(T), team);      \
    return shoal::coll::reduce(team, dest, source, nreduce, sizeof(T), &combine<ReduceOp::OP, T>, \
                               "shmem_" #TN "_" #OPNAME "_reduce");                               \
  }                                                                                               \
  SMA_WEAK_ALIAS(shmem_##TN##_##OPNAME##_reduce)

#define SMA_REDUCE_BITWISE(TN, T)      \
  SMA_REDUCE_FORM(TN, T, and, bit_and) \
  SMA_REDUCE_FORM(TN, T, or, bit_or)   \
  SMA_REDUCE_FORM(TN, T, xor, bit_xor)
#define SMA_REDUCE_COMPARE(TN, T)  \
  SMA_REDUCE_FORM(TN, T, max, max) \
  SMA_REDUCE_FORM(TN, T, min, min)
#define SMA_REDUCE_ARITH(TN, T)    \
  SMA_REDUCE_FORM(TN, T, sum, sum) \
  SMA_REDUCE_FORM(TN, T, prod, prod)

// ---- shmem_TYPENAME_{and,or,xor}_reduce --------------------------------------------------------
SMA_REDUCE_BITWISE_TYPES(SMA_REDUCE_BITWISE)
SMA_REDUCE_BITWISE_SIGNED_DEPRECATED_TYPES(SMA_REDUCE_BITWISE)

// ---- shmem_TYPENAME_{max,min}_reduce (no complex: complex numbers have no order) ---------------
SMA_REDUCE_COMPARE_TYPES(SMA_REDUCE_COMPARE)

// ---- shmem_TYPENAME_{sum,prod}_reduce ----------------------------------------------------------
SMA_REDUCE_COMPARE_TYPES(SMA_REDUCE_ARITH)
SMA_REDUCE_ARITH_COMPLEX_TYPES(SMA_REDUCE_ARITH)

// ---- shmem_TYPENAME_sum_{inscan,exscan} (1.6): the types of sum_reduce -------------------------
#define SMA_SCAN_FORM(TN, T, KIND, EXCLUSIVE)                                                   \
  extern "C" int pshmem_##TN##_sum_##KIND(shmem_team_t team, T *dest, const T *source,          \
                                          size_t nelems) noexcept {                             \
    SMA_OBSERVE_CALL(scan, "shmem_" #TN "_sum_" #KIND, nelems * sizeof(T), team);               \
    return shoal::coll::scan(team, dest, source, nelems, sizeof(T), &combine<ReduceOp::sum, T>, \
                             EXCLUSIVE, "shmem_" #TN "_sum_" #KIND);                            \
  }                                                                                             \
  SMA_WEAK_ALIAS(shmem_##TN##_sum_##KIND)
#define SMA_SCANS(TN, T)              \
  SMA_SCAN_FORM(TN, T, inscan, false) \
  SMA_SCAN_FORM(TN, T, exscan, true)

SMA_REDUCE_COMPARE_TYPES(SMA_SCANS)
SMA_REDUCE_ARITH_COMPLEX_TYPES(SMA_SCANS)
