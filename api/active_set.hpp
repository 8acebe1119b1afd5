// The steps of the deprecated active-set collectives that do more than find the set's team and
// call the collective: shared by api/active_set.cpp and the Fortran bindings
// (api/fortran/), which pass their own routine name so errors name the Fortran routine.
#pragma once

#include <cstddef>

#include "collectives/algorithm.hpp"

namespace shoal::active_set {

// Broadcast over the active set that leaves dest on the root untouched (PE_root numbers the
// root within the set).
void broadcast(void *dest, const void *source, std::size_t nelems, std::size_t elem_size,
               int PE_root, int PE_start, int logPE_stride, int PE_size, long *pSync,
               const char *routine) noexcept;

// Reduction over the active set; a negative nreduce is logged and nothing happens.
void to_all(void *dest, const void *source, int nreduce, std::size_t elem_size,
            shoal::coll::Combine combine, int PE_start, int logPE_stride, int PE_size, long *pSync,
            const char *routine) noexcept;

}  // namespace shoal::active_set
