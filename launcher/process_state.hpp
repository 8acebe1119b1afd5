// Whether a process has begun to exit, from /proc.
#pragma once

#include <sys/types.h>

namespace shoal::launcher {

// True when `pid` is gone, a zombie, or inside the kernel's exit path (PF_EXITING). A process
// only loses its open sockets on the way out after PF_EXITING is set on its thread-group leader
// (or the leader is already a zombie), which is what makes this usable to tell "PMIx lost the
// connection because the PE is dying" from "the PE called PMIx_Finalize and waits for us".
// Never blocks and never allocates, so it may run inside a PMIx upcall.
bool process_is_exiting(pid_t pid) noexcept;

}  // namespace shoal::launcher
