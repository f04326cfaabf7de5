// os/affinity.hpp — thread affinity system calls, and the one piece of
// per-thread state binding needs: the mask a thread had before ULIBC first
// bound it, so that it can be restored (the paper's clear_affinity) and so
// that the live topology's "allowed" set is not narrowed by our own binding.
// Convention (os/os.hpp's rule): 0 or the errno, what was found through the last parameter. EINVAL is
// the kernel refusing a set (offline processors, outside the process's allowed ones, an empty set); binding/ says
// which.
#pragma once
#include <pthread.h>

#include "ulibc/cpuset.hpp"

namespace ulibc::os {

// The calling thread's affinity mask, of any size (sched_getaffinity with a
// buffer that grows until the kernel accepts it).
int thread_affinity(CpuSet& mask);

// Binds the calling thread, remembering its previous mask on the first bind.
int bind_current_thread(const CpuSet& cpus);
// Puts back the remembered mask and forgets it; `restored` false if there was none.
int restore_current_thread(bool& restored);
// The remembered mask, else the current one.
int affinity_before_binding(CpuSet& mask);
bool has_binding_record();

// Sets a mask without touching the record (restoring a caller's mask).
int set_current_affinity(const CpuSet& cpus);
// Binds another running thread (no record: that thread's state is its own).
int bind_thread(pthread_t thread, const CpuSet& cpus);

}  // namespace ulibc::os
