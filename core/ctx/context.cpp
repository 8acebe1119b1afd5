#include "ctx/context.hpp"

#include <cstddef>
#include <new>

#include "team/team.hpp"

// The objects behind SHMEM_CTX_DEFAULT, SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED: their addresses
// are the handles, fixed at link time as the specification asks.
//
// Executables take these addresses, and GCC's PIE code gets them through copy relocations: the
// executable holds a copy of each object, of the size the library had when the program was
// linked, and the library uses that copy. If a newer library's object were larger, it would
// write past the copy into the program's own data. So the symbols are fixed-size storage, far
// larger than the objects, defined here in assembly (C++ cannot give an object a symbol size
// other than its own), and the objects are constructed in that storage before anything else in
// the library runs.
namespace {
constexpr std::size_t kHandleBytes = 1024;  // also in the .size directives below
static_assert(sizeof(shoal_ctx) <= kHandleBytes && sizeof(shoal_team) <= kHandleBytes,
              "a predefined handle outgrew its storage: raise kHandleBytes only with a new soname");
static_assert(alignof(shoal_ctx) <= 64 && alignof(shoal_team) <= 64);
}  // namespace

asm(R"(
  .globl shoal_ctx_default
  .globl shoal_team_world
  .globl shoal_team_shared
  .type shoal_ctx_default, @object
  .type shoal_team_world, @object
  .type shoal_team_shared, @object
  .pushsection .bss
  .balign 64
shoal_ctx_default:
  .zero 1024
  .size shoal_ctx_default, 1024
  .balign 64
shoal_team_world:
  .zero 1024
  .size shoal_team_world, 1024
  .balign 64
shoal_team_shared:
  .zero 1024
  .size shoal_team_shared, 1024
  .popsection
)");

namespace {
struct ConstructPredefined {
  ConstructPredefined() {
    ::new (static_cast<void *>(&shoal_ctx_default)) shoal_ctx;
    ::new (static_cast<void *>(&shoal_team_world)) shoal_team;
    ::new (static_cast<void *>(&shoal_team_shared)) shoal_team;
  }
  // Never destroyed: a program may still hold the handles while exit handlers run.
};
[[gnu::init_priority(101)]] ConstructPredefined g_construct_predefined;
}  // namespace
