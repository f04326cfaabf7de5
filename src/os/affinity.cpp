// os/affinity.cpp — sched_setaffinity and friends, and the per-thread record of the mask before binding.
#include "os/affinity.hpp"

#include <sched.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>

#include "os/kernel_mask.hpp"
#include "ulibc/error.hpp"

namespace ulibc::os {

namespace {

thread_local std::optional<CpuSet> t_before_binding;

cpu_set_t* cpu_set(KernelMask& mask) { return reinterpret_cast<cpu_set_t*>(mask.data()); }

void check_id(int proc) {
  if (proc < 0 || proc > CpuSet::kMaxId)
    throw input_error("processor " + std::to_string(proc) + " is outside 0.." + std::to_string(CpuSet::kMaxId));
}

[[noreturn]] void refused(const std::string& what, int err) {
  if (err == EINVAL)
    throw input_error("cannot bind to " + what +
                      ": the kernel refused it (offline, or outside the process's allowed processors " +
                      affinity_before_binding().to_list() + ")");
  throw system_error("sched_setaffinity(" + what + "): " + std::strerror(err));
}

// `what` names the target in an error; it is only called on failure.
template <class What>
void apply(KernelMask& mask, What what) {
  if (::sched_setaffinity(0, mask.bytes(), cpu_set(mask)) != 0) refused(what(), errno);
}

std::string processor_name(int proc) { return "processor " + std::to_string(proc); }

KernelMask mask_of(const CpuSet& cpus) {
  if (cpus.empty()) throw input_error("cannot bind to an empty processor set");
  return KernelMask(cpus);
}

void remember() {
  if (!t_before_binding) t_before_binding = thread_affinity();
}

}  // namespace

CpuSet thread_affinity() {
  // The kernel rejects a buffer smaller than its own mask (EINVAL), so grow.
  for (int bits = 1024; bits <= CpuSet::kMaxId + 1; bits *= 2) {
    KernelMask mask(bits - 1);
    if (::sched_getaffinity(0, mask.bytes(), cpu_set(mask)) == 0) return mask.to_set();
    if (errno != EINVAL) break;
  }
  throw system_error(std::string("sched_getaffinity: ") + std::strerror(errno));
}

void bind_current_thread(int proc) {
  check_id(proc);
  remember();
  KernelMask mask(proc);
  mask.set(proc);
  apply(mask, [proc] { return processor_name(proc); });
}

void bind_current_thread(const CpuSet& cpus) {
  KernelMask mask = mask_of(cpus);
  remember();
  apply(mask, [&cpus] { return "processors " + cpus.to_list(); });
}

bool restore_current_thread() {
  if (!t_before_binding) return false;
  set_current_affinity(*t_before_binding);
  t_before_binding.reset();
  return true;
}

CpuSet affinity_before_binding() { return t_before_binding ? *t_before_binding : thread_affinity(); }

bool has_binding_record() { return t_before_binding.has_value(); }

void set_current_affinity(const CpuSet& cpus) {
  KernelMask mask = mask_of(cpus);
  apply(mask, [&cpus] { return "processors " + cpus.to_list(); });
}

void bind_thread(pthread_t thread, int proc) {
  check_id(proc);
  KernelMask mask(proc);
  mask.set(proc);
  if (const int err = ::pthread_setaffinity_np(thread, mask.bytes(), cpu_set(mask)); err != 0)
    refused(processor_name(proc), err);
}

}  // namespace ulibc::os
