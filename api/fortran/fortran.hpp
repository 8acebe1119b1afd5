// How every Fortran routine is defined. gfortran's convention: the routine SHMEM_X is the C
// symbol shmem_x_ (lower case, one trailing underscore), every argument is passed by reference,
// and a CHARACTER argument adds a hidden length (size_t) after the declared ones. The
// implementation is the strong symbol pshmem_x_ and shmem_x_ is its weak alias, as for C
// (api/export.hpp), so a profiling tool can define shmem_x_ and call pshmem_x_.
//
// The bindings are a layer on top of the core: they call the same internal entry points as the
// C API, passing the Fortran routine's name (upper case, as Fortran programs spell it) so that
// errors name the routine the program called. Nothing in core/ includes this directory.
#pragma once

#include <cstddef>
#include <cstdint>

// The library is compiled with hidden visibility; these names are exported (and listed in
// api/libshoal.map, which lets shmem_*, pshmem_* and the few legacy names out).
#define SMA_F_VISIBLE __attribute__((visibility("default")))
#define SMA_F_API extern "C" SMA_F_VISIBLE

// Emits the weak alias NAME of pNAME; place it after the definition of pNAME.
#define SMA_F_ALIAS(name) \
  extern "C" SMA_F_VISIBLE __typeof__(p##name) name __attribute__((weak, alias("p" #name)));

namespace shoal::fortran {

// Fortran's default INTEGER (nelems, strides, PE numbers) and INTEGER*8 (locks).
using Fint = std::int32_t;
static_assert(sizeof(Fint) == 4, "gfortran's default INTEGER is 4 bytes");

// A Fortran count as the size_t the core takes. A negative count becomes a huge one, which the
// core's size checks report as an error naming the routine.
inline std::size_t count(const Fint *n) noexcept {
  return static_cast<std::size_t>(static_cast<std::ptrdiff_t>(*n));
}

// The pSync array of a Fortran program (default INTEGER, SHMEM_*_SYNC_SIZE of shmem.fh
// elements) as the C layer's long *. Shoal never reads or writes pSync (the active set's team
// keeps its own state, core/team/active_set.cpp), so neither its alignment nor its size in
// longs matters here; shmem.fh sizes it at twice the C size so a program is portable anyway.
inline long *psync(void *pSync) noexcept { return static_cast<long *>(pSync); }

}  // namespace shoal::fortran
