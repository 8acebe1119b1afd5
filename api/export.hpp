// How every public routine is defined: the implementation is the strong symbol pshmem_X, and
// shmem_X is a weak alias of it, so a profiling tool can define shmem_X itself and call pshmem_X
// (the PSHMEM interface). Only these names leave the library (see api/libshoal.map).
#pragma once

// The library is compiled with hidden visibility; the API declarations are made visible here,
// and definitions inherit that from these first declarations.
#pragma GCC visibility push(default)
#include <pshmem.h>
#include <pshmemx.h>
#include <shmem.h>
#include <shmemx.h>
#pragma GCC visibility pop

// The context of every routine that takes none.
inline shoal_ctx *dflt() noexcept { return &shoal_ctx_default; }

#define SMA_WEAK_ALIAS(_name) \
  extern "C" __typeof__(p##_name) _name __attribute__((weak, alias("p" #_name)));
