// eigen_check.cpp — the Jacobi–Davidson solver's long vectors lie on the nodes of the threads that use them: each
// thread's rows of every column of a search-space block (eigen::detail::Block, what V, A V, Q and the work vectors
// are) are on its node (a memory-less node's on the nearest node with memory); and the solver finds the same
// eigenvalues on a team that spans nodes as on one thread.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "eigen/eigen.hpp"
#include "eigen/problem.hpp"
#include "eigen/space.hpp"
#include "eigen/verify.hpp"
#include "lab.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/partition.hpp"

namespace {

using lab::describe;
using lab::machine;
using lab::where;
using ulibc::Mapping;
namespace eigen = ulibc::eigen;

// Rows enough that each of eight threads owns several whole pages of every column (16 bytes a row).
constexpr std::size_t kRows = 16384;
constexpr int kColumns = 3;

// The whole pages inside [first, last) are all on `node` (a range's ends share pages with its neighbours').
void expect_whole_pages_on(const void* first, const void* last, int node, const std::string& what) {
  const std::size_t page = ulibc::page_size();
  const auto begin = (reinterpret_cast<std::uintptr_t>(first) + page - 1) / page * page;
  const auto end = reinterpret_cast<std::uintptr_t>(last) / page * page;
  ASSERT_LT(begin, end) << what << ": no whole page";
  const auto placed = ulibc::page_placement(reinterpret_cast<const void*>(begin), end - begin);
  const auto on = placed.per_node.find(node);
  EXPECT_EQ(on == placed.per_node.end() ? 0 : on->second, placed.pages)
      << what << ": expected on node " << node << ", found " << describe(placed);
}

void placement_case(const Mapping& map) {
  const ulibc::ScopedOpenMPTeam bound(map);
  // The row split the solver makes (eigen.hpp: NodePartition(map, n) over the mapping's threads).
  const ulibc::zblas::Team team(ulibc::NodePartition(map, kRows), map.size());
  const eigen::detail::Block block(lab::live(), team, kRows, kColumns);
  for (int c = 0; c < kColumns; ++c)
    for (int t = 0; t < map.size(); ++t) {
      const ulibc::Range rows = team.range(t);
      expect_whole_pages_on(block.col(c) + rows.begin, block.col(c) + rows.end,
                            machine().nearest_memory_node(map[t].node),
                            "thread " + std::to_string(t) + "'s rows " + std::to_string(rows.begin) + "-" +
                                std::to_string(rows.end - 1) + " of column " + std::to_string(c));
    }
}

TEST(Eigen, SearchSpaceRowsOnTheirThreadsNode) {
  for (const Mapping& map : lab::team_mappings(lab::live())) lab::check(where(map), [&] { placement_case(map); });
}

// |a - b| within what both solves' tolerance allows, relative.
bool close(eigen::Complex a, eigen::Complex b, double tol) {
  return std::abs(a - b) <= tol * std::max(1.0, std::abs(b));
}

// The smallest team that spans nodes against one thread.
TEST(Eigen, SameEigenvaluesOnATeamThatSpansNodes) {
  const eigen::Problem p = eigen::generate("spectrum:200");
  const eigen::Options o{.nev = 2, .target = eigen::Complex(2.2, 0.3), .tol = 1e-10};
  const Mapping one = Mapping::build(lab::live(), ulibc::Policy(ulibc::PolicyKind::compact), 1);
  eigen::Result base;
  {
    const ulibc::ScopedOpenMPTeam bound(one);
    base = eigen::solve(p.a, o, lab::live(), one);
  }
  ASSERT_TRUE(base.converged) << "found " << base.found << " of " << o.nev << " on one thread";
  ASSERT_EQ(eigen::missing_wanted(*p.exact, base.values, o, 1e-7), "");
  std::vector<Mapping> maps = lab::team_mappings(lab::live());
  std::erase_if(maps, [](const Mapping& m) { return m.nodes_used() < 2; });
  ASSERT_FALSE(maps.empty()) << "no team spans nodes";
  // The fewest threads: more threads than the host's cores make every emulated barrier a wait for a time slice.
  const Mapping& map = *std::min_element(maps.begin(), maps.end(), [](const Mapping& a, const Mapping& b) {
    return std::pair(a.size(), -a.nodes_used()) < std::pair(b.size(), -b.nodes_used());
  });
  lab::check(where(map), [&] {
    const ulibc::ScopedOpenMPTeam bound(map);
    const eigen::Result r = eigen::solve(p.a, o, lab::live(), map);
    ASSERT_TRUE(r.converged) << "found " << r.found << " of " << o.nev;
    const eigen::Check c = eigen::verify(p.a, r, o);
    EXPECT_TRUE(c.ok) << c.failure;
    ASSERT_EQ(r.values.size(), base.values.size());
    // The same eigenvalues, not necessarily locked in the same order.
    for (const eigen::Complex v : r.values) {
      bool matched = false;
      for (const eigen::Complex b : base.values) matched = matched || close(v, b, 1e3 * o.tol);
      EXPECT_TRUE(matched) << v << " is none of the one-thread eigenvalues";
    }
  });
}

}  // namespace
