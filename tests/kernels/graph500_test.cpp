// graph500_test.cpp — the Graph500 procedure: search keys, statistics and the output block.
#include "bfs/graph500.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "graph/builder.hpp"
#include "ulibc/error.hpp"

namespace {

using namespace ulibc::bfs;
using ulibc::graph::EdgeList;

TEST(Graph500Statistics, FollowTheReferenceDefinitions) {
  std::vector<double> xs(64);
  std::iota(xs.begin(), xs.end(), 1.0);
  std::reverse(xs.begin(), xs.end());  // order must not matter
  const Statistics s = statistics(xs);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 64);
  EXPECT_EQ(s.median, 32.5);
  EXPECT_EQ(s.first_quartile, 16.5);  // (x[15] + x[16]) / 2 of the sorted sample
  EXPECT_EQ(s.third_quartile, 48.5);
  EXPECT_EQ(s.mean, 32.5);
  EXPECT_NEAR(s.stddev, std::sqrt(64.0 * 4095 / 12 / 63), 1e-12);

  const Statistics odd = statistics({5, 1, 3, 2, 4});
  EXPECT_EQ(odd.median, 3);
  EXPECT_EQ(odd.first_quartile, 1.5);
  EXPECT_EQ(odd.third_quartile, 4.5);
  const Statistics one = statistics({7});
  EXPECT_EQ(one.first_quartile, 7);
  EXPECT_EQ(one.stddev, 0);
  EXPECT_THROW(statistics({}), ulibc::Error);
}

TEST(Graph500Statistics, HarmonicMeanIsTheRateOfTheTotal) {
  const HarmonicMean h = harmonic_mean({1, 2, 4});
  EXPECT_NEAR(h.mean, 3 / 1.75, 1e-12);
  // Reciprocals 1, 0.5, 0.25: mean 7/12, sample deviation s; the reference's s / (mean^2 sqrt(n - 1)).
  const double m = 7.0 / 12, s = std::sqrt(((1 - m) * (1 - m) + (0.5 - m) * (0.5 - m) + (0.25 - m) * (0.25 - m)) / 2);
  EXPECT_NEAR(h.stddev, s / (m * m * std::sqrt(2.0)), 1e-12);
  EXPECT_EQ(harmonic_mean({5, 5}).stddev, 0);
  EXPECT_THROW(harmonic_mean({1, 0}), ulibc::Error);
  EXPECT_THROW(harmonic_mean({}), ulibc::Error);
}

// A star on 0..4, an edge {6, 7}; vertices 5, 8, 9 have no edges.
EdgeList small_graph() { return {10, {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {6, 7}}}; }

TEST(Graph500Roots, AreDistinctVerticesWithEdgesFixedByTheSeed) {
  const auto g = ulibc::graph::build_undirected(small_graph(), 1);
  const auto roots = choose_roots(g, 4, 42);
  ASSERT_EQ(roots.size(), 4u);
  EXPECT_EQ(std::set<Vertex>(roots.begin(), roots.end()).size(), 4u);
  for (Vertex r : roots) EXPECT_GT(g.degree(r), 0) << r;
  EXPECT_EQ(roots, choose_roots(g, 4, 42));
  // More keys than vertices with edges: each of them once.
  auto all = choose_roots(g, 64, 42);
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, (std::vector<Vertex>{0, 1, 2, 3, 4, 6, 7}));
  // Another seed draws another sample (for this graph and these seeds).
  bool differs = false;
  for (std::uint64_t seed = 1; seed < 10 && !differs; ++seed) differs = choose_roots(g, 4, seed) != roots;
  EXPECT_TRUE(differs);
}

TEST(Graph500Procedure, TimesAndValidatesEverySearch) {
  const EdgeList input = small_graph();
  const auto g = ulibc::graph::build_undirected(input, 1);
  Bfs bfs(g, 2);
  const auto records = run_searches(bfs, input, {0, 6, 3}, {});
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].edges, 4);
  EXPECT_EQ(records[0].reached, 5);
  EXPECT_EQ(records[0].depth, 1);
  EXPECT_EQ(records[1].edges, 1);
  EXPECT_EQ(records[2].depth, 2);
  for (const SearchRecord& r : records) {
    EXPECT_TRUE(r.valid) << r.failure;
    EXPECT_GT(r.seconds, 0);
  }
}

TEST(Graph500Output, IsNameValueLinesEndingWithTheVerdict) {
  std::vector<SearchRecord> searches = {{.root = 1, .seconds = 0.5, .edges = 100, .valid = true},
                                        {.root = 2, .seconds = 0.25, .edges = 100, .valid = true}};
  const std::string out = graph500_output({{"SCALE", "10"}, {"edgefactor", "16"}}, searches);
  EXPECT_TRUE(out.starts_with("SCALE: 10\nedgefactor: 16\nNBFS: 2\n")) << out;
  EXPECT_NE(out.find("\nmin_time: 2.500000e-01\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\nmax_TEPS: 4.000000e+02\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\nharmonic_mean_TEPS: 2.666667e+02\n"), std::string::npos) << out;  // 200 edges in 0.75 s
  EXPECT_TRUE(out.ends_with("validation: PASSED (2 of 2 searches)\n")) << out;
  for (std::size_t begin = 0, end; begin < out.size(); begin = end + 1) {
    end = out.find('\n', begin);
    const std::string line = out.substr(begin, end - begin);
    EXPECT_NE(line.find(": "), std::string::npos) << line;
  }

  searches[1].valid = false;
  searches[1].failure = "check 4 (levels): ...";
  const std::string failed = graph500_output({}, searches);
  EXPECT_NE(failed.find("validation: FAILED (1 of 2 searches; root 2: check 4"), std::string::npos) << failed;
}

}  // namespace
