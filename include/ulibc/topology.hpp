// ulibc/topology.hpp — the machine as Linux describes it in sysfs and procfs.
//
// Everything is read below a filesystem root, so a snapshot of another
// machine loads exactly like the live one. Only the live root ("/") consults
// the calling process (its affinity mask); a snapshot never does.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ulibc/cpuset.hpp"

namespace ulibc {

// One logical processor (a hardware thread), by its OS id.
struct Processor {
  int id = -1;
  int package = -1;  // physical_package_id; numbered 0,1,… by first processor where the kernel says -1
  int die = -1;      // die_id, -1 where the kernel has none (or Detail::placement)
  int cluster = -1;  // cluster_id, -1 where the kernel has none (or Detail::placement)
  int core_id = -1;  // the kernel's core_id: not unique across packages (nor dies, on some kernels)
  int core = -1;     // machine-wide core number, dense, in (package, core_id) order; -1 if offline
  int smt = -1;      // rank among its core's online siblings, by processor id
  int node = -1;     // NUMA node id
  bool online = false;
  bool allowed = false;  // online, in the process mask (live root) and in the cgroup cpuset
  bool usable() const { return online && allowed; }
};

struct HugePages {
  std::uint64_t page_bytes = 0;
  std::uint64_t total = 0;
  std::uint64_t free = 0;
};

struct Node {
  int id = -1;
  CpuSet cpus;                       // processors of the node, online or not
  std::uint64_t memory_bytes = 0;    // 0 for a memory-less node
  std::vector<int> distances;        // to every node, in the order of Topology::nodes()
  std::vector<HugePages> hugepages;  // one entry per page size the kernel offers
  bool allowed = true;               // in the cgroup's cpuset.mems (always true without one)
  bool has_memory() const { return memory_bytes > 0; }
};

struct Package {
  int id = -1;
  CpuSet cpus;
};

struct Cache {
  int level = 0;
  std::string type;  // "Data", "Instruction" or "Unified"
  std::uint64_t size_bytes = 0;
  CpuSet cpus;  // the processors that share it
};

// How much a load reads. Placement is what policies, binding and node-local
// memory need; full adds caches, huge page counts, dies and clusters, which
// on a small machine are most of the files a load opens.
enum class Detail { placement, full };

class Topology {
 public:
  // Loads the machine below `fsroot`. An empty fsroot means $ULIBC_FSROOT if
  // set, else "/" (the live machine). Throws Error: kind input when the root
  // or a file in it is missing or malformed beyond any documented fallback.
  static Topology load(const std::string& fsroot = "", Detail detail = Detail::full);

  const std::string& fsroot() const { return fsroot_; }
  bool is_live() const { return live_; }
  Detail detail() const { return detail_; }  // placement: no caches, huge pages, dies or clusters

  const std::vector<Processor>& processors() const { return processors_; }  // by id
  const std::vector<Node>& nodes() const { return nodes_; }                 // by id
  const std::vector<Package>& packages() const { return packages_; }        // by id
  const std::vector<Cache>& caches() const { return caches_; }              // by level, then first processor

  const Processor* processor(int id) const;        // nullptr if unknown
  const Node* node(int id) const;                  // nullptr if unknown
  int distance(int from_node, int to_node) const;  // -1 if either node is unknown

  CpuSet all() const;
  CpuSet online() const;
  CpuSet allowed() const;
  CpuSet usable() const;  // online ∩ allowed: what the policies place threads on
  // This machine with only `cpus` allowed, as a narrower process mask would leave it: a rank's share of the
  // machine (ulibc/rank_share.hpp), inside which the policies then place its threads.
  Topology restricted_to(const CpuSet& cpus) const;

  // Fallbacks taken and oddities met while loading ("node 0: no directory,
  // its processors come from cpu*/node0 links"); empty on a well-formed machine.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  friend class TopologyBuilder;
  std::string fsroot_;
  bool live_ = false;
  Detail detail_ = Detail::full;
  std::vector<Processor> processors_;
  std::vector<Node> nodes_;
  std::vector<Package> packages_;
  std::vector<Cache> caches_;
  std::vector<std::string> notes_;
};

}  // namespace ulibc
