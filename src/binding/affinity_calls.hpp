// binding/affinity_calls.hpp — the OS layer's affinity calls (os/affinity.hpp, which returns errnos) as the binding
// layer uses them: a failure is an Error naming what was asked and why, input when the kernel refused the set.
#pragma once
#include <pthread.h>

#include "ulibc/cpuset.hpp"

namespace ulibc::detail {

CpuSet thread_affinity();
// Without touching the record of the mask before binding (a caller's mask put back, a visit to each processor).
void set_affinity(const CpuSet& cpus);
// Another running thread, onto one processor.
void bind_other_thread(pthread_t thread, int proc);
// The remembered mask put back, if there is one.
void restore_thread();

}  // namespace ulibc::detail
