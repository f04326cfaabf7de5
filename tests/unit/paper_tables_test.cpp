// paper_tables_test.cpp — the ULIBC paper's example machine (4-way Sandy Bridge-EP: 4 packages = 4
// nodes, 8 cores, 2 SMT; processor = 8*package + core + 32*smt) must give
// exactly its Tables 3 and 4.
#include <gtest/gtest.h>

#include "fake_sysfs.hpp"
#include "live_machine.hpp"
#include "ulibc.hpp"

namespace {

using ulibc::Mapping;
using ulibc::Policy;

const ulibc::Topology& paper_machine() {
  static ulibc::testing::TempDir dir;
  static const ulibc::Topology topo = [] {
    ulibc::testing::FakeMachine m{.packages = 4, .cores_per_package = 8, .smt = 2};
    return ulibc::Topology::load(ulibc::testing::write_fake_sysfs(m, dir.path()));
  }();
  return topo;
}

// Table 3, read row by row: processor of threads 0..63.
const std::vector<int> kTable3Scatter = {0,  8,  16, 24, 1,  9,  17, 25, 2,  10, 18, 26, 3,  11, 19, 27,  //
                                         4,  12, 20, 28, 5,  13, 21, 29, 6,  14, 22, 30, 7,  15, 23, 31,  //
                                         32, 40, 48, 56, 33, 41, 49, 57, 34, 42, 50, 58, 35, 43, 51, 59,  //
                                         36, 44, 52, 60, 37, 45, 53, 61, 38, 46, 54, 62, 39, 47, 55, 63};
const std::vector<int> kTable3Compact = {0,  1,  2,  3,  4,  5,  6,  7,  32, 33, 34, 35, 36, 37, 38, 39,  //
                                         8,  9,  10, 11, 12, 13, 14, 15, 40, 41, 42, 43, 44, 45, 46, 47,  //
                                         16, 17, 18, 19, 20, 21, 22, 23, 48, 49, 50, 51, 52, 53, 54, 55,  //
                                         24, 25, 26, 27, 28, 29, 30, 31, 56, 57, 58, 59, 60, 61, 62, 63};

struct Table4 {
  const char* policy;
  std::vector<int> nodes, cores_per_node, threads_per_core;  // for 1, 2, 4, ..., 64 threads
};
const Table4 kTable4[] = {
    {"scatter", {1, 2, 4, 4, 4, 4, 4}, {1, 1, 1, 2, 4, 8, 8}, {1, 1, 1, 1, 1, 1, 2}},
    {"compact", {1, 1, 1, 1, 1, 2, 4}, {1, 2, 4, 8, 8, 8, 8}, {1, 1, 1, 1, 2, 2, 2}},
    {"compact+", {1, 1, 1, 1, 2, 4, 4}, {1, 2, 4, 8, 8, 8, 8}, {1, 1, 1, 1, 1, 1, 2}},
};
const int kThreadCounts[] = {1, 2, 4, 8, 16, 32, 64};

using ulibc::testing::procs;

std::vector<int> expected_table3(const std::string& policy, int threads) {
  std::vector<int> full = policy == "scatter"   ? kTable3Scatter
                          : policy == "compact" ? kTable3Compact
                                                : std::vector<int>{};
  if (full.empty())
    for (int t = 0; t < 64; ++t) full.push_back(t);  // compact+: thread t -> processor t
  return {full.begin(), full.begin() + threads};
}

TEST(PaperMachine, DiscoveredAsDescribed) {
  const auto& topo = paper_machine();
  ASSERT_EQ(topo.processors().size(), 64u);
  ASSERT_EQ(topo.nodes().size(), 4u);
  const auto* p = topo.processor(8 * 2 + 5 + 32);  // package 2, core 5, second sibling
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->package, 2);
  EXPECT_EQ(p->core_id, 5);
  EXPECT_EQ(p->smt, 1);
  EXPECT_EQ(p->node, 2);
}

TEST(PaperMachine, Table3ProcessorOfEveryThread) {
  for (const char* policy : {"scatter", "compact", "compact+"})
    for (int threads : kThreadCounts)
      EXPECT_EQ(procs(Mapping::build(paper_machine(), Policy::parse(policy), threads)),
                expected_table3(policy, threads))
          << policy << " with " << threads << " threads";
}

TEST(PaperMachine, Table4Counts) {
  for (const auto& row : kTable4) {
    for (std::size_t i = 0; i < std::size(kThreadCounts); ++i) {
      const Mapping m = Mapping::build(paper_machine(), Policy::parse(row.policy), kThreadCounts[i]);
      const std::string at = std::string(row.policy) + " with " + std::to_string(kThreadCounts[i]) + " threads";
      EXPECT_EQ(m.nodes_used(), row.nodes[i]) << at;
      EXPECT_EQ(m.max_cores_per_node(), row.cores_per_node[i]) << at;
      EXPECT_EQ(m.max_threads_per_core(), row.threads_per_core[i]) << at;
      EXPECT_FALSE(m.oversubscribed()) << at;
    }
  }
}

TEST(PaperMachine, SpecExamples) {
  const Mapping scatter = Mapping::build(paper_machine(), Policy::parse("scatter"), 64);
  EXPECT_EQ(scatter[32].proc, 32);
  const Mapping sixteen = Mapping::build(paper_machine(), Policy::parse("scatter"), 16);
  EXPECT_EQ(sixteen.threads_per_node(), (std::vector<int>{4, 4, 4, 4}));
}

TEST(PaperMachine, NodeIndexAndOrdcoreFollowTheTable) {
  const Mapping m = Mapping::build(paper_machine(), Policy::parse("scatter"), 8);
  // Threads 0..7 -> 0 8 16 24 1 9 17 25: node index t%4, rank t/4 within the node.
  for (int t = 0; t < 8; ++t) {
    EXPECT_EQ(m[t].node_index, t % 4) << t;
    EXPECT_EQ(m[t].ordcore, t / 4) << t;
    EXPECT_EQ(m[t].package, t % 4) << t;
  }
  const Mapping c = Mapping::build(paper_machine(), Policy::parse("compact"), 24);
  EXPECT_EQ(c.nodes_used(), 2);
  EXPECT_EQ(c[16].node_index, 1);  // processor 8: the second node used
  EXPECT_EQ(c[16].ordcore, 0);
  EXPECT_EQ(c[8].smt, 1);  // processor 32 is core 0's second sibling
}

}  // namespace
