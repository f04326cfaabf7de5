// os/process.hpp — what the kernel says about the calling process and thread.
// Convention (os/os.hpp's rule): nothing throws; what the kernel cannot say is nullopt.
#pragma once
#include <cstdint>
#include <optional>

#include "ulibc/cpuset.hpp"

namespace ulibc::os {

// The memory nodes the calling thread may allocate on: the cgroup cpuset's
// mems as the kernel enforces them (get_mempolicy MPOL_F_MEMS_ALLOWED).
// nullopt where the kernel cannot say (built without NUMA, or a sandbox
// that forbids the call): then nothing limits the nodes.
std::optional<NodeSet> allowed_memory_nodes();

std::optional<int> current_cpu();  // sched_getcpu()

// Whether prctl(PR_SET_THP_DISABLE) keeps transparent huge pages from this process.
std::optional<bool> thp_disabled_for_process();

// The process's resident high-water mark (getrusage ru_maxrss), in bytes.
std::optional<std::uint64_t> peak_resident_memory();
// Returns the C allocator's free pages to the kernel (glibc's malloc_trim); nothing to report.
void release_free_heap();

}  // namespace ulibc::os
