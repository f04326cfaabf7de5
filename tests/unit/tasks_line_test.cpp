// tasks_line_test.cpp — the task runtime's worker line and each worker's nearest-first victims, on a synthetic
// machine of 4 nodes × 2 cores × 2 SMT threads whose node distances are not in index order.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "fake_sysfs.hpp"
#include "sync/nearest_nodes.hpp"
#include "tasks/worker_line.hpp"
#include "ulibc.hpp"

namespace {

using namespace ulibc;  // Mapping, Placement, Policy, PolicyKind, Topology

// From node 0 the nearest is node 2, then 1, then 3.
const std::vector<std::vector<int>> kUneven = {{10, 30, 20, 40}, {30, 10, 40, 20}, {20, 40, 10, 30}, {40, 20, 30, 10}};

const Topology& machine() {
  static const Topology topo =
      ulibc::testing::load_fake({.packages = 4, .cores_per_package = 2, .smt = 2, .distances = kUneven});
  return topo;
}

// Under every policy the line runs node by node, core by core: contiguous workers share a node.
TEST(WorkerLine, RunsNodeByNodeUnderEveryPolicy) {
  for (const PolicyKind k : {PolicyKind::compact, PolicyKind::scatter, PolicyKind::compact_plus})
    for (const int threads : {4, 8, 16}) {
      const Mapping map = Mapping::build(machine(), Policy(k), threads);
      const std::vector<Placement> line = tasks::detail::worker_line(map);
      ASSERT_EQ(static_cast<int>(line.size()), threads);
      for (std::size_t w = 1; w < line.size(); ++w) {
        EXPECT_LE(line[w - 1].node_index, line[w].node_index) << Policy(k).name() << ", worker " << w;
        EXPECT_EQ(line[w].thread, static_cast<int>(w));
      }
      std::vector<int> procs, mapped;
      for (const Placement& p : line) procs.push_back(p.proc);
      for (const Placement& p : map.threads()) mapped.push_back(p.proc);
      std::sort(procs.begin(), procs.end());
      std::sort(mapped.begin(), mapped.end());
      EXPECT_EQ(procs, mapped) << "the line is the mapping's processors, reordered";
    }
  // compact's order is its own
  const Mapping compact = Mapping::build(machine(), Policy(PolicyKind::compact), 16);
  const std::vector<Placement> line = tasks::detail::worker_line(compact);
  for (int w = 0; w < 16; ++w) EXPECT_EQ(line[static_cast<std::size_t>(w)].proc, compact[w].proc);
}

// Worker 0 of a 16-worker compact line: its SMT sibling, the other core of node 0, then node 2's workers, node 1's,
// node 3's (the distances), each by distance along the line.
TEST(WorkerLine, VictimsAreNearestFirstByCoreNodeAndDistance) {
  const Mapping map = Mapping::build(machine(), Policy(PolicyKind::compact), 16);
  const std::vector<Placement> line = tasks::detail::worker_line(map);
  const auto order = tasks::detail::nearest_workers(line, 0, ulibc::detail::nodes_nearest_first(machine(), map));
  ASSERT_EQ(order.size(), 15u);
  const auto node_of = [&](int v) { return line[static_cast<std::size_t>(v)].node_index; };
  const auto core_of = [&](int v) { return line[static_cast<std::size_t>(v)].core_index; };
  EXPECT_EQ(node_of(order[0]), 0);
  EXPECT_EQ(core_of(order[0]), line[0].core_index) << "the SMT sibling first";
  EXPECT_EQ(node_of(order[1]), 0);
  EXPECT_EQ(node_of(order[2]), 0);
  for (int k = 3; k < 7; ++k) EXPECT_EQ(node_of(order[static_cast<std::size_t>(k)]), 2) << k;
  for (int k = 7; k < 11; ++k) EXPECT_EQ(node_of(order[static_cast<std::size_t>(k)]), 1) << k;
  for (int k = 11; k < 15; ++k) EXPECT_EQ(node_of(order[static_cast<std::size_t>(k)]), 3) << k;
  EXPECT_LT(order[3], order[4]) << "within a node, nearer along the line first";
}

}  // namespace
