// os/process.cpp — queries about the calling process; none throws.
#include "os/process.hpp"

#include <malloc.h>
#include <numaif.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include <cerrno>

#include "os/kernel_mask.hpp"

namespace ulibc::os {

std::optional<NodeSet> allowed_memory_nodes() {
  // The kernel wants room for all its possible nodes (EINVAL): grow.
  for (unsigned long bits = 1024; bits <= CpuSet::kMaxId + 1ul; bits *= 2) {
    KernelMask mask(static_cast<int>(bits) - 1);
    if (::get_mempolicy(nullptr, mask.data(), mask.bits(), nullptr, MPOL_F_MEMS_ALLOWED) == 0) return mask.to_set();
    if (errno != EINVAL) break;
  }
  return std::nullopt;
}

std::optional<int> current_cpu() {
  const int cpu = ::sched_getcpu();
  if (cpu < 0) return std::nullopt;
  return cpu;
}

std::optional<bool> thp_disabled_for_process() {
  const int disabled = ::prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0);
  if (disabled < 0) return std::nullopt;
  return disabled == 1;
}

std::optional<std::uint64_t> peak_resident_memory() {
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return std::nullopt;
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux counts KiB
}

void release_free_heap() { ::malloc_trim(0); }

}  // namespace ulibc::os
