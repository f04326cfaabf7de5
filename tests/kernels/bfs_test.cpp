// bfs_test.cpp — the BFS kernels against a sequential reference: exact
// trees on hand-made graphs, valid trees with the reference's levels on
// random and Kronecker graphs, every direction and team size, the plain
// kernel and the NUMA kernel (live machine and synthetic multi-node ones),
// direction switching, state reset between searches, and the refusals.
#include "bfs/bfs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <queue>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "graph/builder.hpp"
#include "graph/generator.hpp"
#include "ulibc/memory.hpp"

namespace {

using namespace ulibc;
using namespace ulibc::bfs;
using graph::Edge;
using graph::EdgeList;
using ulibc::testing::expect_input_error;
using ulibc::testing::FakeMachine;

constexpr Vertex U = kUnreached;
constexpr Direction kDirections[] = {Direction::top_down, Direction::bottom_up, Direction::optimizing};
constexpr int kTeams[] = {1, 2, 3, 4};  // more threads than this machine's processors is fine

std::string name(Direction d) {
  switch (d) {
    case Direction::top_down:
      return "top-down";
    case Direction::bottom_up:
      return "bottom-up";
    case Direction::optimizing:
      return "optimizing";
  }
  return "?";
}

CsrGraph graph_of(Vertex n, std::vector<Edge> edges) {
  return graph::build_undirected(EdgeList{n, std::move(edges)}, 1);
}

CsrGraph kronecker_graph(int scale, int edgefactor = 16, std::uint64_t seed = 1) {
  return graph::build_undirected(graph::kronecker({.scale = scale, .edgefactor = edgefactor, .seed = seed}, 0), 0);
}

CsrGraph random_graph(Vertex n, std::int64_t edges, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<Vertex> pick(0, n - 1);
  EdgeList list{n, {}};
  for (std::int64_t i = 0; i < edges; ++i) list.edges.push_back({pick(rng), pick(rng)});
  return graph::build_undirected(list, 0);
}

// The reference: levels by a sequential queue BFS, -1 where unreached.
std::vector<int> reference_levels(const CsrGraph& g, Vertex root) {
  std::vector<int> level(static_cast<std::size_t>(g.vertices()), -1);
  std::queue<Vertex> q;
  level[static_cast<std::size_t>(root)] = 0;
  for (q.push(root); !q.empty(); q.pop())
    for (Vertex v : g.neighbours(q.front()))
      if (level[static_cast<std::size_t>(v)] < 0) {
        level[static_cast<std::size_t>(v)] = level[static_cast<std::size_t>(q.front())] + 1;
        q.push(v);
      }
  return level;
}

bool has_edge(const CsrGraph& g, Vertex u, Vertex v) {
  const auto list = g.neighbours(u);
  return std::binary_search(list.begin(), list.end(), v);  // the builder sorts each list
}

// A BFS tree of g from root: the root its own parent, every other vertex
// reached exactly when the reference reaches it, through an edge of g from
// a vertex one level closer to the root. The first failure only, as a message.
std::string tree_failure(const CsrGraph& g, Vertex root, std::span<const Vertex> parent) {
  if (parent.size() != static_cast<std::size_t>(g.vertices()))
    return "parent has " + std::to_string(parent.size()) + " entries for " + std::to_string(g.vertices()) + " vertices";
  const std::vector<int> level = reference_levels(g, root);
  if (parent[static_cast<std::size_t>(root)] != root) return "the root's parent is " + std::to_string(parent[root]);
  for (Vertex v = 0; v < g.vertices(); ++v) {
    const Vertex p = parent[static_cast<std::size_t>(v)];
    const int want = level[static_cast<std::size_t>(v)];
    const auto failure = [&](const char* what) {
      return "vertex " + std::to_string(v) + " (level " + std::to_string(want) + ", parent " + std::to_string(p) +
             "): " + what;
    };
    if (v == root) continue;
    if (want < 0) {
      if (p != U) return failure("reached, though not in the root's component");
      continue;
    }
    if (p < 0 || p >= g.vertices()) return failure("not reached");
    if (!has_edge(g, v, p)) return failure("the tree edge is not an edge of the graph");
    if (level[static_cast<std::size_t>(p)] + 1 != want) return failure("its parent is not one level closer");
  }
  return "";
}

void expect_tree(const CsrGraph& g, Vertex root, std::span<const Vertex> parent) {
  const std::string failure = tree_failure(g, root, parent);
  EXPECT_EQ(failure, "") << "root " << root;
}

std::int64_t reached(std::span<const Vertex> parent) {
  return std::count_if(parent.begin(), parent.end(), [](Vertex p) { return p != U; });
}

// The steps of the last search chain up: each starts from what the last one
// found, and together they found every reached vertex but the root.
void expect_steps_chain(const Bfs& bfs, std::span<const Vertex> parent) {
  std::int64_t found = 0, frontier = 1;
  for (const Step& s : bfs.steps()) {
    EXPECT_EQ(s.frontier, frontier);
    frontier = s.discovered;
    found += s.discovered;
  }
  EXPECT_EQ(found, reached(parent) - 1);
}

// Every direction and team: the parents are exactly `want`.
void expect_parents(const CsrGraph& g, Vertex root, const std::vector<Vertex>& want) {
  for (int threads : kTeams) {
    Bfs bfs(g, threads);
    for (Direction d : kDirections) {
      SCOPED_TRACE(name(d) + ", " + std::to_string(threads) + " threads, root " + std::to_string(root));
      const auto parent = bfs.search(root, {.direction = d});
      EXPECT_EQ(std::vector<Vertex>(parent.begin(), parent.end()), want);
      expect_steps_chain(bfs, parent);
    }
  }
}

// Every direction and team: a valid tree with the reference's levels.
void expect_trees(const CsrGraph& g, const std::vector<Vertex>& roots, std::span<const int> teams = kTeams) {
  for (int threads : teams) {
    Bfs bfs(g, threads);
    for (Direction d : kDirections)
      for (Vertex root : roots) {
        SCOPED_TRACE(name(d) + ", " + std::to_string(threads) + " threads");
        const auto parent = bfs.search(root, {.direction = d});
        expect_tree(g, root, parent);
        expect_steps_chain(bfs, parent);
      }
  }
}

// Roots of degree at least one, spread over the graph, as Graph500 picks them.
std::vector<Vertex> roots_of(const CsrGraph& g, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<Vertex> pick(0, g.vertices() - 1);
  std::vector<Vertex> roots;
  while (static_cast<int>(roots.size()) < count)
    if (const Vertex v = pick(rng); g.degree(v) > 0) roots.push_back(v);
  return roots;
}

// --- Hand-made graphs with known trees -----------------------------------

TEST(Bfs, PathFromAnEndAndFromTheMiddle) {
  const CsrGraph g = graph_of(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}});
  expect_parents(g, 0, {0, 0, 1, 2, 3});
  expect_parents(g, 2, {1, 2, 2, 2, 3});
  expect_parents(g, 4, {1, 2, 3, 4, 4});
}

TEST(Bfs, StarFromTheCentreAndFromALeaf) {
  std::vector<Edge> edges;
  for (Vertex leaf = 1; leaf < 9; ++leaf) edges.push_back({0, leaf});
  const CsrGraph g = graph_of(9, edges);
  expect_parents(g, 0, {0, 0, 0, 0, 0, 0, 0, 0, 0});
  expect_parents(g, 3, {3, 0, 0, 3, 0, 0, 0, 0, 0});
}

TEST(Bfs, CycleMeetsItselfOppositeTheRoot) {
  const CsrGraph g = graph_of(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}});
  for (int threads : kTeams) {
    Bfs bfs(g, threads);
    for (Direction d : kDirections) {
      SCOPED_TRACE(name(d) + ", " + std::to_string(threads) + " threads");
      const auto parent = bfs.search(0, {.direction = d});
      // Levels 0 1 2 3 2 1: only vertex 3 has a choice of parents.
      EXPECT_EQ(parent[0], 0);
      EXPECT_EQ(parent[1], 0);
      EXPECT_EQ(parent[5], 0);
      EXPECT_EQ(parent[2], 1);
      EXPECT_EQ(parent[4], 5);
      EXPECT_TRUE(parent[3] == 2 || parent[3] == 4) << parent[3];
      expect_tree(g, 0, parent);
    }
  }
}

TEST(Bfs, TheOtherComponentStaysUnreached) {
  const CsrGraph g = graph_of(6, {{0, 1}, {1, 2}, {3, 4}, {4, 5}});
  expect_parents(g, 0, {0, 0, 1, U, U, U});
  expect_parents(g, 4, {U, U, U, 4, 4, 4});
}

TEST(Bfs, SelfLoopsAndDuplicatesChangeNothing) {
  const CsrGraph g = graph_of(4, {{0, 0}, {0, 1}, {1, 0}, {1, 2}, {2, 1}, {1, 2}, {2, 2}, {3, 3}});
  expect_parents(g, 0, {0, 0, 1, U});
  expect_parents(g, 3, {U, U, U, 3});
}

TEST(Bfs, SingleVertex) { expect_parents(graph_of(1, {}), 0, {0}); }

TEST(Bfs, RootWithoutEdgesIsItsOwnTree) {
  const CsrGraph g = graph_of(5, {{1, 2}, {2, 3}, {3, 4}, {4, 1}});
  expect_parents(g, 0, {0, U, U, U, U});
}

TEST(Bfs, VerticesBeyondOneBitmapWord) {
  // 200 vertices on a path: levels cross several 64-vertex words, in both directions.
  std::vector<Edge> edges;
  for (Vertex v = 0; v + 1 < 200; ++v) edges.push_back({v, v + 1});
  const CsrGraph g = graph_of(200, edges);
  std::vector<Vertex> want(200);
  for (Vertex v = 0; v < 200; ++v) want[static_cast<std::size_t>(v)] = v < 130 ? v + 1 : v - 1;
  want[130] = 130;
  expect_parents(g, 130, want);
}

// --- Larger graphs against the reference ---------------------------------

TEST(Bfs, RandomGraphsGiveTheReferenceLevels) {
  expect_trees(random_graph(5000, 12000, 7), {0, 1, 2499, 4999});
  // Sparse: many components, many vertices without edges.
  const CsrGraph sparse = random_graph(3000, 1500, 8);
  expect_trees(sparse, roots_of(sparse, 4, 9));
}

TEST(Bfs, KroneckerGraphsGiveTheReferenceLevels) {
  const CsrGraph g = kronecker_graph(12);
  expect_trees(g, roots_of(g, 8, 1));
}

TEST(Bfs, OptimizingSwitchesToBottomUpAndBack) {
  const CsrGraph g = kronecker_graph(14);
  Bfs bfs(g, 2);
  int switched = 0, stayed = 0;
  for (Vertex root : roots_of(g, 8, 2)) {
    const auto parent = bfs.search(root);
    expect_tree(g, root, parent);
    const auto& steps = bfs.steps();
    ASSERT_GE(steps.size(), 3u);
    EXPECT_EQ(steps.front().direction, Direction::top_down) << "the root alone is a small frontier";
    const auto first_bu =
        std::find_if(steps.begin(), steps.end(), [](const Step& s) { return s.direction == Direction::bottom_up; });
    const bool back = first_bu != steps.end() && std::any_of(first_bu, steps.end(), [](const Step& s) {
                        return s.direction == Direction::top_down;
                      });
    if (back) ++switched;
    // Bottom-up continues while the frontier grows or stays large.
    const auto run = std::adjacent_find(steps.begin(), steps.end(), [](const Step& a, const Step& b) {
      return a.direction == Direction::bottom_up && b.direction == Direction::bottom_up;
    });
    if (run != steps.end()) ++stayed;
  }
  EXPECT_GE(switched, 6) << "a Kronecker graph's middle levels are wide: bottom-up, then top-down for the tail";
  EXPECT_GE(stayed, 6) << "the widest levels come in pairs or more";
}

TEST(Bfs, FixedDirectionsNeverSwitch) {
  const CsrGraph g = kronecker_graph(12);
  Bfs bfs(g, 2);
  const Vertex root = roots_of(g, 1, 3)[0];
  for (Direction d : {Direction::top_down, Direction::bottom_up}) {
    bfs.search(root, {.direction = d});
    for (const Step& s : bfs.steps()) EXPECT_EQ(s.direction, d);
  }
}

TEST(Bfs, AlphaAndBetaMoveTheSwitch) {
  const CsrGraph g = kronecker_graph(12);
  Bfs bfs(g, 2);
  const Vertex root = roots_of(g, 1, 4)[0];
  const auto count_bu = [&] {
    return std::count_if(bfs.steps().begin(), bfs.steps().end(),
                         [](const Step& s) { return s.direction == Direction::bottom_up; });
  };
  // Bottom-up once the frontier's edges exceed 1/alpha of the unexamined ones.
  expect_tree(g, root, bfs.search(root, {.alpha = 1e12}));  // as soon as the frontier has an edge
  const auto eager = count_bu();
  expect_tree(g, root, bfs.search(root, {.alpha = 1e-9}));  // never
  EXPECT_EQ(count_bu(), 0);
  expect_tree(g, root, bfs.search(root));
  EXPECT_GE(eager, count_bu());
  EXPECT_GT(count_bu(), 0);
}

TEST(Bfs, EachSearchStartsAfresh) {
  // Two components: a search from one after a search from the other must
  // not keep anything of it, whatever the directions.
  const CsrGraph g = graph_of(300, [] {
    std::vector<Edge> e;
    for (Vertex v = 0; v + 1 < 150; ++v) e.push_back({v, v + 1});
    for (Vertex v = 150; v + 1 < 300; ++v) e.push_back({v, v + 1});
    for (Vertex v = 150; v < 300; ++v) e.push_back({v, (v * 7) % 150 + 150});
    return e;
  }());
  for (int threads : {1, 3}) {
    Bfs bfs(g, threads);
    for (Direction first : kDirections)
      for (Direction second : kDirections) {
        bfs.search(0, {.direction = first});
        const auto parent = bfs.search(200, {.direction = second});
        expect_tree(g, 200, parent);
        EXPECT_EQ(reached(parent), 150);
        const auto again = bfs.search(0, {.direction = second});
        expect_tree(g, 0, again);
        EXPECT_EQ(reached(again), 150);
      }
  }
}

TEST(Bfs, ReportsItsShapeAndMemory) {
  const CsrGraph g = kronecker_graph(10);
  Bfs bfs(g, 3);
  EXPECT_EQ(bfs.threads(), 3);
  EXPECT_EQ(bfs.parts(), 1);
  EXPECT_EQ(bfs.part_range(0), std::pair(Vertex{0}, g.vertices()));
  expect_input_error([&] { bfs.part_range(1); }, "no part 1 (0..0)");
  EXPECT_EQ(bfs.vertices(), g.vertices());
  // At least the parents and the queue, and the graph copy in degree order.
  EXPECT_GE(bfs.bytes(), 2 * sizeof(Vertex) * static_cast<std::size_t>(g.vertices()) + g.bytes());
  Bfs moved = std::move(bfs);
  expect_tree(g, 5, moved.search(5));
}

TEST(Bfs, RefusesRootsOutsideTheGraphAndEmptyTeams) {
  const CsrGraph g = graph_of(64, {{0, 1}});
  Bfs bfs(g, 2);
  expect_input_error([&] { bfs.search(99); }, "root 99 is not a vertex of the graph (0..63)");
  expect_input_error([&] { bfs.search(64); }, "root 64 is not a vertex");
  expect_input_error([&] { bfs.search(-1); }, "root -1 is not a vertex");
  expect_input_error([&] { bfs.search(0, {.alpha = 0}); }, "must be positive");
  expect_input_error([&] { bfs.search(0, {.beta = -1}); }, "must be positive");
  expect_input_error([&] { Bfs(g, 0); }, "at least 1 thread");
  const CsrGraph empty;
  Bfs none(empty, 2);
  EXPECT_EQ(none.vertices(), 0);
  expect_input_error([&] { none.search(0); }, "root 0 is not a vertex of the graph");
  // The kernel still works after a refusal.
  expect_tree(g, 1, bfs.search(1));
}

// --- The NUMA kernel -----------------------------------------------------

const Topology& live() {
  static const Topology topo = Topology::load("/", Detail::placement);
  return topo;
}

// Every direction, several roots: valid trees with the reference's levels.
void expect_numa_trees(const CsrGraph& g, const Topology& topo, const Mapping& map, int roots) {
  Bfs numa(g, topo, map);
  EXPECT_EQ(numa.threads(), map.size());
  EXPECT_EQ(numa.parts(), map.nodes_used());
  // The parts tile the vertices in node order, each starting on a whole bitmap page.
  Vertex covered = 0;
  for (int k = 0; k < numa.parts(); ++k) {
    const auto [first, last] = numa.part_range(k);
    EXPECT_EQ(first, covered) << "part " << k;
    EXPECT_LE(first, last) << "part " << k;
    EXPECT_EQ(static_cast<std::size_t>(first) % (page_size() * 8), 0u) << "part " << k;
    covered = last;
  }
  EXPECT_EQ(covered, g.vertices());
  EXPECT_GE(numa.bytes(), g.bytes()) << "each node's part of the graph is copied";
  for (Vertex root : roots_of(g, roots, 5))
    for (Direction d : kDirections) {
      SCOPED_TRACE(name(d) + ", " + map.policy().name() + ", " + std::to_string(map.size()) + " threads");
      const auto parent = numa.search(root, {.direction = d});
      expect_tree(g, root, parent);
      expect_steps_chain(numa, parent);
    }
}

TEST(BfsNuma, LiveMachineScatterAndCompact) {
  const CsrGraph g = kronecker_graph(13);
  for (PolicyKind kind : {PolicyKind::scatter, PolicyKind::compact, PolicyKind::none})
    for (int threads : {1, 2, 3}) expect_numa_trees(g, live(), Mapping::build(live(), Policy(kind), threads), 3);
}

TEST(BfsNuma, OnOneNodeMatchesThePlainKernelStepForStep) {
  // One part: the same search as the plain kernel, so the same levels and
  // frontier sizes (the trees may differ: which parent wins a race is free).
  const CsrGraph g = kronecker_graph(12);
  const Mapping map = Mapping::build(live(), Policy(PolicyKind::compact), 2);
  if (map.nodes_used() != 1) GTEST_SKIP() << "the live machine spreads 2 threads over nodes";
  Bfs numa(g, live(), map), plain(g, 2);
  for (Vertex root : roots_of(g, 4, 6)) {
    numa.search(root);
    plain.search(root);
    ASSERT_EQ(numa.steps().size(), plain.steps().size());
    for (std::size_t i = 0; i < numa.steps().size(); ++i) {
      EXPECT_EQ(numa.steps()[i].direction, plain.steps()[i].direction);
      EXPECT_EQ(numa.steps()[i].frontier, plain.steps()[i].frontier);
      EXPECT_EQ(numa.steps()[i].discovered, plain.steps()[i].discovered);
    }
  }
}

TEST(BfsNuma, ParentsOfEachPartAreBoundToTheirNode) {
  const CsrGraph g = kronecker_graph(12);
  const Mapping map = Mapping::build(live(), Policy(PolicyKind::scatter), live().usable().count());
  Bfs bfs(g, live(), map);
  const auto parent = bfs.search(roots_of(g, 1, 7)[0]);
  const MemPolicy pol = memory_policy(parent.data());
  EXPECT_EQ(pol.mode, MemPolicyMode::bind);
  EXPECT_EQ(pol.nodes, NodeSet{nearest_memory_node(live(), map.node_ids().front())});
}

// Synthetic machines with several nodes. Nodes 1.. have no memory, so their
// parts are bound to node 0, which every Linux machine has: the partitioning
// runs for real here, on one memory node.
TEST(BfsNuma, SyntheticMultiNodeMachines) {
  const Topology four =
      ulibc::testing::load_fake({.packages = 4, .cores_per_package = 2, .memoryless_nodes = CpuSet::parse_list("1-3")});
  // Over 4 x 32768 vertices, so that every node gets a part (of whole bitmap pages).
  const CsrGraph g = random_graph(140000, 300000, 10);
  // One thread per node, two per node, and 2 + 1 threads on two nodes.
  for (const auto& [kind, threads] :
       {std::pair{PolicyKind::scatter, 4}, std::pair{PolicyKind::scatter, 8}, std::pair{PolicyKind::compact, 3}})
    expect_numa_trees(g, four, Mapping::build(four, Policy(kind), threads), 2);
}

TEST(BfsNuma, SyntheticNodesWithMoreNodesThanBitmapPages) {
  // 1000 vertices over 4 nodes: the alignment leaves all to the last node;
  // the empty parts' threads still take part in every barrier.
  const Topology four =
      ulibc::testing::load_fake({.packages = 4, .cores_per_package = 1, .memoryless_nodes = CpuSet::parse_list("1-3")});
  const CsrGraph g = random_graph(1000, 3000, 11);
  const Mapping map = Mapping::build(four, Policy(PolicyKind::scatter), 4);
  expect_numa_trees(g, four, map, 4);
  // And a graph without vertices: nothing to allocate, every root refused.
  Bfs none(CsrGraph(), four, map);
  expect_input_error([&] { none.search(0); }, "root 0 is not a vertex");
}

}  // namespace
