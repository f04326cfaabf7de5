// simpath_test.cpp — Simpath: exact s-t path counts against OEIS A007764, closed forms and a
// brute-force search; the ZDD checked as a reduced (canonical) diagram whose
// sets are exactly the simple paths, counted again top down (verify.hpp) and
// read back from its text form; uniform sampling; the parallel search giving
// the very same ZDD; and the refusals (bad ends, bad grids, memory limit,
// frontier too wide).
#include "simpath/simpath.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "simpath/build.hpp"
#include "simpath/edge_order.hpp"
#include "simpath/frontier.hpp"
#include "simpath/sample.hpp"
#include "simpath/verify.hpp"
#include "ulibc/error.hpp"

namespace ulibc::simpath {
namespace {

// ---------------------------------------------------------------------------
// Independent references.

// A natural number of any size, base 1e9, least significant digit first.
struct BigNat {
  static constexpr std::uint32_t kBase = 1000000000;
  std::vector<std::uint32_t> d;  // empty: zero

  BigNat() = default;
  explicit BigNat(std::uint64_t x) {
    for (; x != 0; x /= kBase) d.push_back(static_cast<std::uint32_t>(x % kBase));
  }
  BigNat& operator+=(const BigNat& o) {
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < o.d.size() || carry != 0; ++i) {
      if (i == d.size()) d.push_back(0);
      carry += d[i] + (i < o.d.size() ? o.d[i] : 0);
      d[i] = static_cast<std::uint32_t>(carry % kBase);
      carry /= kBase;
    }
    return *this;
  }
  BigNat& operator*=(std::uint32_t m) {
    if (m == 0) d.clear();
    std::uint64_t carry = 0;
    for (auto& x : d) {
      carry += std::uint64_t{x} * m;
      x = static_cast<std::uint32_t>(carry % kBase);
      carry /= kBase;
    }
    for (; carry != 0; carry /= kBase) d.push_back(static_cast<std::uint32_t>(carry % kBase));
    return *this;
  }
  std::string str() const {
    if (d.empty()) return "0";
    std::string s = std::to_string(d.back());
    for (std::size_t i = d.size() - 1; i-- > 0;) {
      const std::string part = std::to_string(d[i]);
      s += std::string(9 - part.size(), '0') + part;
    }
    return s;
  }
};

std::string power(std::uint32_t base, int exponent) {
  BigNat x(1);
  for (int i = 0; i < exponent; ++i) x *= base;
  return x.str();
}

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

std::uint64_t edge_key(Vertex a, Vertex b) {
  return static_cast<std::uint64_t>(std::min(a, b)) << 32 | static_cast<std::uint32_t>(std::max(a, b));
}

// Every simple s-t path of `p` as a bit mask over `order` (at most 64 edges).
std::vector<std::uint64_t> brute_force_path_sets(const PathProblem& p, const std::vector<PathEdge>& order) {
  EXPECT_LE(order.size(), 64u);
  std::map<std::uint64_t, int> index;
  for (std::size_t i = 0; i < order.size(); ++i) index[edge_key(order[i].u, order[i].v)] = static_cast<int>(i);
  std::vector<std::vector<std::pair<Vertex, int>>> adj(p.vertices);
  for (const PathEdge& e : p.edges) {
    const auto it = index.find(edge_key(e.u, e.v));
    if (it == index.end()) continue;  // not decided: it cannot lie on a path (else the counts differ)
    const int i = it->second;
    adj[e.u].push_back({e.v, i});
    adj[e.v].push_back({e.u, i});
  }
  std::vector<char> on_path(p.vertices, 0);
  std::vector<std::uint64_t> sets;
  std::function<void(Vertex, std::uint64_t)> extend = [&](Vertex v, std::uint64_t set) {
    if (v == p.t) {
      sets.push_back(set);
      return;
    }
    on_path[v] = 1;
    for (auto [w, i] : adj[v])
      if (!on_path[w]) extend(w, set | std::uint64_t{1} << i);
    on_path[v] = 0;
  };
  extend(p.s, 0);
  std::sort(sets.begin(), sets.end());
  return sets;
}

// The ZDD's sets, by walking every root-to-1 path (at most 64 edges).
std::vector<std::uint64_t> zdd_sets(const Zdd& z) {
  std::vector<std::uint64_t> sets;
  std::function<void(NodeRef, std::uint64_t)> walk = [&](NodeRef r, std::uint64_t set) {
    if (r == kZero) return;
    if (r == kOne) {
      sets.push_back(set);
      return;
    }
    const ZddNode& n = z.node(r);
    walk(n.lo, set);
    walk(n.hi, set | std::uint64_t{1} << ref_step(r));
  };
  walk(z.root, 0);
  std::sort(sets.begin(), sets.end());
  return sets;
}

// The edges of s's connected component as sorted keys; none when t lies outside it.
std::vector<std::uint64_t> component_edge_keys(const PathProblem& p) {
  std::vector<std::vector<Vertex>> adj(p.vertices);
  for (const PathEdge& e : p.edges) adj[e.u].push_back(e.v), adj[e.v].push_back(e.u);
  std::vector<char> seen(p.vertices, 0);
  std::vector<Vertex> queue{p.s};
  seen[p.s] = 1;
  for (std::size_t head = 0; head < queue.size(); ++head)
    for (Vertex w : adj[queue[head]])
      if (!seen[w]) seen[w] = 1, queue.push_back(w);
  std::vector<std::uint64_t> keys;
  if (!seen[p.t]) return keys;
  for (const PathEdge& e : p.edges)
    if (seen[e.u]) keys.push_back(edge_key(e.u, e.v));
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::vector<PathEdge> edges_of_mask(const Zdd& z, std::uint64_t set) {
  std::vector<PathEdge> edges;
  for (std::size_t i = 0; i < z.edges.size(); ++i)
    if (set >> i & 1) edges.push_back(z.edges[i]);
  return edges;
}

// The nodes per step of the unique reduced ZDD of the family `sets` (bit
// masks over m edges): at step i, one node per distinct family of what the
// sets sharing a choice on edges 0..i-1 take from edge i on, among those
// families with a set taking edge i.
std::vector<std::size_t> canonical_level_sizes(const std::vector<std::uint64_t>& sets, std::size_t m) {
  std::vector<std::size_t> sizes(m, 0);
  for (std::size_t i = 0; i < m; ++i) {
    const std::uint64_t low = (std::uint64_t{1} << i) - 1;
    std::map<std::uint64_t, std::vector<std::uint64_t>> by_prefix;
    for (std::uint64_t s : sets) by_prefix[s & low].push_back(s & ~low);
    std::set<std::vector<std::uint64_t>> distinct;
    for (auto& [prefix, family] : by_prefix) {
      std::sort(family.begin(), family.end());
      if (std::any_of(family.begin(), family.end(), [&](std::uint64_t s) { return s >> i & 1; }))
        distinct.insert(family);
    }
    sizes[i] = distinct.size();
  }
  return sizes;
}

// ---------------------------------------------------------------------------
// Problems.

std::string count_of(const PathProblem& p, int threads = 1, EdgeOrder order = EdgeOrder::bfs) {
  return solve(p, {.order = order, .threads = threads}).count;
}

constexpr EdgeOrder kOrders[] = {EdgeOrder::bfs, EdgeOrder::greedy, EdgeOrder::input, EdgeOrder::automatic};

PathProblem random_problem(std::mt19937_64& rng, int n, double density) {
  graph::EdgeList input{.vertices = n};
  std::bernoulli_distribution keep(density);
  for (Vertex u = 0; u < n; ++u)
    for (Vertex v = u + 1; v < n; ++v)
      if (keep(rng)) input.edges.push_back({u, v});
  return graph_problem(input, 0, 1, "random");
}

// K_{2,w}: s = 0 and t = w+1 joined through each of the w middle vertices.
// In bfs order its frontier reaches w+1 vertices with only w+1 states.
PathProblem fan_problem(int w) {
  graph::EdgeList input{.vertices = w + 2};
  for (Vertex m = 1; m <= w; ++m) input.edges.push_back({0, m}), input.edges.push_back({m, w + 1});
  return graph_problem(input, 0, w + 1, "fan");
}

// `blocks` cliques K_k in a chain, each sharing a cut vertex with the next;
// s and t at the ends. Each clique has sum_j (k-2)!/(k-2-j)! paths between
// its cut vertices, so the count is that to the power `blocks`.
PathProblem clique_chain(int blocks, int k) {
  graph::EdgeList input{.vertices = blocks * (k - 1) + 1};
  for (int b = 0; b < blocks; ++b) {
    const Vertex first = b * (k - 1);
    for (Vertex u = first; u < first + k; ++u)
      for (Vertex v = u + 1; v < first + k; ++v) input.edges.push_back({u, v});
  }
  return graph_problem(input, 0, static_cast<Vertex>(input.vertices - 1), "clique chain");
}

using ulibc::testing::input_error_of;

#define EXPECT_CONTAINS(text, needle) EXPECT_NE(std::string(text).find(needle), std::string::npos) << (text)

// ---------------------------------------------------------------------------
// Counts.

// Grids of n x n vertices, (n-1) x (n-1) cells: OEIS A007764.
void expect_oeis_grid_counts(int first, int last) {
  for (int cells = first; cells <= last; ++cells) {
    SCOPED_TRACE(cells);
    EXPECT_EQ(count_of(grid_problem(cells, cells), 1, EdgeOrder::automatic), oeis_grid_paths(cells));
    // Simpath's own order makes 2.6x the nodes (diagonals): the smaller grids only, for the suite's time.
    if (cells <= 9) {
      EXPECT_EQ(count_of(grid_problem(cells, cells), 1, EdgeOrder::bfs), oeis_grid_paths(cells));
    }
  }
}

TEST(Simpath, GridCountsMatchOeis) { expect_oeis_grid_counts(1, 8); }

// The larger grids, up to 4.6 million states: seconds, where the rest of the suite takes milliseconds.
TEST(SimpathLarge, GridCountsMatchOeis) { expect_oeis_grid_counts(9, 11); }

// 64 random graphs, every pair of ends, every order: thousands of searches.
TEST(SimpathLarge, RandomGraphsMatchBruteForceForEveryPair) {
  std::mt19937_64 rng(7);
  int graphs = 0;
  for (int n = 2; n <= 9; ++n)
    for (double density : {0.2, 0.4, 0.7, 1.0})
      for (int rep = 0; rep < 2; ++rep, ++graphs) {
        PathProblem p = random_problem(rng, n, density);
        for (p.s = 0; p.s < n; ++p.s)
          for (p.t = 0; p.t < n; ++p.t) {
            if (p.s == p.t) continue;
            SCOPED_TRACE(::testing::Message() << "n " << n << " density " << density << " s " << p.s << " t " << p.t);
            const std::string want = std::to_string(brute_force_paths(p));
            for (EdgeOrder order : {EdgeOrder::bfs, EdgeOrder::greedy, EdgeOrder::input})
              ASSERT_EQ(count_of(p, 1, order), want);
            if ((p.s + p.t) % 3 == 0) {  // a sample of the pairs in parallel
              ASSERT_EQ(count_of(p, 3), want);
            }
          }
      }
  EXPECT_EQ(graphs, 64);
}

// A 1 x N grid is a ladder: a path crosses an odd number of its N+1 rungs, so
// there are 2^N; N = 100 and 130 need more than 64 and 128 bits.
TEST(Simpath, LaddersCountPowersOfTwoBeyond128Bits) {
  for (int n : {1, 2, 3, 10, 63, 64, 65, 100, 127, 128, 129, 130, 200}) {
    SCOPED_TRACE(n);
    EXPECT_EQ(count_of(grid_problem(1, n)), power(2, n));
    EXPECT_EQ(count_of(grid_problem(n, 1), 1, EdgeOrder::greedy), power(2, n));
  }
  EXPECT_EQ(count_of(grid_problem(1, 130)), "1361129467683753853853498429727072845824");
  EXPECT_EQ(count_of(grid_problem(1, 100)), "1267650600228229401496703205376");
}

// K_8 has 1957 paths between two of its vertices; chained through cut
// vertices the counts multiply: 1957^12 > 2^131, 1957^20 > 2^218.
TEST(Simpath, ChainedCliquesCountBeyond128Bits) {
  EXPECT_EQ(count_of(clique_chain(1, 8)), "1957");
  EXPECT_EQ(count_of(clique_chain(1, 5)), std::to_string(1 + 3 + 6 + 6));
  EXPECT_EQ(brute_force_paths(clique_chain(2, 6)), 65u * 65u);
  EXPECT_EQ(count_of(clique_chain(2, 6)), std::to_string(65 * 65));
  for (int blocks : {12, 20}) {
    SCOPED_TRACE(blocks);
    const PathProblem p = clique_chain(blocks, 8);
    for (EdgeOrder order : kOrders) {
      const Result r = solve(p, {.order = order, .threads = 1});
      EXPECT_EQ(r.count, power(1957, blocks));
      EXPECT_EQ(zdd_defect(r.zdd, r.count), "");
    }
  }
  // In parallel once (each step costs the team a few barriers: kept short).
  EXPECT_EQ(count_of(clique_chain(12, 8), 2), power(1957, 12));
}

// A node's child is coded in 32 bits only while it lies at most 15 steps
// below and its index fits 28 bits (level_nodes.hpp); others are kept
// aside. Here s = 0 reaches a = 1, whose 20 pendant edges (to 2..21) come
// next in the input order: none can be taken, so the node after taking
// {0, 1} has its child 21 steps below. Paths: 0-1-22 and 0-23-22.
TEST(Simpath, AChildFarBelowItsParentIsKept) {
  graph::EdgeList input{.vertices = 24};
  input.edges.push_back({0, 1});
  for (Vertex p = 2; p <= 21; ++p) input.edges.push_back({1, p});
  input.edges.push_back({1, 22});
  input.edges.push_back({0, 23});
  input.edges.push_back({23, 22});
  const PathProblem broom = graph_problem(input, 0, 22, "broom");
  ASSERT_EQ(brute_force_paths(broom), 2u);
  for (int threads : {1, 2}) {
    const Result r = solve(broom, {.order = EdgeOrder::input, .threads = threads});
    EXPECT_EQ(r.count, "2") << threads;
    EXPECT_EQ(zdd_defect(r.zdd, r.count), "") << threads;
  }

  detail::Diagram d;
  d.levels.resize(40);
  detail::MemoryBudget budget(1 << 20);
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(d.levels[3].push(budget));
  const NodeRef near = make_ref(18, 5), far = make_ref(19, 7), wide = make_ref(4, std::uint64_t{1} << 28);
  d.set_child(3, 0, false, near);
  d.set_child(3, 0, true, far);
  d.set_child(3, 1, false, wide);
  d.set_child(3, 1, true, kOne);
  EXPECT_EQ(d.child(3, 0, false), near);
  EXPECT_EQ(d.child(3, 0, true), far);
  EXPECT_EQ(d.child(3, 1, false), wide);
  EXPECT_EQ(d.child(3, 1, true), kOne);
  EXPECT_EQ(d.levels[3][0].hi, detail::kFarChild);  // kept aside, not wrapped round
  d.levels[3].release(budget);
}

TEST(Simpath, RectangularGridsAreSymmetricAndMatchBruteForce) {
  struct Shape {
    int rows, cols;
    bool brute;
  };
  for (const Shape& g : {Shape{1, 1, true}, Shape{1, 6, true}, Shape{2, 3, true}, Shape{2, 7, true}, Shape{3, 4, true},
                         Shape{3, 5, true}, Shape{4, 6, false}, Shape{3, 9, false}}) {
    SCOPED_TRACE(::testing::Message() << g.rows << "x" << g.cols);
    const PathProblem a = grid_problem(g.rows, g.cols), b = grid_problem(g.cols, g.rows);
    EXPECT_EQ(a.vertices, (g.rows + 1) * (g.cols + 1));
    EXPECT_EQ(a.edges.size(), static_cast<std::size_t>(g.rows * (g.cols + 1) + g.cols * (g.rows + 1)));
    EXPECT_EQ(a.s, 0);
    EXPECT_EQ(a.t, a.vertices - 1);
    const std::string count = count_of(a);
    EXPECT_EQ(count_of(b), count);
    for (EdgeOrder order : kOrders) {
      EXPECT_EQ(count_of(a, 1, order), count) << edge_order_name(order);
      EXPECT_EQ(count_of(b, 1, order), count) << edge_order_name(order);
    }
    if (g.brute) {
      EXPECT_EQ(count, std::to_string(brute_force_paths(a)));
    }
  }
  EXPECT_EQ(count_of(grid_problem(2, 2)), "12");
}

TEST(Simpath, GridsWithOtherEndsMatchBruteForce) {
  // Every ordered pair of ends on a 3 x 3-cell and a 2 x 4-cell grid.
  for (auto [rows, cols] : {std::pair{3, 3}, std::pair{2, 4}}) {
    const Vertex vertices = (rows + 1) * (cols + 1);
    for (Vertex s = 0; s < vertices; ++s)
      for (Vertex t = 0; t < vertices; ++t) {
        if (s == t) continue;
        SCOPED_TRACE(::testing::Message() << rows << "x" << cols << " s " << s << " t " << t);
        const PathProblem p = grid_problem(rows, cols, s, t);
        const std::string want = std::to_string(brute_force_paths(p));
        ASSERT_EQ(count_of(p), want);
        ASSERT_EQ(count_of(p, 1, EdgeOrder::greedy), want);
        ASSERT_EQ(count_of(p, 1, EdgeOrder::input), want);
      }
  }
  // 4 x 4 cells (5 x 5 vertices, 12 the centre): adjacent ends, the centre, corners.
  for (auto [s, t] : {std::pair{0, 1}, std::pair{1, 0}, std::pair{0, 5}, std::pair{12, 13}, std::pair{0, 12},
                      std::pair{12, 24}, std::pair{12, 0}, std::pair{4, 20}, std::pair{6, 18}, std::pair{24, 0}}) {
    SCOPED_TRACE(::testing::Message() << "4x4 s " << s << " t " << t);
    const PathProblem p = grid_problem(4, 4, s, t);
    const std::string want = std::to_string(brute_force_paths(p));
    EXPECT_EQ(count_of(p), want);
    for (EdgeOrder order : {EdgeOrder::greedy, EdgeOrder::input, EdgeOrder::automatic})
      EXPECT_EQ(count_of(p, 1, order), want) << edge_order_name(order);
  }
}

// ---------------------------------------------------------------------------
// The ZDD.

std::vector<PathProblem> small_problems() {
  std::vector<PathProblem> ps = {grid_problem(1, 1),       grid_problem(2, 2),        grid_problem(2, 3),
                                 grid_problem(3, 3),       grid_problem(3, 4),        grid_problem(4, 4),
                                 grid_problem(3, 3, 5, 6), grid_problem(4, 4, 12, 0), grid_problem(2, 5, 9, 2),
                                 fan_problem(5),           clique_chain(3, 5),        clique_chain(1, 7)};
  std::mt19937_64 rng(11);
  for (int n : {6, 8, 10})
    for (double density : {0.3, 0.6})
      for (int rep = 0; rep < 2; ++rep) {
        PathProblem p = random_problem(rng, n, density);
        p.s = static_cast<Vertex>(rng() % n);
        p.t = static_cast<Vertex>((p.s + 1 + rng() % (n - 1)) % n);
        ps.push_back(p);
      }
  return ps;
}

TEST(Simpath, ZddIsReducedAndCountsItself) {
  std::vector<PathProblem> ps = small_problems();
  const std::size_t small = ps.size();
  ps.push_back(grid_problem(7, 7));
  ps.push_back(grid_problem(1, 130));  // in input order its frontier is a whole row: far too many states
  ps.push_back(grid_problem(3, 12));
  for (std::size_t k = 0; k < ps.size(); ++k)
    for (EdgeOrder order : kOrders) {
      if (k >= small && order == EdgeOrder::input) continue;
      const PathProblem& p = ps[k];
      SCOPED_TRACE(::testing::Message() << p.name << " s " << p.s << " t " << p.t << " " << edge_order_name(order));
      const Result r = solve(p, {.order = order});
      // The order used: the one asked for, or for automatic the narrowest.
      if (order != EdgeOrder::automatic) {
        EXPECT_EQ(r.order, order);
      } else {
        EXPECT_NE(r.order, EdgeOrder::automatic);
        int narrowest = detail::kMaxFrontier + 1;
        for (EdgeOrder o : {EdgeOrder::input, EdgeOrder::greedy, EdgeOrder::bfs})
          narrowest = std::min(narrowest, detail::FrontierPlan(p, order_edges(p, o)).max_width());
        EXPECT_EQ(r.max_frontier, narrowest);
      }
      EXPECT_EQ(r.max_frontier, detail::FrontierPlan(p, order_edges(p, r.order)).max_width());
      // The ZDD decides the edges that can lie on a path (s's component, none
      // when t is outside it), each once, in the order's sequence.
      std::vector<std::uint64_t> keys;
      for (const PathEdge& e : r.zdd.edges) keys.push_back(edge_key(e.u, e.v));
      std::sort(keys.begin(), keys.end());
      EXPECT_EQ(keys, component_edge_keys(p));
      EXPECT_TRUE(r.zdd.edges == order_edges(p, r.order));
      EXPECT_EQ(r.states.size(), r.zdd.edges.size());
      EXPECT_EQ(zdd_defect(r.zdd, r.count), "");
    }
}

// For graphs small enough to list every path: the ZDD's sets are exactly the
// simple s-t paths, and its nodes per step are those of the unique reduced ZDD
// of that family.
TEST(Simpath, ZddSetsAreExactlyTheSimplePathsAndTheDiagramIsCanonical) {
  for (const PathProblem& p : small_problems()) {
    if (p.edges.size() > 64) continue;
    for (EdgeOrder order : kOrders) {
      SCOPED_TRACE(::testing::Message() << p.name << " s " << p.s << " t " << p.t << " " << edge_order_name(order));
      const Result r = solve(p, {.order = order});
      const std::vector<std::uint64_t> want = brute_force_path_sets(p, r.zdd.edges);
      const std::vector<std::uint64_t> got = zdd_sets(r.zdd);
      ASSERT_EQ(got.size(), want.size());
      EXPECT_EQ(got, want);
      EXPECT_EQ(std::adjacent_find(got.begin(), got.end()), got.end()) << "a set twice";
      EXPECT_EQ(r.count, std::to_string(want.size()));
      for (std::uint64_t set : got) {
        const std::vector<PathEdge> edges = edges_of_mask(r.zdd, set);
        const std::vector<Vertex> path = path_vertices(edges, p.s);
        ASSERT_EQ(path.size(), edges.size() + 1);
        EXPECT_EQ(path.front(), p.s);
        EXPECT_EQ(path.back(), p.t);
        EXPECT_EQ(std::set<Vertex>(path.begin(), path.end()).size(), path.size());
      }
      std::vector<std::size_t> sizes;
      for (const auto& level : r.zdd.levels) sizes.push_back(level.size());
      EXPECT_EQ(sizes, canonical_level_sizes(want, r.zdd.edges.size()));
      if (!want.empty()) {  // the root decides the first edge any path takes
        const std::uint64_t any = std::accumulate(want.begin(), want.end(), std::uint64_t{0}, std::bit_or<>());
        EXPECT_EQ(ref_step(r.zdd.root), std::countr_zero(any));
      }
    }
  }
}

// Every thread count builds the same ZDD (numbered as the threads' timing
// has it: compared canonically) from the same states.
TEST(Simpath, ParallelSearchGivesTheSequentialZdd) {
  // Kept to a few hundred steps in all: each step costs a team a few barriers,
  // which on a loaded machine (libgomp spinning) is most of this test's time.
  std::vector<PathProblem> ps = {grid_problem(5, 5), grid_problem(3, 6), grid_problem(4, 4, 12, 3), grid_problem(1, 1),
                                 grid_problem(1, 2), fan_problem(8),     clique_chain(2, 6)};
  std::mt19937_64 rng(3);
  ps.push_back(random_problem(rng, 13, 0.35));
  for (const PathProblem& p : ps)
    for (EdgeOrder order : {EdgeOrder::bfs, EdgeOrder::input, EdgeOrder::greedy}) {
      const Result one = solve(p, {.order = order, .threads = 1});
      for (int threads : {2, 3, 4, 7}) {
        if (order == EdgeOrder::greedy && (threads == 3 || threads == 4)) continue;  // time
        SCOPED_TRACE(::testing::Message() << p.name << " " << edge_order_name(order) << " threads " << threads);
        const Result r = solve(p, {.order = order, .threads = threads});
        EXPECT_EQ(r.count, one.count);
        EXPECT_EQ(r.states, one.states);
        EXPECT_EQ(r.max_frontier, one.max_frontier);
        EXPECT_TRUE(r.zdd.edges == one.zdd.edges);
        const Zdd mine = canonical_form(r.zdd), theirs = canonical_form(one.zdd);
        EXPECT_EQ(mine.root, theirs.root);
        ASSERT_EQ(mine.levels.size(), theirs.levels.size());
        for (std::size_t i = 0; i < mine.levels.size(); ++i)
          ASSERT_TRUE(mine.levels[i] == theirs.levels[i]) << "step " << i;
      }
    }
  // A larger one, once: more states per step than a queue block holds.
  const PathProblem big = grid_problem(7, 7);
  const Result one = solve(big, {.threads = 1});
  const Result two = solve(big, {.threads = 2});
  EXPECT_EQ(two.count, one.count);
  EXPECT_EQ(two.states, one.states);
  EXPECT_EQ(canonical_form(two.zdd).root, canonical_form(one.zdd).root);
  EXPECT_TRUE(canonical_form(two.zdd).levels == canonical_form(one.zdd).levels);
}

// A parsed "ulibc-zdd 1" file.
struct ParsedZdd {
  Vertex s = -1, t = -1;
  std::vector<PathEdge> edges;
  struct Node {
    std::uint64_t id;
    int step;
    std::uint64_t lo, hi;
  };
  std::vector<Node> nodes;
  std::uint64_t root = 0;
};

// Parses strictly; a failure names the line.
ParsedZdd parse_zdd(const std::string& text) {
  ParsedZdd z;
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.starts_with("#")) lines.push_back(line);
  std::size_t at = 0;
  const auto next = [&](const std::string& what) {
    if (at >= lines.size()) {
      ADD_FAILURE() << "the file ends before " << what;
      return std::string();
    }
    return lines[at++];
  };
  EXPECT_EQ(next("the header"), "ulibc-zdd 1");
  const auto keyword = [&](const std::string& key) {
    std::istringstream l(next(key));
    std::string k;
    std::int64_t value = -1;
    l >> k >> value;
    EXPECT_EQ(k, key);
    EXPECT_TRUE(l && (l >> std::ws).eof()) << "line \"" << l.str() << "\"";
    return value;
  };
  z.s = static_cast<Vertex>(keyword("s"));
  z.t = static_cast<Vertex>(keyword("t"));
  const std::int64_t m = keyword("edges");
  for (std::int64_t i = 0; i < m; ++i) {
    std::istringstream l(next("an edge"));
    std::int64_t index = -1;
    PathEdge e;
    l >> index >> e.u >> e.v;
    EXPECT_TRUE(l) << l.str();
    EXPECT_EQ(index, i);
    z.edges.push_back(e);
  }
  const std::int64_t n = keyword("nodes");
  std::set<std::uint64_t> defined = {0, 1};
  for (std::int64_t i = 0; i < n; ++i) {
    std::istringstream l(next("a node"));
    ParsedZdd::Node node{};
    l >> node.id >> node.step >> node.lo >> node.hi;
    EXPECT_TRUE(l) << l.str();
    EXPECT_TRUE(defined.contains(node.lo) && defined.contains(node.hi)) << "children after their parent: " << l.str();
    EXPECT_TRUE(defined.insert(node.id).second) << "id twice: " << l.str();
    EXPECT_GE(node.step, 0);
    EXPECT_LT(node.step, m);
    z.nodes.push_back(node);
  }
  z.root = static_cast<std::uint64_t>(keyword("root"));
  EXPECT_TRUE(defined.contains(z.root));
  EXPECT_EQ(at, lines.size()) << "lines after the root";
  return z;
}

// The sets of the parsed diagram, counted from the file alone; each node's
// children must decide later edges.
std::string count_parsed(const ParsedZdd& z) {
  std::map<std::uint64_t, BigNat> count = {{0, BigNat()}, {1, BigNat(1)}};
  std::map<std::uint64_t, int> step;
  for (const auto& n : z.nodes) {
    for (std::uint64_t c : {n.lo, n.hi})
      if (c > 1) {
        EXPECT_GT(step.at(c), n.step) << "node " << n.id;
      }
    BigNat c = count.at(n.lo);
    c += count.at(n.hi);
    count[n.id] = c;
    step[n.id] = n.step;
  }
  return count.at(z.root).str();
}

TEST(Simpath, WrittenZddReadsBackToTheSameCount) {
  std::vector<PathProblem> ps = {grid_problem(6, 6), grid_problem(1, 130), grid_problem(3, 3, 5, 9),
                                 clique_chain(12, 8), fan_problem(3)};
  graph::EdgeList split{.vertices = 4, .edges = {{0, 1}, {2, 3}}};
  ps.push_back(graph_problem(split, 0, 3, "split"));                          // no path
  ps.push_back(graph_problem(graph::EdgeList{.vertices = 2}, 0, 1, "bare"));  // no edge
  for (const PathProblem& p : ps) {
    SCOPED_TRACE(p.name);
    const Result r = solve(p, {.order = EdgeOrder::greedy});
    std::ostringstream out;
    write_zdd(r.zdd, p.s, p.t, out);
    const std::string text = out.str();
    ASSERT_TRUE(text.starts_with("ulibc-zdd 1\n")) << text.substr(0, 80);
    const ParsedZdd z = parse_zdd(text);
    EXPECT_EQ(z.s, p.s);
    EXPECT_EQ(z.t, p.t);
    EXPECT_TRUE(z.edges == r.zdd.edges);
    EXPECT_EQ(z.nodes.size(), r.zdd.size());
    // Ids number the nodes from 2 in the order they are written.
    for (std::size_t i = 0; i < z.nodes.size(); ++i) EXPECT_EQ(z.nodes[i].id, i + 2);
    EXPECT_EQ(count_parsed(z), r.count);
  }
}

// ---------------------------------------------------------------------------
// Sampling.

// Checks that `set` is a simple s-t path of p; returns its vertices.
std::vector<Vertex> expect_path(const PathProblem& p, const std::vector<PathEdge>& set) {
  const std::vector<Vertex> path = path_vertices(set, p.s);
  EXPECT_EQ(path.size(), set.size() + 1);
  EXPECT_EQ(path.front(), p.s);
  EXPECT_EQ(path.back(), p.t);
  EXPECT_EQ(std::set<Vertex>(path.begin(), path.end()).size(), path.size());
  std::set<std::uint64_t> edges;
  for (const PathEdge& e : p.edges) edges.insert(edge_key(e.u, e.v));
  for (std::size_t i = 0; i + 1 < path.size(); ++i) EXPECT_TRUE(edges.contains(edge_key(path[i], path[i + 1])));
  return path;
}

std::set<std::pair<Vertex, Vertex>> as_set(const std::vector<PathEdge>& set) {
  std::set<std::pair<Vertex, Vertex>> s;
  for (const PathEdge& e : set) s.insert({std::min(e.u, e.v), std::max(e.u, e.v)});
  return s;
}

TEST(Simpath, SamplesAreUniformOverThePaths) {
  // Chi-square over every path, with a fixed seed (so it cannot flake) and a
  // bound far in the tail: about 1e-5 for 11 degrees of freedom, 1e-6 for 183.
  struct Case {
    PathProblem p;
    int per_path;
    double bound;
  };
  for (const Case& c : {Case{grid_problem(2, 2), 1000, 45.0}, Case{grid_problem(3, 3), 100, 300.0},
                        Case{grid_problem(2, 3, 4, 6), 500, 0}}) {
    SCOPED_TRACE(c.p.name);
    const Result r = solve(c.p, {});
    const std::uint64_t paths = std::stoull(r.count);
    const double bound = c.bound > 0 ? c.bound : static_cast<double>(paths) + 8.0 * std::sqrt(2.0 * paths) + 20;
    const int k = static_cast<int>(paths) * c.per_path;
    const auto samples = sample_sets(r.zdd, k, 2024);
    ASSERT_EQ(samples.size(), static_cast<std::size_t>(k));
    std::map<std::set<std::pair<Vertex, Vertex>>, int> seen;
    for (const auto& set : samples) {
      expect_path(c.p, set);
      ++seen[as_set(set)];
    }
    EXPECT_EQ(seen.size(), paths) << "not every path was drawn";
    double chi2 = 0;
    for (const auto& [set, n] : seen) chi2 += (n - c.per_path) * double(n - c.per_path) / c.per_path;
    EXPECT_LT(chi2, bound) << paths << " paths";
  }
}

TEST(Simpath, SamplingIsDeterministicAndHandlesEdgeCases) {
  const PathProblem p = grid_problem(4, 4);
  const Result r = solve(p, {});
  const auto a = sample_sets(r.zdd, 50, 7), b = sample_sets(r.zdd, 50, 7), c = sample_sets(r.zdd, 50, 8);
  EXPECT_TRUE(a == b) << "same seed, different samples";
  EXPECT_FALSE(a == c) << "different seeds, same 50 samples of 8512 paths";
  // The first draws do not depend on how many are drawn.
  const auto first = sample_sets(r.zdd, 10, 7);
  EXPECT_TRUE(std::equal(first.begin(), first.end(), a.begin()));
  EXPECT_TRUE(sample_sets(r.zdd, 0, 7).empty());
  EXPECT_TRUE(sample_sets(r.zdd, -3, 7).empty());

  // An empty family: s and t apart.
  graph::EdgeList split{.vertices = 5, .edges = {{0, 1}, {1, 2}, {3, 4}}};
  const PathProblem apart = graph_problem(split, 0, 4, "split");
  const Result none = solve(apart, {});
  EXPECT_EQ(none.count, "0");
  EXPECT_TRUE(sample_sets(none.zdd, 5, 1).empty());
  const Result bare = solve(graph_problem(graph::EdgeList{.vertices = 3}, 0, 2, "bare"), {});
  EXPECT_TRUE(sample_sets(bare.zdd, 5, 1).empty());

  // One path only: every draw is it.
  graph::EdgeList line{.vertices = 4, .edges = {{0, 1}, {1, 2}, {2, 3}}};
  const PathProblem single = graph_problem(line, 3, 0, "line");
  const Result one = solve(single, {});
  EXPECT_EQ(one.count, "1");
  for (const auto& set : sample_sets(one.zdd, 5, 1))
    EXPECT_EQ(expect_path(single, set), (std::vector<Vertex>{3, 2, 1, 0}));

  // Beyond 128 bits: 2^130 ladder paths, 30 draws, all valid and distinct.
  const PathProblem ladder = grid_problem(1, 130);
  const Result big = solve(ladder, {});
  std::set<std::set<std::pair<Vertex, Vertex>>> distinct;
  for (const auto& set : sample_sets(big.zdd, 30, 99)) {
    expect_path(ladder, set);
    distinct.insert(as_set(set));
  }
  EXPECT_EQ(distinct.size(), 30u);
}

// ---------------------------------------------------------------------------
// Refusals and edge cases.

TEST(Simpath, BadEndsAreRefusedNamingThem) {
  const graph::EdgeList g{.vertices = 5, .edges = {{0, 1}, {1, 2}, {2, 3}, {3, 4}}};
  std::string e = input_error_of([&] { graph_problem(g, 3, 3, "g"); });
  EXPECT_CONTAINS(e, "s and t");
  EXPECT_CONTAINS(e, "3");
  e = input_error_of([&] { graph_problem(g, 5, 1, "g"); });
  EXPECT_CONTAINS(e, "s = 5");
  EXPECT_CONTAINS(e, "0..4");
  e = input_error_of([&] { graph_problem(g, 1, 7, "g"); });
  EXPECT_CONTAINS(e, "t = 7");
  EXPECT_CONTAINS(e, "0..4");
  e = input_error_of([&] { graph_problem(g, -1, 2, "g"); });
  EXPECT_CONTAINS(e, "s = -1");
  e = input_error_of([&] { graph_problem(g, 0, -2, "g"); });
  EXPECT_CONTAINS(e, "t = -2");
  e = input_error_of([&] { graph_problem(graph::EdgeList{.vertices = 0}, 0, 1, "empty"); });
  EXPECT_CONTAINS(e, "s = 0");
  // An edge naming a vertex beyond the count.
  e = input_error_of([&] { graph_problem(graph::EdgeList{.vertices = 3, .edges = {{0, 1}, {1, 3}}}, 0, 2, "g"); });
  EXPECT_CONTAINS(e, "{1, 3}");
}

TEST(Simpath, GraphsWithoutPathsCountZero) {
  // s and t in different components.
  const graph::EdgeList split{.vertices = 6, .edges = {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}}};
  for (int threads : {1, 2, 3}) {
    const Result r = solve(graph_problem(split, 0, 5, "split"), {.threads = threads});
    EXPECT_EQ(r.count, "0");
    EXPECT_EQ(r.zdd.root, kZero);
    EXPECT_EQ(r.zdd.size(), 0u);
    EXPECT_EQ(count_of(graph_problem(split, 4, 1, "split"), threads, EdgeOrder::greedy), "0");
  }
  // No edges at all, with and without other vertices.
  for (Vertex n : {2, 5}) {
    const Result r = solve(graph_problem(graph::EdgeList{.vertices = n}, 0, 1, "bare"), {.threads = 4});
    EXPECT_EQ(r.count, "0");
    EXPECT_EQ(r.zdd.root, kZero);
    EXPECT_TRUE(r.zdd.levels.empty());
    EXPECT_EQ(count_of(graph_problem(graph::EdgeList{.vertices = n}, 1, 0, "bare"), 1, EdgeOrder::greedy), "0");
  }
  // s isolated, t isolated, the rest a clique.
  graph::EdgeList clique{.vertices = 6};
  for (Vertex u = 1; u < 5; ++u)
    for (Vertex v = u + 1; v < 5; ++v) clique.edges.push_back({u, v});
  for (EdgeOrder order : {EdgeOrder::bfs, EdgeOrder::greedy}) {
    EXPECT_EQ(count_of(graph_problem(clique, 0, 3, "s alone"), 1, order), "0");
    EXPECT_EQ(count_of(graph_problem(clique, 3, 5, "t alone"), 2, order), "0");
    EXPECT_EQ(count_of(graph_problem(clique, 0, 5, "both alone"), 1, order), "0");
    EXPECT_EQ(count_of(graph_problem(clique, 1, 4, "inside"), 1, order), "5");  // 1 + 2 + 2
  }
  // A single edge; more threads than edges.
  const graph::EdgeList one{.vertices = 2, .edges = {{1, 0}}};
  for (int threads : {1, 2, 7}) EXPECT_EQ(count_of(graph_problem(one, 0, 1, "one"), threads), "1");
}

TEST(Simpath, SelfLoopsAndRepeatedEdgesAreDroppedAndReported) {
  const graph::EdgeList messy{
      .vertices = 5,
      .edges = {
          {0, 0}, {0, 1}, {1, 0}, {1, 2}, {2, 2}, {0, 1}, {2, 1}, {2, 3}, {3, 2}, {3, 4}, {4, 4}, {1, 3}, {0, 4}}};
  CleanReport report;
  const PathProblem p = graph_problem(messy, 0, 3, "messy", &report);
  EXPECT_EQ(report.self_loops, 3);
  EXPECT_EQ(report.duplicates, 4);  // {0,1} twice more, {1,2} and {2,3} once more
  // Each edge where it first appears: the "input" order is the file's.
  const std::vector<PathEdge> clean = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {1, 3}, {0, 4}};
  EXPECT_TRUE(p.edges == clean);
  EXPECT_TRUE(solve(p, {.order = EdgeOrder::input}).zdd.edges == clean);
  EXPECT_EQ(p.vertices, 5);
  const graph::EdgeList simple{.vertices = 5, .edges = {{0, 1}, {0, 4}, {1, 2}, {1, 3}, {2, 3}, {3, 4}}};
  const PathProblem q = graph_problem(simple, 0, 3, "simple");
  EXPECT_EQ(count_of(p), std::to_string(brute_force_paths(q)));
  EXPECT_EQ(count_of(p), "3");  // 0-1-3, 0-1-2-3, 0-4-3
  // Without a report pointer, the same problem.
  EXPECT_TRUE(graph_problem(messy, 0, 3, "messy").edges == clean);
  CleanReport none;
  graph_problem(simple, 0, 3, "simple", &none);
  EXPECT_EQ(none.self_loops, 0);
  EXPECT_EQ(none.duplicates, 0);
}

TEST(Simpath, BadGridsAreRefused) {
  for (auto [rows, cols] : {std::pair{0, 3}, std::pair{3, 0}, std::pair{0, 0}, std::pair{-1, 2}}) {
    const std::string e = input_error_of([&] { grid_problem(rows, cols); });
    EXPECT_CONTAINS(e, "grid " + std::to_string(rows) + "x" + std::to_string(cols));
  }
  EXPECT_CONTAINS(input_error_of([] { grid_problem(100000, 100000); }), "vertices");
  // Ends given by hand: checked as graph_problem checks them; the corners by default.
  std::string e = input_error_of([] { grid_problem(2, 2, 0, 9); });
  EXPECT_CONTAINS(e, "t = 9");
  EXPECT_CONTAINS(e, "0..8");
  EXPECT_CONTAINS(input_error_of([] { grid_problem(2, 2, -1, std::nullopt); }), "s = -1");
  EXPECT_CONTAINS(input_error_of([] { grid_problem(2, 2, 4, 4); }), "s and t are both vertex 4");
  EXPECT_CONTAINS(input_error_of([] { grid_problem(2, 2, 8, std::nullopt); }), "s and t are both vertex 8");
  EXPECT_CONTAINS(input_error_of([] { grid_problem(0, 2, 0, 1); }), "grid 0x2");
  const PathProblem corners = grid_problem(2, 3, std::nullopt, std::nullopt);
  const PathProblem mixed = grid_problem(2, 3, 5, std::nullopt);
  EXPECT_TRUE(corners.edges == grid_problem(2, 3).edges);
  EXPECT_EQ(corners.s, 0);
  EXPECT_EQ(corners.t, 11);
  EXPECT_EQ(mixed.s, 5);
  EXPECT_EQ(mixed.t, 11);
  EXPECT_CONTAINS(input_error_of([] { edge_order_named("dfs"); }), "dfs");
  EXPECT_EQ(edge_order_named("greedy"), EdgeOrder::greedy);
  EXPECT_EQ(edge_order_named(edge_order_name(EdgeOrder::bfs)), EdgeOrder::bfs);
}

TEST(Simpath, MemoryLimitStopsTheSearchWithTheReason) {
  const PathProblem p = grid_problem(9, 9);
  for (int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    const std::string e = input_error_of([&] { solve(p, {.threads = threads, .memory_limit = 1 << 20}); });
    EXPECT_CONTAINS(e, "memory limit");
    EXPECT_CONTAINS(e, "1 MiB");
    EXPECT_CONTAINS(e, "edge ");
    EXPECT_CONTAINS(e, "of 180");
  }
  // Exactly at the sequential search's own peak it fits; one byte less it
  // stops, wherever that is (the search or the reduction).
  const PathProblem q = grid_problem(5, 5);
  const Result free = solve(q, {.threads = 1});
  ASSERT_GT(free.peak_bytes, 0u);
  const Result tight = solve(q, {.threads = 1, .memory_limit = free.peak_bytes});
  EXPECT_EQ(tight.count, free.count);
  EXPECT_EQ(tight.peak_bytes, free.peak_bytes);
  for (std::uint64_t limit : {free.peak_bytes - 1, free.peak_bytes * 9 / 10, free.peak_bytes / 2, std::uint64_t{1}}) {
    SCOPED_TRACE(limit);
    EXPECT_CONTAINS(input_error_of([&] { solve(q, {.threads = 1, .memory_limit = limit}); }), "memory limit");
  }
  // In parallel, at any limit: the right count or a clean refusal.
  for (std::uint64_t limit : {free.peak_bytes / 4, free.peak_bytes, free.peak_bytes * 2}) {
    SCOPED_TRACE(limit);
    try {
      EXPECT_EQ(solve(q, {.threads = 3, .memory_limit = limit}).count, free.count);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::input);
      EXPECT_CONTAINS(e.what(), "memory limit");
    }
  }
  // And the search still works after all that.
  EXPECT_EQ(solve(q, {.threads = 2}).count, free.count);
}

TEST(Simpath, FrontierWiderThanAStateIsRefusedBeforeSearching) {
  // K_{2,w} in bfs order: the frontier is w+1 wide. 247 middles fit exactly.
  const Result fits = solve(fan_problem(247), {.order = EdgeOrder::bfs, .threads = 1});
  EXPECT_EQ(fits.max_frontier, detail::kMaxFrontier);
  EXPECT_EQ(fits.count, "247");
  EXPECT_EQ(zdd_defect(fits.zdd, fits.count), "");
  EXPECT_EQ(solve(fan_problem(247), {.order = EdgeOrder::bfs, .threads = 2}).count, "247");
  std::string e = input_error_of([] { solve(fan_problem(248), {.order = EdgeOrder::bfs, .threads = 1}); });
  EXPECT_CONTAINS(e, "frontier");
  EXPECT_CONTAINS(e, "249");
  EXPECT_CONTAINS(e, "248");
  // The greedy order, and so the automatic choice, keep the same graph narrow.
  EXPECT_EQ(count_of(fan_problem(300), 1, EdgeOrder::greedy), "300");
  const Result chosen = solve(fan_problem(300), {.order = EdgeOrder::automatic});
  EXPECT_EQ(chosen.count, "300");
  EXPECT_LT(chosen.max_frontier, 10);
  // A 250 x 250-cell grid is beyond every order.
  for (EdgeOrder order : kOrders) {
    e = input_error_of([&] { solve(grid_problem(250, 250), {.order = order, .threads = 2}); });
    EXPECT_CONTAINS(e, "frontier");
    EXPECT_CONTAINS(e, "248");
  }
}

TEST(Simpath, PathVerticesRefusesWhatIsNotAPathFromS) {
  const std::vector<PathEdge> path = {{2, 3}, {0, 1}, {1, 2}};
  EXPECT_EQ(path_vertices(path, 0), (std::vector<Vertex>{0, 1, 2, 3}));
  EXPECT_EQ(path_vertices(path, 3), (std::vector<Vertex>{3, 2, 1, 0}));
  EXPECT_EQ(path_vertices({}, 4), (std::vector<Vertex>{4}));
  const std::vector<std::pair<std::vector<PathEdge>, Vertex>> bad = {
      {path, 1},                              // s inside the path
      {path, 5},                              // s not on it
      {{{0, 1}, {2, 3}}, 0},                  // two pieces
      {{{0, 1}, {1, 2}, {2, 0}}, 0},          // a cycle through s
      {{{0, 1}, {1, 2}, {2, 3}, {3, 1}}, 0},  // a lollipop
      {{{0, 1}, {1, 2}, {1, 3}}, 0},          // a branch
      {{{0, 1}, {0, 1}}, 0},                  // an edge twice
      {{{0, 1}, {2, 3}, {3, 4}, {4, 2}}, 0},  // a path and a separate cycle
      {{{0, 1}, {1, 2}, {3, 4}, {4, 5}, {5, 3}}, 0},
  };
  for (const auto& [edges, s] : bad) {
    SCOPED_TRACE(::testing::Message() << edges.size() << " edges from " << s);
    input_error_of([&] { path_vertices(edges, s); });
  }
}

TEST(Simpath, ThreadCountBelowOneIsRefused) {
  for (int threads : {0, -2})
    EXPECT_CONTAINS(input_error_of([&] { solve(grid_problem(2, 2), {.threads = threads}); }), "thread");
}

// docs/ZDD_FORMAT.md's example is what write_zdd writes for the one-cell grid.
TEST(Simpath, WrittenZddOfOneCellIsTheDocumentedExample) {
  const PathProblem p = grid_problem(1, 1);
  const Result r = solve(p, {.order = EdgeOrder::bfs});
  std::ostringstream out;
  write_zdd(r.zdd, p.s, p.t, out);
  EXPECT_EQ(out.str(),
            "ulibc-zdd 1\n"
            "# the simple paths from s to t: each path is the set of edges its hi arcs take\n"
            "s 0\nt 3\nedges 4\n0 0 1\n1 0 2\n2 1 3\n3 2 3\n"
            "nodes 4\n2 3 0 1\n3 2 0 1\n4 1 0 2\n5 0 4 3\n"
            "root 5\n");
}

// Paths never leave s's component, and once its edges are decided no state is
// left: a component s cannot reach costs the search nothing, so its width
// should not refuse the problem (a 250 x 250-cell grid beside a triangle).
TEST(Simpath, ComponentsApartFromSDoNotLimitTheFrontier) {
  const PathProblem grid = grid_problem(250, 250);
  graph::EdgeList input{.vertices = grid.vertices + 3};
  for (const PathEdge& e : grid.edges) input.edges.push_back({e.u, e.v});
  const Vertex s = grid.vertices, mid = s + 1, t = s + 2;
  input.edges.push_back({s, mid});
  input.edges.push_back({mid, t});
  input.edges.push_back({s, t});
  for (EdgeOrder order : {EdgeOrder::bfs, EdgeOrder::greedy}) {
    SCOPED_TRACE(edge_order_name(order));
    try {
      EXPECT_EQ(count_of(graph_problem(input, s, t, "triangle beside a grid"), 1, order), "2");
    } catch (const Error& e) {
      ADD_FAILURE() << "refused: " << e.what();
    }
  }
}

// The corner cases of a graph without edges read consistently: no "its
// vertices are 0..-1", no "at edge 1 of 0", no state for zero steps.
TEST(Simpath, EdgelessGraphsAreReportedConsistently) {
  const std::string e = input_error_of([] { graph_problem(graph::EdgeList{.vertices = 0}, 0, 1, "empty"); });
  EXPECT_EQ(e.find("0..-1"), std::string::npos) << e;
  const PathProblem bare = graph_problem(graph::EdgeList{.vertices = 3}, 0, 2, "bare");
  const Result r = solve(bare, {});
  EXPECT_EQ(r.count, "0");
  EXPECT_EQ(r.states.size(), bare.edges.size()) << "states per step, for zero steps";
  try {
    EXPECT_EQ(solve(bare, {.memory_limit = 1}).count, "0");
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find("edge 1 of 0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ulibc::simpath
