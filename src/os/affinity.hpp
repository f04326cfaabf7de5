// os/affinity.hpp — thread affinity system calls, and the one piece of
// per-thread state binding needs: the mask a thread had before ULIBC first
// bound it, so that it can be restored (the paper's clear_affinity) and so
// that the live topology's "allowed" set is not narrowed by our own binding.
// Convention: a failure throws Error: input when the kernel refuses a set
// (offline, or outside the process's allowed processors), system otherwise.
#pragma once
#include <pthread.h>

#include "ulibc/cpuset.hpp"

namespace ulibc::os {

// The calling thread's affinity mask, of any size (sched_getaffinity with a
// buffer that grows until the kernel accepts it).
CpuSet thread_affinity();

// Binds the calling thread, remembering its previous mask on the first bind.
void bind_current_thread(int proc);
void bind_current_thread(const CpuSet& cpus);
// Puts back the remembered mask and forgets it; false if there was none.
bool restore_current_thread();
// The remembered mask, else the current one.
CpuSet affinity_before_binding();
bool has_binding_record();

// Sets a mask without touching the record (restoring a caller's mask).
void set_current_affinity(const CpuSet& cpus);
// Binds another running thread (no record: that thread's state is its own).
void bind_thread(pthread_t thread, int proc);

}  // namespace ulibc::os
