// os/affinity.cpp — sched_setaffinity and friends, and the per-thread record of the mask before binding.
#include "os/affinity.hpp"

#include <sched.h>

#include <cerrno>
#include <optional>

#include "os/kernel_mask.hpp"

namespace ulibc::os {

namespace {

thread_local std::optional<CpuSet> t_before_binding;

cpu_set_t* cpu_set(KernelMask& mask) { return reinterpret_cast<cpu_set_t*>(mask.data()); }

// What the kernel would refuse anyway (no processor at all), refused before a mask is built for it.
bool settable(const CpuSet& cpus) { return !cpus.empty(); }

int apply(const CpuSet& cpus) {
  if (!settable(cpus)) return EINVAL;
  KernelMask mask(cpus);
  return ::sched_setaffinity(0, mask.bytes(), cpu_set(mask)) == 0 ? 0 : errno;
}

}  // namespace

int thread_affinity(CpuSet& out) {
  // The kernel rejects a buffer smaller than its own mask (EINVAL), so grow.
  for (int bits = 1024; bits <= CpuSet::kMaxId + 1; bits *= 2) {
    KernelMask mask(bits - 1);
    if (::sched_getaffinity(0, mask.bytes(), cpu_set(mask)) == 0) {
      out = mask.to_set();
      return 0;
    }
    if (errno != EINVAL) return errno;
  }
  return EINVAL;
}

int bind_current_thread(const CpuSet& cpus) {
  if (!settable(cpus)) return EINVAL;
  if (!t_before_binding) {
    CpuSet before;
    if (const int err = thread_affinity(before)) return err;
    t_before_binding = before;
  }
  return apply(cpus);
}

int restore_current_thread(bool& restored) {
  restored = t_before_binding.has_value();
  if (!restored) return 0;
  if (const int err = apply(*t_before_binding)) return err;  // the record stays: the thread is still bound
  t_before_binding.reset();
  return 0;
}

int affinity_before_binding(CpuSet& mask) {
  if (!t_before_binding) return thread_affinity(mask);
  mask = *t_before_binding;
  return 0;
}

bool has_binding_record() { return t_before_binding.has_value(); }

int set_current_affinity(const CpuSet& cpus) { return apply(cpus); }

int bind_thread(pthread_t thread, const CpuSet& cpus) {
  if (!settable(cpus)) return EINVAL;
  KernelMask mask(cpus);
  return ::pthread_setaffinity_np(thread, mask.bytes(), cpu_set(mask));
}

}  // namespace ulibc::os
