// ulibc/mapping.hpp — affinity policies and the thread → processor table.
//
// Usable processors U = online ∩ allowed, each with three dense ranks:
// its node among the nodes holding usable processors (by node id), its core
// among that node's cores (by package, core_id), and its SMT rank among the
// usable processors of that core (by processor id). A policy sorts U by a key
// of those ranks and thread t runs on the t-th processor of the order:
//   scatter  (smt, core, node)   spread over nodes first
//   compact  (node, smt, core)   fill a node, SMT siblings included
//   compact+ (smt, node, core)   fill nodes in order, every core before any sibling
// plus list:<cpulist> (that exact order) and none (no binding).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "ulibc/topology.hpp"

namespace ulibc {

enum class PolicyKind { none, scatter, compact, compact_plus, list };

class Policy {
 public:
  Policy() = default;
  explicit Policy(PolicyKind kind) : kind_(kind) {}
  static Policy explicit_list(std::vector<int> order);

  // "scatter", "compact", "compact+", "none", "list:0,8,16-23" (order kept,
  // repeats allowed). Error of kind input naming what is accepted otherwise.
  static Policy parse(std::string_view text);

  PolicyKind kind() const { return kind_; }
  const std::vector<int>& order() const { return order_; }  // list policy only
  std::string name() const;                                 // parses back to the same policy

 private:
  PolicyKind kind_ = PolicyKind::scatter;
  std::vector<int> order_;
};

// One thread's place. For the none policy proc, node, package, core_id and smt
// are -1 and every thread is in node index 0.
struct Placement {
  int thread = 0;
  int proc = -1;       // OS processor id
  int node = -1;       // NUMA node id
  int node_index = 0;  // dense rank among the nodes this mapping uses, by node id
  int package = -1;
  int core_id = -1;     // kernel core_id
  int core_index = -1;  // dense rank of the core within its node
  int smt = -1;         // rank among the usable processors of its core
  int ordcore = 0;      // rank among the threads mapped to the same node, by thread id
};

class Mapping {
 public:
  static constexpr int kMaxThreads = 16384;

  // Throws Error(input) for a thread count outside 1..kMaxThreads, no usable
  // processor, or a list naming a processor that is not usable.
  static Mapping build(const Topology& topo, const Policy& policy, int threads);

  const Policy& policy() const { return policy_; }
  int size() const { return static_cast<int>(threads_.size()); }
  const std::vector<Placement>& threads() const { return threads_; }
  const Placement& operator[](int thread) const { return threads_.at(static_cast<std::size_t>(thread)); }

  int nodes_used() const { return static_cast<int>(node_ids_.size()); }
  const std::vector<int>& node_ids() const { return node_ids_; }                  // node index → node id
  const std::vector<int>& threads_per_node() const { return threads_per_node_; }  // by node index
  int max_cores_per_node() const;    // the paper's Table 4 "cores per node"
  int max_threads_per_core() const;  // ... and "threads per core"
  // More threads than processors in the order: some processor runs several.
  bool oversubscribed() const { return oversubscribed_; }

 private:
  Policy policy_;
  std::vector<Placement> threads_;
  std::vector<int> node_ids_;
  std::vector<int> threads_per_node_;
  bool oversubscribed_ = false;
};

// Policy and thread count from the environment, as the C API and the command
// line use them when not given explicitly: ULIBC_POLICY; ULIBC_NUM_THREADS,
// else the first entry of OMP_NUM_THREADS. Unset → `fallback` (scatter; for
// a topology, one thread per usable processor). A malformed value is an
// Error(input) naming the variable.
Policy policy_from_env(const Policy& fallback = Policy());
int threads_from_env(int fallback);
int threads_from_env(const Topology& topo);

}  // namespace ulibc
