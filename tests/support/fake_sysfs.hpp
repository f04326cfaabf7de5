// fake_sysfs.hpp — writes a synthetic sysfs/procfs tree from a description,
// so that any machine shape can be tested without a real snapshot.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ulibc/cpuset.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::testing {

enum class Numbering {
  smt_last,      // Intel style: proc = core + total_cores * smt (the ULIBC paper's machine)
  smt_adjacent,  // AMD/ARM style: proc = core * smt_per_core + smt
};

// v1_noprefix: a cgroup-v1 cpuset hierarchy mounted at an arbitrary place with `noprefix` (files `cpus`,
// `mems`), found through /proc/self/cpuset, beside a cgroup2 mount without the cpuset controller.
enum class CgroupFlavor { legacy_cpuset, v1, v1_noprefix, v2 };

struct FakeMachine {
  int packages = 1;
  int nodes_per_package = 1;  // sub-NUMA clustering when > 1
  int packages_per_node = 1;  // several packages share a node when > 1 (nodes_per_package must be 1)
  int cores_per_package = 1;
  int smt = 1;  // hardware threads per core
  Numbering numbering = Numbering::smt_last;

  std::vector<int> node_ids;     // OS id of each node (sparse ids); empty → 0,1,2,…
  CpuSet offline;                // processors written as offline (no topology directory)
  std::optional<CpuSet> cpuset;  // the cgroup's cpuset.cpus, if any
  CgroupFlavor cgroup = CgroupFlavor::v2;
  CpuSet memoryless_nodes;  // node *indices* whose MemTotal is 0
  std::uint64_t node_memory_bytes = 1ull << 30;
  int remote_distance = 20;
  std::vector<std::vector<int>> distances;  // the node distance table by node index; empty → 10 and remote_distance

  bool write_node_dir = true;       // false: no /sys/devices/system/node (one-node kernel)
  bool write_cpulist = true;        // false: nodes and siblings carry only hex cpumap files
  bool write_online_file = true;    // false: only per-processor cpuN/online flags
  bool package_id_unknown = false;  // physical_package_id -1 (POWER-like)
  int core_id_period = 0;           // > 0: core_id = core % period, repeating per die (old AMD kernels)

  int total_processors() const;
  int processor_id(int package, int core, int smt_rank) const;  // by numbering
  int node_index_of(int package, int core) const;
};

// Writes the tree below `root` (created if needed). Returns root.
std::string write_fake_sysfs(const FakeMachine& m, const std::string& root);

// The machine's Topology, loaded from a tree written to a temporary
// directory that is gone when this returns.
Topology load_fake(const FakeMachine& m);

// 4 nodes × 2 cores × 2 SMT threads: 16 processors.
inline const FakeMachine kFourNodes{.packages = 4, .cores_per_package = 2, .smt = 2};

// kFourNodes' Topology, loaded once.
const Topology& four_nodes();

// A fresh empty directory under the system temporary directory, removed by
// the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace ulibc::testing
