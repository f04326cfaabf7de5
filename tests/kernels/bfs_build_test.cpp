// bfs_build_test.cpp — the BFS kernels' graph built straight from the
// tuples (no CSR beside it): the same lists as the copy of the builder's CSR
// for every team and layout, the same counts of what was dropped, what
// bytes() reports, refusals of bad tuples; and the validator and the keys'
// draw on tuples drawn again from the generator instead of held.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bfs/bfs.hpp"
#include "bfs/graph500.hpp"
#include "bfs/search_graph.hpp"
#include "bfs/verify.hpp"
#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "graph/builder.hpp"
#include "graph/generator.hpp"
#include "graph/tuples.hpp"

namespace {

using namespace ulibc;
using namespace ulibc::bfs;
namespace bd = ulibc::bfs::detail;
using graph::Edge;
using graph::EdgeList;
using graph::Tuples;
using ulibc::testing::expect_input_error;

EdgeList random_list(Vertex n, std::int64_t edges, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<Vertex> pick(0, n - 1);
  EdgeList list{n, {}};
  for (std::int64_t i = 0; i < edges; ++i) list.edges.push_back({pick(rng), pick(rng)});
  return list;
}

// Self-loops, an edge given four times both ways round, isolated vertices (0, 7, 9).
EdgeList awkward() {
  return {10, {{1, 2}, {2, 1}, {3, 3}, {1, 2}, {4, 5}, {5, 5}, {2, 1}, {8, 1}, {6, 4}, {2, 8}, {3, 6}}};
}

const Topology& four_nodes() {
  // Nodes 1.. have no memory: their parts are bound to node 0, which every machine has.
  static const Topology topo =
      ulibc::testing::load_fake({.packages = 4, .cores_per_package = 2, .memoryless_nodes = CpuSet::parse_list("1-3")});
  return topo;
}

// Every part's offsets, lists (in their order) and top neighbours are equal.
void expect_same_graph(const bd::SearchGraph& a, const bd::SearchGraph& b, const bd::Layout& layout) {
  ASSERT_EQ(a.arcs(), b.arcs());
  for (int p = 0; p < layout.parts(); ++p) {
    const bd::GraphPart& x = a.part(p);
    const bd::GraphPart& y = b.part(p);
    ASSERT_EQ(x.first, y.first);
    ASSERT_EQ(x.last, y.last);
    for (Vertex v = x.first; v < x.last; ++v) {
      ASSERT_EQ(x.degree(v), y.degree(v)) << "part " << p << " vertex " << v;
      const auto lx = x.neighbours_of(v), ly = y.neighbours_of(v);
      ASSERT_TRUE(std::equal(lx.begin(), lx.end(), ly.begin(), ly.end())) << "part " << p << " vertex " << v;
      if (x.degree(v) > 0) {
        ASSERT_EQ(x.top[v - x.first], y.top[v - y.first]) << "vertex " << v;
      }
    }
  }
}

void expect_same_as_copy(const EdgeList& list, const Tuples& tuples, const bd::Layout& layout, const Topology* topo) {
  graph::BuildReport want, got;
  const CsrGraph g = graph::build_undirected(list, 2, &want);
  const bd::SearchGraph copy(g, layout, topo);
  const bd::SearchGraph built(tuples, layout, topo, &got);
  expect_same_graph(built, copy, layout);
  EXPECT_EQ(got.self_loops, want.self_loops);
  EXPECT_EQ(got.duplicates, want.duplicates);
  EXPECT_GE(built.bytes(), copy.bytes());
}

TEST(BfsBuild, ListsFromTuplesEqualTheCopyOfTheBuildersCsr) {
  const EdgeList lists[] = {awkward(), random_list(3000, 20000, 5), random_list(200, 5000, 6), EdgeList{5, {}}};
  for (const EdgeList& list : lists)
    for (int threads : {1, 2, 3, 4}) {
      SCOPED_TRACE(std::to_string(list.vertices) + " vertices, " + std::to_string(threads) + " threads");
      expect_same_as_copy(list, Tuples(list), bd::Layout(static_cast<Vertex>(list.vertices), threads), nullptr);
    }
}

TEST(BfsBuild, KroneckerTuplesDrawnTwiceGiveTheListsOfTheHeldOnes) {
  for (const int scale : {6, 11}) {
    const graph::KroneckerParams params{.scale = scale, .edgefactor = 16, .seed = 7};
    const EdgeList list = graph::kronecker(params, 2);
    for (int threads : {1, 3}) {
      SCOPED_TRACE("SCALE " + std::to_string(scale) + ", " + std::to_string(threads) + " threads");
      expect_same_as_copy(list, Tuples(params), bd::Layout(static_cast<Vertex>(list.vertices), threads), nullptr);
    }
  }
}

TEST(BfsBuild, EachNodesPartHoldsItsOwnListsOnSyntheticNodes) {
  // Over 4 x 32768 vertices, so that every node gets a part of whole bitmap pages.
  const EdgeList list = random_list(140000, 300000, 10);
  for (const auto& [kind, threads] :
       {std::pair{PolicyKind::scatter, 4}, std::pair{PolicyKind::scatter, 8}, std::pair{PolicyKind::compact, 3}}) {
    const Mapping map = Mapping::build(four_nodes(), Policy(kind), threads);
    SCOPED_TRACE(map.policy().name() + ", " + std::to_string(threads) + " threads");
    const bd::Layout layout(static_cast<Vertex>(list.vertices), map);
    ASSERT_GT(layout.parts(), 1);
    expect_same_as_copy(list, Tuples(list), layout, &four_nodes());
  }
}

TEST(BfsBuild, KernelsFromTuplesSearchValidTreesAndHoldOneCopy) {
  const graph::KroneckerParams params{.scale = 12, .edgefactor = 16, .seed = 3};
  const Tuples tuples(params);
  const EdgeList list = graph::kronecker(params, 2);
  const CsrGraph g = graph::build_undirected(list, 2);
  graph::BuildReport report;
  Bfs built(tuples, 2, &report);
  Bfs copied(g, 2);
  EXPECT_EQ(built.vertices(), g.vertices());
  EXPECT_EQ(built.arcs(), g.arcs());
  for (Vertex v : {0, 1, 100, 4095}) EXPECT_EQ(built.degree(v), g.degree(v));
  expect_input_error([&] { static_cast<void>(built.degree(4096)); }, "4096 is not a vertex");
  // The plain kernel gives the duplicates' room back: it holds what the copy holds, and no CSR exists beside it.
  EXPECT_EQ(built.bytes(), copied.bytes());
  const std::size_t n = static_cast<std::size_t>(g.vertices());
  const std::size_t lists = n * (sizeof(EdgeIndex) + sizeof(Vertex)) + sizeof(EdgeIndex) +
                            static_cast<std::size_t>(g.arcs()) * sizeof(Vertex);
  EXPECT_GE(built.bytes(), lists + 2 * n * sizeof(Vertex));  // the lists, parents and queue
  EXPECT_LT(built.bytes(), lists + 3 * n * sizeof(Vertex));  // ... and little more: bitmaps, queue blocks
  for (const Vertex root : choose_roots(g, 4, 9)) {
    const auto v = validate(tuples, root, built.search(root), 2);
    EXPECT_TRUE(v.valid) << v.failure;
    EXPECT_EQ(v.edges, validate(list, root, copied.search(root), 2).edges);  // the same component's tuples
  }

  const Mapping map = Mapping::build(four_nodes(), Policy(PolicyKind::scatter), 4);
  Bfs numa(tuples, four_nodes(), map);
  EXPECT_EQ(numa.arcs(), g.arcs());
  EXPECT_GE(numa.bytes(), copied.bytes());  // four parts' offsets, four threads' queue blocks
  const Vertex root = choose_roots(g, 1, 2)[0];
  const auto v = validate(tuples, root, numa.search(root), 4);
  EXPECT_TRUE(v.valid) << v.failure;
}

TEST(BfsBuild, TuplesNamingAbsentVerticesAreRefused) {
  const EdgeList beyond{4, {{0, 1}, {2, 7}, {1, 3}}};
  expect_input_error([&] { Bfs(Tuples(beyond), 2); }, "edge 1: vertex 7 is beyond the 4 vertices");
  const EdgeList negative{4, {{0, 1}, {1, 2}, {-3, 1}}};
  expect_input_error([&] { Bfs(Tuples(negative), 1); }, "edge 2: vertex -3 is negative");
  expect_input_error([&] { vertices_with_edges(Tuples(negative), 2); }, "vertex -3 is negative");
  const EdgeList huge{std::int64_t{1} << 32, {}};
  expect_input_error([&] { Bfs(Tuples(huge), 1); }, "32-bit ids");
  expect_input_error([&] { Tuples(graph::KroneckerParams{.scale = 31}); }, "SCALE 31");
}

TEST(BfsBuild, KeysDrawnWithoutAGraphAreTheKeysDrawnFromIt) {
  for (const EdgeList& list : {awkward(), random_list(3000, 2000, 12)}) {
    const CsrGraph g = graph::build_undirected(list, 1);
    const std::vector<std::uint64_t> bits = vertices_with_edges(Tuples(list), 3);
    std::vector<Vertex> candidates;
    for (Vertex v = 0; v < g.vertices(); ++v) {
      const bool marked = (bits[static_cast<std::size_t>(v / 64)] >> (v % 64)) & 1u;
      EXPECT_EQ(marked, g.degree(v) > 0) << "vertex " << v;
      if (marked) candidates.push_back(v);
    }
    EXPECT_EQ(choose_roots(candidates, 5, 3), choose_roots(g, 5, 3));
  }
}

// The validator on tuples drawn again from the generator judges as it does
// on the held list: the same verdicts, messages and edge counts.
TEST(BfsBuild, ValidatingAgainstRedrawnTuplesCatchesWhatTheListCatches) {
  const graph::KroneckerParams params{.scale = 10, .edgefactor = 8, .seed = 5};
  const EdgeList list = graph::kronecker(params, 2);
  const Tuples redrawn(params);
  const CsrGraph g = graph::build_undirected(list, 2);
  Bfs bfs(g, 2);
  const Vertex root = choose_roots(g, 1, 4)[0];
  const auto good = bfs.search(root);
  const std::vector<Vertex> parent(good.begin(), good.end());
  // A reached vertex other than the root, with a neighbour that is not its parent, and a non-neighbour.
  Vertex v = 0;
  while (v == root || parent[v] == kUnreached || g.degree(v) < 2) ++v;
  Vertex stranger = 0;
  while (stranger == v || parent[stranger] == kUnreached ||
         std::find(g.neighbours(v).begin(), g.neighbours(v).end(), stranger) != g.neighbours(v).end())
    ++stranger;
  std::vector<Vertex> not_an_edge = parent, cut = parent, loop = parent;
  not_an_edge[v] = stranger;
  cut[v] = kUnreached;
  for (Vertex u = 0; u < g.vertices(); ++u)  // the vertices below v in the tree go too
    if (cut[u] != kUnreached && u != root) {
      Vertex w = u;
      while (w != root && w != v) w = parent[w];
      if (w == v) cut[u] = kUnreached;
    }
  loop[v] = v;
  const std::pair<const std::vector<Vertex>*, const char*> cases[] = {
      {&parent, ""}, {&not_an_edge, "check 3"}, {&cut, "check 5"}, {&loop, "check 2"}};
  for (const auto& [p, check] : cases)
    for (int threads : {1, 3}) {
      const Validation a = validate(redrawn, root, *p, threads);
      const Validation b = validate(list, root, *p, threads);
      EXPECT_EQ(a.valid, *check == '\0') << check << ": " << a.failure;
      EXPECT_TRUE(a.failure.starts_with(check)) << a.failure;
      EXPECT_EQ(a.failure, b.failure);
      EXPECT_EQ(a.edges, b.edges);
      EXPECT_EQ(a.reached, b.reached);
      EXPECT_EQ(a.depth, b.depth);
    }
}

}  // namespace
