// machine.hpp — what the guest should find: the machine description that the
// host runner also turned into QEMU's command line (tests/numa_lab/machines).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ulibc/cpuset.hpp"

namespace lab {

struct NodeSpec {
  int id = -1;
  ulibc::CpuSet cpus;
  std::uint64_t memory_mib = 0;  // 0: a node with processors and no memory
};

struct Machine {
  std::string name;
  std::string about;
  int sockets = 0, cores = 0, threads = 0;  // QEMU's -smp shape
  std::vector<NodeSpec> nodes;              // node id = position
  std::vector<std::vector<int>> distances;
  ulibc::CpuSet offline;  // taken offline by /init before the tests
  ulibc::CpuSet taskset;  // the test process's mask; empty = not restricted

  // Throws std::runtime_error naming the file and what is wrong.
  static Machine load(const std::string& path);

  // QEMU's linear processor index is socket, then core, then thread, and
  // Linux numbers processors in the same order.
  int processors() const { return sockets * cores * threads; }
  int package_of(int proc) const { return proc / (cores * threads); }
  int core_of(int proc) const { return proc / threads % cores; }
  int thread_of(int proc) const { return proc % threads; }
  int node_of(int proc) const;
  // Rank among the online processors of its core, by id (ULIBC's SMT rank).
  int smt_rank(int proc) const;

  ulibc::CpuSet all() const;
  ulibc::CpuSet online() const { return all() - offline; }
  ulibc::CpuSet usable() const { return taskset.empty() ? online() : taskset & online(); }
  bool has_memory(int node) const { return nodes.at(static_cast<std::size_t>(node)).memory_mib > 0; }
  ulibc::NodeSet memory_nodes() const;
  // The node with memory nearest to `node` (itself if it has memory; ties: lowest id).
  int nearest_memory_node(int node) const;
};

// The machine this guest runs on, loaded by main() before any test.
const Machine& machine();
void set_machine(Machine m);

}  // namespace lab
