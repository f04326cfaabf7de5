// graph_builder_test.cpp — build_undirected on hand-made graphs (exact CSR
// arrays and report), on random graphs against a std::set reference, across
// team sizes, and its refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "expect_error.hpp"
#include "graph/builder.hpp"

namespace {

using namespace ulibc::graph;
using ulibc::testing::expect_input_error;

struct Expected {
  std::vector<EdgeIndex> offsets;
  std::vector<Vertex> neighbours;
  EdgeIndex self_loops = 0, duplicates = 0;
};

// Builds `input` on each of a few team sizes and checks every result against `want`.
void expect_build(const EdgeList& input, const Expected& want) {
  for (int threads : {1, 2, 3}) {
    SCOPED_TRACE(::testing::Message() << threads << " threads");
    BuildReport report{-1, -1};
    const CsrGraph g = build_undirected(input, threads, &report);
    EXPECT_EQ(g.offsets(), want.offsets);
    EXPECT_EQ(g.neighbour_array(), want.neighbours);
    EXPECT_EQ(report.self_loops, want.self_loops);
    EXPECT_EQ(report.duplicates, want.duplicates);
  }
}

TEST(GraphBuilder, EmptyGraphHasNoVertices) {
  expect_build({0, {}}, {{0}, {}});
  EXPECT_EQ(build_undirected({}).vertices(), 0);
}

TEST(GraphBuilder, VerticesWithoutEdgesAreKept) { expect_build({4, {}}, {{0, 0, 0, 0, 0}, {}}); }

TEST(GraphBuilder, PathInMixedOrientations) {
  // 0 - 1 - 2 - 3, and 4 alone.
  expect_build({5, {{1, 0}, {1, 2}, {3, 2}}}, {{0, 1, 3, 5, 6, 6}, {1, 0, 2, 1, 3, 2}});
}

TEST(GraphBuilder, StarNeighboursComeOutSorted) {
  // Centre 3; leaves given in a scrambled order, as both (leaf, centre) and (centre, leaf).
  expect_build({6, {{3, 5}, {0, 3}, {3, 4}, {2, 3}, {1, 3}}}, {{0, 1, 2, 3, 8, 9, 10}, {3, 3, 3, 0, 1, 2, 4, 5, 3, 3}});
}

TEST(GraphBuilder, DropsSelfLoopsAndDuplicatesInBothOrientations) {
  // (1,2) three times in either orientation: one edge, two duplicates. Vertex 3
  // has only self-loops (one repeated, still a self-loop each time) and ends isolated.
  const EdgeList input{5, {{1, 2}, {2, 1}, {0, 0}, {1, 2}, {3, 3}, {3, 3}, {0, 1}, {4, 1}, {1, 4}}};
  expect_build(input, {{0, 1, 4, 5, 5, 6}, {1, 0, 2, 4, 1, 1}, 3, 3});
}

TEST(GraphBuilder, ReportIsOptional) {
  const CsrGraph g = build_undirected({3, {{0, 1}, {1, 0}, {2, 2}}}, 2, nullptr);
  EXPECT_EQ(g.arcs(), 2);
}

TEST(GraphBuilder, OnlySelfLoopsGiveNoArcs) { expect_build({3, {{0, 0}, {2, 2}, {0, 0}}}, {{0, 0, 0, 0}, {}, 3, 0}); }

// ---- Random graphs against a reference --------------------------------------------

EdgeList random_edges(std::uint64_t seed, std::int64_t vertices, std::size_t tuples) {
  std::mt19937_64 rng(seed);
  // A third of the tuples join a handful of vertices (duplicates and
  // self-loops galore), a third join one of them to any vertex (long lists
  // of ids of every size), a third join any two.
  std::uniform_int_distribution<Vertex> any(0, static_cast<Vertex>(vertices - 1));
  std::uniform_int_distribution<Vertex> few(0, static_cast<Vertex>(std::min<std::int64_t>(vertices - 1, 5)));
  EdgeList out{vertices, {}};
  for (std::size_t i = 0; i < tuples; ++i) {
    const Vertex u = i % 3 == 2 ? any(rng) : few(rng);
    const Vertex v = i % 3 == 0 ? few(rng) : any(rng);
    out.edges.push_back(i % 2 ? Edge{u, v} : Edge{v, u});
  }
  return out;
}

// The graph the simple way: a set of neighbours per vertex, a set of edges.
Expected reference(const EdgeList& input) {
  std::vector<std::set<Vertex>> adjacency(static_cast<std::size_t>(input.vertices));
  std::set<std::pair<Vertex, Vertex>> seen;
  Expected want;
  for (const Edge& e : input.edges) {
    if (e.u == e.v) {
      ++want.self_loops;
      continue;
    }
    if (!seen.insert({std::min(e.u, e.v), std::max(e.u, e.v)}).second) ++want.duplicates;
    adjacency[static_cast<std::size_t>(e.u)].insert(e.v);
    adjacency[static_cast<std::size_t>(e.v)].insert(e.u);
  }
  want.offsets.push_back(0);
  for (const auto& list : adjacency) {
    want.neighbours.insert(want.neighbours.end(), list.begin(), list.end());
    want.offsets.push_back(static_cast<EdgeIndex>(want.neighbours.size()));
  }
  return want;
}

TEST(GraphBuilder, RandomGraphsMatchASetReference) {
  // Lists of 256 arcs and more are radix-sorted a byte at a time: the larger
  // shapes have such lists over ids of 10 and 17 bits (two and three passes).
  const std::pair<std::int64_t, std::size_t> shapes[] = {{1, 10},   {2, 50},      {7, 40},
                                                         {50, 300}, {1000, 5000}, {100000, 20000}};
  std::uint64_t seed = 0;
  for (const auto& [vertices, tuples] : shapes) {
    for (int round = 0; round < 3; ++round) {
      SCOPED_TRACE(::testing::Message() << vertices << " vertices, " << tuples << " tuples, seed " << seed);
      const EdgeList input = random_edges(++seed, vertices, tuples);
      expect_build(input, reference(input));
    }
  }
}

TEST(GraphBuilder, ResultDoesNotDependOnTheTeam) {
  // Large enough for every thread to get many tuples and high-degree lists.
  const EdgeList input = random_edges(42, 3000, 200000);
  const CsrGraph one = build_undirected(input, 1);
  for (int threads : {2, 3, 7}) {
    const CsrGraph g = build_undirected(input, threads);
    EXPECT_EQ(g.offsets(), one.offsets()) << threads << " threads";
    EXPECT_EQ(g.neighbour_array(), one.neighbour_array()) << threads << " threads";
  }
}

// ---- Refusals ---------------------------------------------------------------------

TEST(GraphBuilder, RefusesAnIdBeyondTheVertices) {
  expect_input_error(
      [] {
        build_undirected({64, {{0, 1}, {2, 3}, {5, 70}}});
      },
      "edge 2: vertex 70 is beyond the 64 vertices (ids 0..63)");
  expect_input_error([] { build_undirected({64, {{64, 1}}}); }, "edge 0: vertex 64 is beyond the 64 vertices");
  expect_input_error([] { build_undirected({0, {{0, 0}}}); }, "edge 0: vertex 0 is beyond the 0 vertices");
}

TEST(GraphBuilder, RefusesANegativeId) {
  expect_input_error([] { build_undirected({8, {{0, 1}, {-3, 1}}}); }, "edge 1: vertex -3 is negative");
  expect_input_error([] { build_undirected({8, {{1, -1}}}); }, "edge 0: vertex -1 is negative");
}

TEST(GraphBuilder, NamesTheFirstBadTupleWhateverTheTeam) {
  EdgeList input = random_edges(7, 100, 10000);
  input.edges[9000] = {100, 1};
  input.edges[1234] = {5, 200};
  for (int threads : {1, 2, 3})
    expect_input_error([&] { build_undirected(input, threads); }, "edge 1234: vertex 200 is beyond");
}

TEST(GraphBuilder, RefusesAVertexCountBeyond32BitIds) {
  expect_input_error([] { build_undirected({kMaxVertices + 1, {}}); }, "2147483648 vertices");
  expect_input_error([] { build_undirected({-1, {}}); }, "-1 vertices");
}

}  // namespace
