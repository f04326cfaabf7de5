// simpath/build.hpp — the frontier-based search: sequential and edge-based parallel.
//
// Step by step, each node's two children (the step's edge left out, taken)
// are computed by the mate rule (frontier.hpp) and merged with the equal
// states of their step. Zero-suppression is applied on the way (TdZdd's
// lookahead): a child whose own edge cannot be taken would be replaced by
// its lo child in the ZDD, so the search goes straight on to that, and a
// child may lie several steps below its parent. The result is the search's
// diagram: per step the nodes, each with its two children; equal states are
// shared but equal sub-diagrams not yet (see reduce.hpp).
//
// Sequential (one thread): step after step, every node of a step expanded
// before the next step starts.
// Edge-based (EBA, Takeuchi, Kawahara, Kishimoto and Minato, WALCOM 2013):
// thread j of k owns steps j, j+k, j+2k, …; the owner of step i takes child
// states from its queues as they come (request_queue.hpp; one queue per step
// and thread that sends to it), merges them in its own table
// (state_table.hpp) and expands each new node at once, sending each child
// straight to the owner of the child's step. The steps form a pipeline with
// no locks; each queue has one writer and one reader. Nodes are numbered in
// the order their states arrive, which depends on the threads' timing; the
// states of each step, and so the reduced ZDD, do not.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "simpath/frontier.hpp"
#include "simpath/level_nodes.hpp"
#include "simpath/memory_budget.hpp"

namespace ulibc::simpath::detail {

class Diagram {
 public:
  std::vector<LevelNodes> levels;             // levels[i]: the nodes deciding edge i
  NodeRef root = kZero;                       // a terminal when no edge can be taken
  int max_skip = 1;                           // the most steps between a node and a child
  std::vector<std::uint64_t> states() const;  // nodes per step

  // Node `index` of `step`'s child on the branch `take`. Any thread may set
  // the children of different nodes at once.
  void set_child(int step, std::uint64_t index, bool take, NodeRef child) {
    std::uint32_t& slot = take ? levels[step][index].hi : levels[step][index].lo;
    slot = child_code(step, child);
    if (slot == kFarChild) set_far(step, index, take, child);
  }
  NodeRef child(int step, std::uint64_t index, bool take) const {
    return child(step, index, levels[step][index], take);
  }
  // The same, given the node's children `c` (read in runs: LevelNodes::run_from).
  NodeRef child(int step, std::uint64_t index, const NodeChildren& c, bool take) const {
    const std::uint32_t code = take ? c.hi : c.lo;
    return code == kFarChild ? far(step, index, take) : child_ref(step, code);
  }

 private:
  // Children that do not fit a code: rare (a child 16 or more steps below,
  // or a step of 2^28 nodes), so one map under one lock.
  struct Far {
    std::mutex lock;
    std::unordered_map<std::uint64_t, NodeRef> refs;
  };
  static std::uint64_t far_key(int step, std::uint64_t index, bool take) {
    return static_cast<std::uint64_t>(step) << 42 | index << 1 | static_cast<std::uint64_t>(take);
  }
  void set_far(int step, std::uint64_t index, bool take, NodeRef child);
  NodeRef far(int step, std::uint64_t index, bool take) const;
  std::unique_ptr<Far> far_ = std::make_unique<Far>();
};

// Runs on an OpenMP team of `threads` (1: sequential; the caller places the
// team, e.g. with bind_openmp_team). Error(input) when `budget` runs out,
// naming the limit, the step reached and the nodes made by then.
Diagram build_diagram(const FrontierPlan& plan, int threads, MemoryBudget& budget);

}  // namespace ulibc::simpath::detail
