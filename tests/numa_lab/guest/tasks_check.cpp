// tasks_check.cpp — ADWS places a loop where its data lives: under ADWS without stealing, every leaf of a
// parallel_for over a NodeArray's range runs on a processor of the node whose part holds the leaf (sched_getcpu),
// and that part's pages are on that node (move_pages; a memory-less node's on the nearest node with memory), for
// every policy and thread count; for even work, and for uneven work with the array laid out by adws_node_begins.
//
// Why it holds: the worker line groups the mapping's threads node by node in node order, a loop of equal work
// gives worker w the elements [n·w/W, n·(w+1)/W), and NodePartition gives node k the elements in proportion to its
// threads, in the same order. n is W·512·64 doubles: every node boundary falls on a page, and no leaf crosses one.
// For uneven work the node boundaries are where adws_node_begins says, and the parts begin on the page that holds
// them: the leaves that start inside such a page run on the node after the page's.
#include <gtest/gtest.h>
#include <sched.h>

#include <vector>

#include "lab.hpp"
#include "ulibc/node_array.hpp"
#include "ulibc/tasks.hpp"

namespace {

using lab::describe;
using lab::machine;
using lab::where;
using ulibc::Mapping;

constexpr std::size_t kPageDoubles = 512, kPagesPerWorker = 64;

// The node index (of the mapping) whose part of `a` holds element i.
int part_of(const ulibc::NodeArray<double>& a, std::size_t i) {
  for (int k = 0; k < a.partition().nodes(); ++k)
    if (i < a.partition().node_range(k).end) return k;
  return -1;
}

// The node index (of the mapping) that runs element i by `begins`.
int node_by(const std::vector<std::size_t>& begins, std::size_t i) {
  int k = 0;
  while (k + 1 < static_cast<int>(begins.size()) && begins[static_cast<std::size_t>(k) + 1] <= i) ++k;
  return k;
}

// profile: nullptr for even work (the array split by threads), else the loop's work (the array by its begins).
void adws_case(const Mapping& map, const ulibc::tasks::WorkProfile* profile) {
  const std::size_t n = static_cast<std::size_t>(map.size()) * kPageDoubles * kPagesPerWorker;
  const std::vector<std::size_t> begins = ulibc::tasks::adws_node_begins(map, n, kPageDoubles, profile);
  ulibc::NodeArray<double> a =
      profile ? ulibc::NodeArray<double>(lab::live(), map, n, begins) : ulibc::NodeArray<double>(lab::live(), map, n);
  a.fill(0.0);
  ulibc::tasks::Runtime rt(lab::live(), map, {.scheduler = ulibc::tasks::Scheduler::adws, .stealing = false});
  std::vector<int> cpu_of_leaf(n, -1);  // by a leaf's first element
  rt.run([&] {
    ulibc::tasks::parallel_for(
        0, n, kPageDoubles,
        [&](std::size_t i, std::size_t j) {
          cpu_of_leaf[i] = sched_getcpu();
          for (std::size_t k = i; k < j; ++k) a[k] += 1.0;
        },
        profile);
  });
  int leaves = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (cpu_of_leaf[i] < 0) continue;
    ++leaves;
    const int k = node_by(begins, i);
    const int node = map.node_ids()[static_cast<std::size_t>(k)];
    const ulibc::Processor* p = lab::live().processor(cpu_of_leaf[i]);
    ASSERT_NE(p, nullptr) << "processor " << cpu_of_leaf[i];
    EXPECT_EQ(p->node, node) << "the leaf at element " << i << " ran on processor " << cpu_of_leaf[i] << " of node "
                             << p->node << ", its data is node " << node << "'s part";
    if (part_of(a, i) != k) continue;  // in the page that holds node k's first element: the node before's
    // The page of the leaf's first element (a leaf's rows need not start on a page when W is not a power of 2;
    // the node boundaries do, so that page lies in node k's part).
    const auto placed = ulibc::page_placement(&a[i], sizeof(double));
    const int holder = machine().nearest_memory_node(node);
    const auto on = placed.per_node.find(holder);
    EXPECT_EQ(on == placed.per_node.end() ? 0 : on->second, placed.pages)
        << "the page at element " << i << ": expected on node " << holder << ", found " << describe(placed);
  }
  EXPECT_GE(leaves, static_cast<int>(n / kPageDoubles));  // pieces of at most a page each
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += a[i] != 1.0;
  EXPECT_EQ(wrong, 0u) << "elements the loop did not reach exactly once";
}

TEST(Tasks, AdwsRunsEachLeafOnTheNodeOfItsData) {
  for (const Mapping& map : lab::team_mappings(lab::live())) lab::check(where(map), [&] { adws_case(map, nullptr); });
}

// The first quarter of the elements carries three quarters of the work: most workers, and nodes, run it.
TEST(Tasks, AdwsRunsUnevenWorkOnTheNodeThatHoldsItsData) {
  for (const Mapping& map : lab::team_mappings(lab::live())) {
    const std::size_t n = static_cast<std::size_t>(map.size()) * kPageDoubles * kPagesPerWorker;
    std::vector<double> cost(n, 1.0);
    for (std::size_t i = 0; i < n / 4; ++i) cost[i] = 9.0;
    const ulibc::tasks::WorkProfile profile(cost);
    lab::check(where(map) + ", uneven", [&] { adws_case(map, &profile); });
  }
}

}  // namespace
