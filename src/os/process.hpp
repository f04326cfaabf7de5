// os/process.hpp — what the kernel says about the calling process.
#pragma once
#include <optional>

#include "ulibc/cpuset.hpp"

namespace ulibc::os {

// The calling thread's affinity mask, of any size (sched_getaffinity with a
// buffer that grows until the kernel accepts it). Throws Error on failure.
CpuSet thread_affinity();

// The memory nodes the calling thread may allocate on: the cgroup cpuset's
// mems as the kernel enforces them (get_mempolicy MPOL_F_MEMS_ALLOWED).
// nullopt where the kernel cannot say (built without NUMA, or a sandbox
// that forbids the call): then nothing limits the nodes.
std::optional<NodeSet> allowed_memory_nodes();

}  // namespace ulibc::os
