// road_generator_test.cpp — the road-like grid: its shape, its determinism
// across teams, the model's promises (symmetric streets, weights that follow
// the lengths, arterials that are fast and whole), and the realism of the
// defaults. Statistical bounds are many sigma wide, and the seeds are fixed.
#include "graph/road_generator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "expect_error.hpp"

namespace {

using namespace ulibc::graph;
using ulibc::testing::expect_input_error;

RoadParams grid(std::int64_t rows, std::int64_t cols, double deletion = 0.3, std::uint64_t seed = 1) {
  return {.rows = rows, .cols = cols, .deletion = deletion, .seed = seed};
}

std::int64_t full_grid_arcs(std::int64_t rows, std::int64_t cols) {
  return 2 * (rows * (cols - 1) + cols * (rows - 1));
}

// The header's rule, restated: a street along row r (or column c) is
// arterial when r % k == k / 2. u and v are grid neighbours.
bool arterial(const RoadParams& p, Vertex u, Vertex v) {
  const std::int64_t k = p.arterial_every;
  const bool along_row = u / p.cols == v / p.cols;
  const std::int64_t line = along_row ? u / p.cols : u % p.cols;
  return k > 0 && line % k == k / 2;
}

// Every street of the full grid, as (smaller id, larger id).
std::vector<WeightedArc> all_streets(const RoadParams& p) {
  std::vector<WeightedArc> streets;
  for (std::int64_t v = 0; v < p.rows * p.cols; ++v) {
    if (v % p.cols + 1 < p.cols) streets.push_back({static_cast<Vertex>(v), static_cast<Vertex>(v + 1), 0});
    if (v / p.cols + 1 < p.rows) streets.push_back({static_cast<Vertex>(v), static_cast<Vertex>(v + p.cols), 0});
  }
  return streets;
}

// Counts of present streets (arcs with tail < head) matching `which`, and of all streets matching it.
struct Tally {
  std::int64_t present = 0, all = 0;
};
Tally tally(const RoadParams& p, const RoadNetwork& g, const std::function<bool(Vertex, Vertex)>& which) {
  Tally t;
  for (const WeightedArc& a : g.arcs.arcs) t.present += a.tail < a.head && which(a.tail, a.head);
  for (const WeightedArc& s : all_streets(p)) t.all += which(s.tail, s.head);
  return t;
}

double length(const Coordinates& at, Vertex u, Vertex v) {
  const auto dx = static_cast<double>(at.x[static_cast<std::size_t>(v)] - at.x[static_cast<std::size_t>(u)]);
  const auto dy = static_cast<double>(at.y[static_cast<std::size_t>(v)] - at.y[static_cast<std::size_t>(u)]);
  return std::sqrt(dx * dx + dy * dy);
}

// Missing streets out of `t.all`, each missing with probability q: within 6 sigma of q * all.
void expect_binomial_missing(const Tally& t, double q) {
  const auto all = static_cast<double>(t.all), missing = static_cast<double>(t.all - t.present);
  const double sigma = std::sqrt(all * q * (1 - q));
  EXPECT_GT(missing, q * all - 6 * sigma) << "of " << t.all;
  EXPECT_LT(missing, q * all + 6 * sigma) << "of " << t.all;
}

TEST(RoadGenerator, NoDeletionGivesTheFullGrid) {
  using Shape = std::pair<std::int64_t, std::int64_t>;
  for (const auto& [rows, cols] : {Shape{1, 1}, Shape{1, 9}, Shape{9, 1}, Shape{2, 2}, Shape{7, 5}, Shape{40, 33}}) {
    const RoadNetwork g = generate_road(grid(rows, cols, 0), 2);
    EXPECT_EQ(g.arcs.vertices, rows * cols);
    EXPECT_EQ(static_cast<std::int64_t>(g.arcs.arcs.size()), full_grid_arcs(rows, cols)) << rows << " x " << cols;
    EXPECT_EQ(static_cast<std::int64_t>(g.coordinates.x.size()), rows * cols);
    EXPECT_EQ(static_cast<std::int64_t>(g.coordinates.y.size()), rows * cols);
  }
}

TEST(RoadGenerator, OneRowIsAPathWithGaps) {
  const RoadParams p{.rows = 1, .cols = 2000, .deletion = 0.5, .arterial_every = 0};
  const RoadNetwork g = generate_road(p, 2);
  for (const WeightedArc& a : g.arcs.arcs) EXPECT_EQ(std::abs(a.tail - a.head), 1);
  expect_binomial_missing(tally(p, g, [](Vertex, Vertex) { return true; }), 0.5);
  EXPECT_TRUE(generate_road(grid(1, 1), 1).arcs.arcs.empty());
}

TEST(RoadGenerator, ArcsJoinGridNeighboursInTailThenHeadOrder) {
  const RoadParams p = grid(60, 45);
  const RoadNetwork g = generate_road(p, 2);
  const auto& arcs = g.arcs.arcs;
  for (std::size_t i = 0; i < arcs.size(); ++i) {
    const WeightedArc& a = arcs[i];
    const bool same_row = a.tail / p.cols == a.head / p.cols;
    EXPECT_TRUE((same_row && std::abs(a.tail - a.head) == 1) || std::abs(a.tail - a.head) == p.cols)
        << a.tail << " -> " << a.head;
    if (i > 0) {
      const WeightedArc& b = arcs[i - 1];
      EXPECT_TRUE(b.tail < a.tail || (b.tail == a.tail && b.head < a.head)) << "arc " << i;
    }
  }
  // Already in CSR order: building the CSR and listing it again changes nothing.
  EXPECT_TRUE(arc_list(build_weighted(g.arcs)).arcs == arcs);
}

TEST(RoadGenerator, EveryArcHasItsReverseWithTheSameWeight) {
  const RoadNetwork g = generate_road(grid(70, 80), 2);
  const auto& arcs = g.arcs.arcs;
  const auto by_ends = [](const WeightedArc& a, const WeightedArc& b) {
    return a.tail < b.tail || (a.tail == b.tail && a.head < b.head);
  };
  for (const WeightedArc& a : arcs) {
    const auto r = std::lower_bound(arcs.begin(), arcs.end(), WeightedArc{a.head, a.tail, 0}, by_ends);
    ASSERT_TRUE(r != arcs.end() && r->tail == a.head && r->head == a.tail) << a.tail << " -> " << a.head;
    EXPECT_EQ(r->weight, a.weight);
  }
}

TEST(RoadGenerator, WeightsAreLengthsTimesADetourAndTheArterialFactor) {
  const RoadParams p = grid(120, 120, 0.3, 7);
  const RoadNetwork g = generate_road(p, 2);
  double lowest[2] = {1e9, 1e9}, highest[2] = {0, 0};  // weight / length, local and arterial
  for (const WeightedArc& a : g.arcs.arcs) {
    const bool fast = arterial(p, a.tail, a.head);
    const double factor = fast ? p.arterial_factor : 1.0;
    const double len = length(g.coordinates, a.tail, a.head);
    EXPECT_GE(a.weight, 1u);
    // Rounding moves a weight by at most half a unit.
    EXPECT_GE(a.weight + 0.5, len * factor) << a.tail << " -> " << a.head;
    EXPECT_LE(a.weight - 0.5, len * factor * kMaxDetour) << a.tail << " -> " << a.head;
    lowest[fast] = std::min(lowest[fast], a.weight / (len * factor));
    highest[fast] = std::max(highest[fast], a.weight / (len * factor));
  }
  // Thousands of detours of each kind: they span their range.
  for (int fast : {0, 1}) {
    EXPECT_LT(lowest[fast], 1.01);
    EXPECT_GT(highest[fast], kMaxDetour - 0.01);
  }
}

TEST(RoadGenerator, IntersectionsAreJitteredGridPoints) {
  const RoadParams p = grid(100, 90);
  const Coordinates at = generate_road(p, 2).coordinates;
  std::int64_t lowest = 0, highest = 0;
  double sum = 0;
  for (std::int64_t v = 0; v < p.rows * p.cols; ++v) {
    const auto i = static_cast<std::size_t>(v);
    for (const std::int64_t off : {at.x[i] - (v % p.cols) * kRoadSpacing, at.y[i] - (v / p.cols) * kRoadSpacing}) {
      lowest = std::min(lowest, off);
      highest = std::max(highest, off);
      sum += static_cast<double>(off);
    }
  }
  EXPECT_EQ(lowest, -kRoadJitter);
  EXPECT_EQ(highest, kRoadJitter);
  // 18000 uniform offsets of standard deviation ~173: the mean's sigma is ~1.3.
  EXPECT_LT(std::abs(sum / (2.0 * static_cast<double>(p.rows * p.cols))), 10);
}

TEST(RoadGenerator, SameNetworkWhateverTheTeam) {
  // The generator works in chunks of 2^14 vertices: 150 x 150 makes two,
  // 1 x 40000 three within one row, 300 x 300 six; 13 x 11 only one.
  for (const RoadParams& p :
       {grid(150, 150, 0.3, 5), grid(1, 40000, 0.2, 5), grid(300, 300, 0.3, 5), grid(13, 11, 0.6, 5)}) {
    const RoadNetwork one = generate_road(p, 1);
    for (int threads : {2, 3, 0}) {
      const RoadNetwork g = generate_road(p, threads);
      EXPECT_EQ(g.arcs.vertices, one.arcs.vertices);
      EXPECT_TRUE(g.arcs.arcs == one.arcs.arcs) << p.rows << " x " << p.cols << ", " << threads << " threads";
      EXPECT_TRUE(g.coordinates == one.coordinates) << p.rows << " x " << p.cols << ", " << threads << " threads";
    }
  }
}

TEST(RoadGenerator, SeedsGiveDifferentNetworks) {
  // Full grids, so that the i-th arc is the same street in every network.
  const RoadNetwork a = generate_road(grid(100, 100, 0, 1), 2), b = generate_road(grid(100, 100, 0, 2), 2);
  std::size_t same_weight = 0, same_x = 0;
  for (std::size_t i = 0; i < a.arcs.arcs.size(); ++i) same_weight += a.arcs.arcs[i].weight == b.arcs.arcs[i].weight;
  for (std::size_t i = 0; i < a.coordinates.x.size(); ++i) same_x += a.coordinates.x[i] == b.coordinates.x[i];
  // Independent draws agree about once in several hundred; related ones would agree often.
  EXPECT_LT(same_weight, a.arcs.arcs.size() / 50);
  EXPECT_LT(same_x, a.coordinates.x.size() / 50);
  EXPECT_FALSE(generate_road(grid(100, 100, 0.3, 1), 2).arcs.arcs ==
               generate_road(grid(100, 100, 0.3, 2), 2).arcs.arcs);
}

TEST(RoadGenerator, StreetsGoMissingAtTheDeletionRate) {
  for (const double q : {0.05, 0.3, 0.9}) {
    const RoadParams p{.rows = 300, .cols = 300, .deletion = q, .seed = 3, .arterial_every = 0};
    expect_binomial_missing(tally(p, generate_road(p, 2), [](Vertex, Vertex) { return true; }), q);
  }
}

TEST(RoadGenerator, ArterialsAreWholeAndOnlyLocalStreetsGoMissing) {
  const RoadParams p = grid(300, 300, 0.3, 4);
  const RoadNetwork g = generate_road(p, 2);
  const Tally fast = tally(p, g, [&](Vertex u, Vertex v) { return arterial(p, u, v); });
  EXPECT_EQ(fast.present, fast.all);
  EXPECT_EQ(fast.all, 2 * 37 * 299);  // rows and columns 4, 12, ..., 292, of 299 streets each
  expect_binomial_missing(tally(p, g, [&](Vertex u, Vertex v) { return !arterial(p, u, v); }), p.deletion);
}

TEST(RoadGenerator, DefaultsLookLikeARoadNetwork) {
  RoadParams p;
  p.rows = p.cols = 300;
  const RoadNetwork g = generate_road(p, 2);
  const auto n = static_cast<double>(p.rows * p.cols);
  const double degree = static_cast<double>(g.arcs.arcs.size()) / n;
  EXPECT_GT(degree, 2.9);  // about 2.95, less a little at the border
  EXPECT_LT(degree, 3.0);
  std::vector<int> out(static_cast<std::size_t>(p.rows * p.cols), 0);
  for (const WeightedArc& a : g.arcs.arcs) ++out[static_cast<std::size_t>(a.tail)];
  const double isolated = static_cast<double>(std::count(out.begin(), out.end(), 0)) / n;
  EXPECT_GT(isolated, 0.003);  // 0.3^4 of the (7/8)^2 of vertices off the arterials: 0.62%
  EXPECT_LT(isolated, 0.01);
  std::vector<Weight> weights;
  for (const WeightedArc& a : g.arcs.arcs) weights.push_back(a.weight);
  std::nth_element(weights.begin(), weights.begin() + static_cast<std::ptrdiff_t>(weights.size() / 2), weights.end());
  EXPECT_GT(weights[weights.size() / 2], 900u);  // a local street: ~1000 long, detour ~1.25
  EXPECT_LT(weights[weights.size() / 2], 1500u);
}

// Dijkstra from s, returning each vertex's predecessor on a shortest path (-1: none).
std::vector<Vertex> shortest_path_tree(const WeightedGraph& g, Vertex s) {
  std::vector<Distance> dist(static_cast<std::size_t>(g.vertices()), kUnreached);
  std::vector<Vertex> parent(dist.size(), -1);
  using Item = std::pair<Distance, Vertex>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  dist[static_cast<std::size_t>(s)] = 0;
  queue.push({0, s});
  while (!queue.empty()) {
    const auto [d, u] = queue.top();
    queue.pop();
    if (d > dist[static_cast<std::size_t>(u)]) continue;
    for (const Arc& a : g.out(u)) {
      if (d + a.weight < dist[static_cast<std::size_t>(a.head)]) {
        dist[static_cast<std::size_t>(a.head)] = d + a.weight;
        parent[static_cast<std::size_t>(a.head)] = u;
        queue.push({d + a.weight, a.head});
      }
    }
  }
  return parent;
}

TEST(RoadGenerator, LongShortestPathsRunOnArterials) {
  // From near one corner to near the other, both off the arterials: most of
  // the way is worth taking at twice the speed.
  const RoadParams p = grid(64, 64, 0.3, 1);
  const RoadNetwork g = generate_road(p, 2);
  const auto at = [&](std::int64_t r, std::int64_t c) { return static_cast<Vertex>(r * p.cols + c); };
  const std::vector<Vertex> parent = shortest_path_tree(build_weighted(g.arcs), at(1, 2));
  int arcs = 0, fast = 0;
  for (Vertex v = at(62, 61); parent[static_cast<std::size_t>(v)] >= 0; v = parent[static_cast<std::size_t>(v)]) {
    ++arcs;
    fast += arterial(p, parent[static_cast<std::size_t>(v)], v);
  }
  ASSERT_GE(arcs, 120) << "the target is not reached";  // at least the 120 blocks between the two
  EXPECT_GT(fast, arcs * 3 / 4);
}

// Pins the streams: a benchmark that records its parameters can be
// regenerated by a later version. Change the expected value only when
// changing the generator on purpose.
TEST(RoadGenerator, KnownAnswerForSeedOne) {
  const RoadNetwork g = generate_road(grid(20, 30), 2);
  std::uint64_t hash = 14695981039346656037ULL;  // FNV-1a over the arcs, then the places
  const auto add = [&](std::uint64_t word) { hash = (hash ^ word) * 1099511628211ULL; };
  for (const WeightedArc& a : g.arcs.arcs) {
    add(static_cast<std::uint64_t>(a.tail));
    add(static_cast<std::uint64_t>(a.head));
    add(a.weight);
  }
  for (std::size_t v = 0; v < g.coordinates.x.size(); ++v) {
    add(static_cast<std::uint64_t>(g.coordinates.x[v]));
    add(static_cast<std::uint64_t>(g.coordinates.y[v]));
  }
  EXPECT_EQ(hash, 16839485524623678882ULL);
}

TEST(RoadGenerator, RefusesBadParametersNamingThem) {
  expect_input_error([] { check(grid(0, 10)); }, "rows 0 is less than 1");
  expect_input_error([] { check(grid(10, -3)); }, "cols -3 is less than 1");
  expect_input_error([] { generate_road(grid(10, 0)); }, "cols 0 is less than 1");
  expect_input_error([] { check(grid(65536, 65536)); }, "rows x cols = 65536 x 65536 is more than the 2147483647");
  expect_input_error([] { check(grid(std::numeric_limits<std::int64_t>::max(), 2)); }, "rows x cols");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const double q : {-0.1, 1.0, 1.5, nan}) expect_input_error([&] { check(grid(10, 10, q)); }, "deletion");
  expect_input_error([] { check(grid(10, 10, 1.0)); }, "deletion 1 is outside [0, 1)");
  expect_input_error([] { check({.arterial_every = -1}); }, "arterial_every -1 is negative");
  for (const double f : {0.0, -0.5, 1.01, nan})
    expect_input_error([&] { check({.arterial_factor = f}); }, "arterial_factor");
}

TEST(RoadGenerator, AcceptsTheEdgesOfTheRanges) {
  EXPECT_NO_THROW(check(grid(1, 1, 0)));
  EXPECT_NO_THROW(check(grid(1, kMaxVertices)));
  EXPECT_NO_THROW(check(grid(kMaxVertices, 1, 0.999)));
  EXPECT_NO_THROW(check({.arterial_every = 0, .arterial_factor = 1}));
  EXPECT_NO_THROW(check(RoadParams{}));
}

}  // namespace
