// sssp_test.cpp — shortest paths: every algorithm against the plain reference Dijkstra on
// random graphs with zero-weight arcs, parallel arcs, self-loops and
// unreachable vertices; the certificate that checks a distance array; the
// DIMACS checksum.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "expect_error.hpp"
#include "graph/weighted_graph.hpp"
#include "sssp/delta_stepping.hpp"
#include "sssp/dijkstra.hpp"
#include "sssp/verify.hpp"

namespace ulibc::sssp {
namespace {

using graph::ArcList;
using graph::kUnreached;
using graph::WeightedGraph;

// A random directed graph: n vertices, m arcs between random ends (so
// parallel arcs and self-loops occur), weights in 0..max_weight with a
// quarter of them 0, and a few vertices left without in-arcs (unreachable).
WeightedGraph random_graph(std::mt19937_64& rng, Vertex n, std::int64_t m, Weight max_weight) {
  ArcList list{.vertices = n, .arcs = {}};
  std::uniform_int_distribution<Vertex> vertex(0, n - 1);
  std::uniform_int_distribution<Weight> weight(0, max_weight);
  const Vertex cut = n / 8;  // vertices below `cut` get no in-arcs but self-loops
  for (std::int64_t i = 0; i < m; ++i) {
    const Vertex u = vertex(rng);
    Vertex v = vertex(rng);
    if (v < cut) v = u == v ? v : std::max(cut, v);
    const Weight w = rng() % 4 == 0 ? 0 : weight(rng);
    list.arcs.push_back({u, v, w});
  }
  return graph::build_weighted(list);
}

// Dijkstra's distances, after checking the summary it sums while settling
// against the one computed from the array.
std::vector<Distance> dijkstra_distances(const WeightedGraph& g, Vertex s, Queue q) {
  std::vector<Distance> dist(static_cast<std::size_t>(g.vertices()));
  const Reach r = Dijkstra(g.vertices(), q).run(g.view(), s, dist);
  EXPECT_EQ(r, reach(g.view(), dist)) << to_string(q) << " from " << s;
  return dist;
}

TEST(SsspLarge, EveryAlgorithmMatchesTheReferenceOnRandomGraphs) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const Vertex n = 1 + static_cast<Vertex>(rng() % 200);
    const std::int64_t m = static_cast<std::int64_t>(rng() % (4 * static_cast<std::uint64_t>(n) + 1));
    const Weight max_weight = trial % 3 == 0 ? 3 : trial % 3 == 1 ? 1000 : graph::kMaxWeight;
    const WeightedGraph g = random_graph(rng, n, m, max_weight);
    const auto s = static_cast<Vertex>(rng() % static_cast<std::uint64_t>(n));
    const std::vector<Distance> expected = reference_distances(g.view(), s);
    SCOPED_TRACE(::testing::Message() << "trial " << trial << ": n " << n << ", m " << m << ", source " << s);
    EXPECT_EQ(check_distances(g.view(), s, expected), "");
    EXPECT_EQ(dijkstra_distances(g, s, Queue::binary_heap), expected);
    EXPECT_EQ(dijkstra_distances(g, s, Queue::radix_heap), expected);
    const Distance delta = Distance{1} << (rng() % 34);
    const int threads = 1 + trial % 3;
    if (delta < ((Distance{g.max_weight()} >> 15) + 1)) continue;  // too many buckets: refused, tested below
    DeltaStepping stepping(g.view(), g.max_weight(), delta, threads);
    std::vector<Distance> dist(static_cast<std::size_t>(n));
    stepping.run(g.view(), s, dist);
    EXPECT_EQ(dist, expected) << "Δ " << stepping.delta() << ", " << threads << " threads";
  }
}

TEST(Sssp, DeltaSteppingAgreesOnALargerGraphAtEveryThreadCount) {
  std::mt19937_64 rng(11);
  const WeightedGraph g = random_graph(rng, 20000, 80000, 5000);
  const std::vector<Distance> expected = reference_distances(g.view(), 123);
  for (int threads : {1, 2, 3, 4}) {
    for (Distance delta : {Distance{1} << 6, DeltaStepping::default_delta(g.view()), Distance{1} << 20}) {
      DeltaStepping stepping(g.view(), g.max_weight(), delta, threads);
      std::vector<Distance> dist(20000);
      stepping.run(g.view(), 123, dist);
      EXPECT_EQ(dist, expected) << threads << " threads, Δ " << delta;
      EXPECT_GT(stepping.phases(), 0u);
    }
  }
}

TEST(Sssp, ASearchObjectServesManyQueries) {
  std::mt19937_64 rng(3);
  const WeightedGraph g = random_graph(rng, 500, 2000, 100);
  Dijkstra binary(g.vertices(), Queue::binary_heap), radix(g.vertices(), Queue::radix_heap);
  DeltaStepping stepping(g.view(), g.max_weight(), 64, 2);
  std::vector<Distance> a(500), b(500), c(500);
  for (Vertex s = 0; s < 500; s += 7) {
    const std::vector<Distance> expected = reference_distances(g.view(), s);
    binary.run(g.view(), s, a);
    radix.run(g.view(), s, b);
    stepping.run(g.view(), s, c);
    ASSERT_EQ(a, expected) << s;
    ASSERT_EQ(b, expected) << s;
    ASSERT_EQ(c, expected) << s;
  }
}

TEST(Sssp, PointToPointStopsAtTheTargetWithItsDistance) {
  std::mt19937_64 rng(5);
  const WeightedGraph g = random_graph(rng, 300, 1200, 50);
  for (Queue q : {Queue::binary_heap, Queue::radix_heap}) {
    Dijkstra d(g.vertices(), q);
    std::vector<Distance> work(300);
    for (Vertex s = 0; s < 300; s += 29) {
      const std::vector<Distance> expected = reference_distances(g.view(), s);
      for (Vertex t = 0; t < 300; t += 13) EXPECT_EQ(d.distance(g.view(), s, t, work), expected[t]) << s << "->" << t;
    }
  }
}

TEST(Sssp, ZeroWeightCyclesAndUnreachableVertices) {
  // 0 -> 1 -> 2 -> 1 (0-weight cycle), 3 <-> 4 unreachable from 0, 2 -> 5 twice (parallel, 9 and 4).
  const WeightedGraph g = graph::build_weighted(
      {.vertices = 6,
       .arcs = {{0, 1, 5}, {1, 2, 0}, {2, 1, 0}, {3, 4, 0}, {4, 3, 1}, {2, 5, 9}, {2, 5, 4}, {5, 5, 0}}});
  const std::vector<Distance> expected = {0, 5, 5, kUnreached, kUnreached, 9};
  EXPECT_EQ(reference_distances(g.view(), 0), expected);
  EXPECT_EQ(dijkstra_distances(g, 0, Queue::binary_heap), expected);
  EXPECT_EQ(dijkstra_distances(g, 0, Queue::radix_heap), expected);
  const Reach r = reach(g.view(), expected);
  EXPECT_EQ(r.vertices, 4);
  EXPECT_EQ(r.checksum, 19u);
  EXPECT_EQ(r.arcs, 6);  // out-arcs of 0, 1, 2 (three) and 5
}

TEST(Sssp, TheCertificateRejectsWrongDistances) {
  const WeightedGraph g =
      graph::build_weighted({.vertices = 5, .arcs = {{0, 1, 2}, {1, 2, 2}, {0, 2, 5}, {3, 4, 0}, {4, 3, 0}}});
  const std::vector<Distance> right = {0, 2, 4, kUnreached, kUnreached};
  EXPECT_EQ(check_distances(g.view(), 0, right), "");
  auto wrong = right;
  wrong[2] = 5;  // an existing path, but not the shortest
  EXPECT_NE(check_distances(g.view(), 0, wrong).find("shorter path"), std::string::npos);
  wrong = right;
  wrong[2] = 3;  // shorter than any path
  EXPECT_NE(check_distances(g.view(), 0, wrong).find("no path"), std::string::npos);
  wrong = right;
  wrong[3] = wrong[4] = 7;  // a zero-weight cycle the source never reaches
  EXPECT_NE(check_distances(g.view(), 0, wrong).find("no path"), std::string::npos);
  wrong = right;
  wrong[2] = kUnreached;  // reachable, reported unreached
  EXPECT_NE(check_distances(g.view(), 0, wrong), "");
  wrong = right;
  wrong[0] = 1;
  EXPECT_NE(check_distances(g.view(), 0, wrong).find("source"), std::string::npos);
}

TEST(Sssp, TheChecksumIsTheSumModulo2To62) {
  const std::uint64_t big = (std::uint64_t{1} << 62) - 1;
  const WeightedGraph g = graph::build_weighted({.vertices = 3, .arcs = {}});
  const std::vector<Distance> dist = {big, 5, kUnreached};
  EXPECT_EQ(reach(g.view(), dist).checksum, 4u);  // (2^62 - 1 + 5) mod 2^62
}

TEST(Sssp, DeltaSteppingRefusesDeltasItCannotServe) {
  const WeightedGraph g = graph::build_weighted({.vertices = 2, .arcs = {{0, 1, graph::kMaxWeight}}});
  ulibc::testing::expect_input_error([&] { DeltaStepping(g.view(), g.max_weight(), 0, 1); }, "at least 1");
  ulibc::testing::expect_input_error([&] { DeltaStepping(g.view(), g.max_weight(), 1, 1); }, "too small");
  ulibc::testing::expect_input_error([&] { DeltaStepping(g.view(), g.max_weight(), 1 << 20, 0); }, "threads");
  EXPECT_NO_THROW(DeltaStepping(g.view(), g.max_weight(), 131072, 1));  // the smallest the message suggests
  const WeightedGraph light = graph::build_weighted({.vertices = 2, .arcs = {{0, 1, 10}}});
  EXPECT_EQ(DeltaStepping(light.view(), light.max_weight(), 1000, 1).delta(), 512u);
}

}  // namespace
}  // namespace ulibc::sssp
