// Waiting for a condition that another PE will make true: keep UCX progressing (the transfer we
// wait for may need it), and give the core away while nothing happens, because with more PEs
// than cores the PE we wait for may be waiting for this core.
#pragma once

#include <sched.h>

#include "transport/ucx_worker.hpp"

namespace shoal {

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

template <typename Condition>
void wait_until(ucx::UcxWorker &worker, Condition &&done) noexcept {
  unsigned idle = 0;
  while (!done()) {
    if (worker.progress() != 0) {
      idle = 0;
    } else if (++idle > 32) {
      sched_yield();
    } else {
      cpu_relax();
    }
  }
}

}  // namespace shoal
