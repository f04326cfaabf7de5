// bfs_verify_test.cpp — the BFS verifier, Graph500's validation, on good trees and broken ones.
//
// It accepts BFS trees, and catches a tree broken in each of the five ways the specification checks.
#include <gtest/gtest.h>

#include <vector>

#include "bfs/verify.hpp"

namespace {

using ulibc::bfs::validate;
using ulibc::bfs::Vertex;
using ulibc::graph::EdgeList;

using ulibc::bfs::kUnreached;

// 0 - 1 - 3 - 4, 0 - 2 - 3; vertex 5 alone; a self-loop on 4 and a repeated
// edge {1, 0}, which count towards Graph500's edges but change nothing else.
EdgeList diamond() { return {6, {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {4, 4}, {1, 0}}}; }
// A BFS tree from 0: levels 0, 1, 1, 2, 3.
std::vector<Vertex> tree() { return {0, 0, 0, 1, 3, kUnreached}; }

void expect_caught(const std::vector<Vertex>& parent, const std::string& check) {
  for (int threads : {1, 2, 3}) {
    const auto v = validate(diamond(), 0, parent, threads);
    EXPECT_FALSE(v.valid);
    EXPECT_TRUE(v.failure.starts_with(check)) << v.failure;
  }
}

TEST(Validate, AcceptsBfsTreesAndCountsTheComponentsTuples) {
  for (const std::vector<Vertex>& parent : {tree(), std::vector<Vertex>{0, 0, 0, 2, 3, kUnreached}})
    for (int threads : {1, 2, 4}) {
      const auto v = validate(diamond(), 0, parent, threads);
      ASSERT_TRUE(v.valid) << v.failure;
      EXPECT_EQ(v.edges, 7);  // every tuple, the self-loop and the repeat included
      EXPECT_EQ(v.reached, 5);
      EXPECT_EQ(v.depth, 3);
    }
}

TEST(Validate, AVertexWithoutEdgesIsATreeOfOne) {
  const auto v =
      validate(diamond(), 5, std::vector<Vertex>{kUnreached, kUnreached, kUnreached, kUnreached, kUnreached, 5});
  ASSERT_TRUE(v.valid) << v.failure;
  EXPECT_EQ(v.edges, 0);
  EXPECT_EQ(v.reached, 1);
  EXPECT_EQ(v.depth, 0);
}

TEST(Validate, CatchesARootThatIsNotItsOwnParent) {
  auto parent = tree();
  parent[0] = 1;
  expect_caught(parent, "check 1 (root)");
}

TEST(Validate, CatchesInconsistentParents) {
  auto cycle = tree();
  cycle[3] = 4;  // 3 -> 4 -> 3: never reaches the root
  expect_caught(cycle, "check 2 (parents)");
  auto unreached_parent = tree();
  unreached_parent[4] = 5;
  expect_caught(unreached_parent, "check 2 (parents)");
  auto not_a_vertex = tree();
  not_a_vertex[4] = 9;
  expect_caught(not_a_vertex, "check 2 (parents)");
  auto self_parent = tree();
  self_parent[4] = 4;
  expect_caught(self_parent, "check 2 (parents)");
}

TEST(Validate, CatchesATreeEdgeThatIsNotInTheGraph) {
  auto parent = tree();
  parent[4] = 1;  // levels stay consistent (4 at level 2, like 3), but {1, 4} is no edge
  expect_caught(parent, "check 3 (tree edges)");
}

TEST(Validate, CatchesLevelsThatDifferByMoreThanOneAlongAnEdge) {
  auto parent = tree();
  parent[2] = 3;  // {2, 3} is an edge, but now 2 sits at level 3 while its neighbour 0 is at 0
  expect_caught(parent, "check 4 (levels)");
}

TEST(Validate, CatchesAComponentNotSpannedWhole) {
  auto parent = tree();
  parent[4] = kUnreached;
  expect_caught(parent, "check 5 (component)");
}

TEST(Validate, RejectsAParentArrayOfTheWrongSizeOrABadRoot) {
  EXPECT_FALSE(validate(diamond(), 0, std::vector<Vertex>{0, 0, 0}).valid);
  const auto v = validate(diamond(), 6, tree());
  EXPECT_FALSE(v.valid);
  EXPECT_NE(v.failure.find("root 6"), std::string::npos) << v.failure;
}

}  // namespace
