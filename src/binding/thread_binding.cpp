// binding/thread_binding.cpp — binding the calling thread (the paper's
// set_affinity / clear_affinity) over the OS layer's per-thread record.
#include "os/affinity.hpp"
#include "os/process.hpp"
#include "ulibc/affinity.hpp"

namespace ulibc {

void bind_current_thread(int proc) { os::bind_current_thread(proc); }
void bind_current_thread(const CpuSet& cpus) { os::bind_current_thread(cpus); }

void bind_current_thread(const Placement& place) {
  if (place.proc >= 0) os::bind_current_thread(place.proc);  // policy none: nothing to bind
}

void restore_affinity() { os::restore_current_thread(); }

CpuSet current_affinity() { return os::thread_affinity(); }
CpuSet affinity_before_binding() { return os::affinity_before_binding(); }
int current_processor() { return os::current_cpu().value_or(-1); }

}  // namespace ulibc
