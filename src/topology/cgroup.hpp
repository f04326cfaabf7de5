// topology/cgroup.hpp — the cpuset a batch scheduler or container confines us to.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "os/fs.hpp"
#include "ulibc/cpuset.hpp"

namespace ulibc::topo {

struct CgroupLimits {
  std::optional<CpuSet> cpus;  // nullopt: no cpuset limit found
  std::optional<NodeSet> mems;
};

// Finds the calling process's cpuset under `fs` the way the kernel exposes it:
// the legacy cpuset filesystem, a cgroup v1 hierarchy with the cpuset
// controller, or cgroup v2 (walking up to the nearest group that has
// cpuset.cpus.effective). The group path comes from /proc/self/cpuset, else
// /proc/self/cgroup; mount points from /proc/mounts.
CgroupLimits read_cgroup_limits(const os::FsRoot& fs, std::vector<std::string>& notes);

}  // namespace ulibc::topo
