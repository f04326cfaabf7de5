// rank_share_test.cpp — the ranks' shares of a machine: every case of the rule on synthetic machines, the
// launcher's local-rank variables, and threads placed by the policy inside a share.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "scoped_env.hpp"
#include "ulibc.hpp"

namespace {

using ulibc::CpuSet;
using ulibc::Mapping;
using ulibc::Policy;
using ulibc::PolicyKind;
using ulibc::RankShares;
using ulibc::Topology;
using ulibc::testing::expect_input_error;
using ulibc::testing::FakeMachine;
using ulibc::testing::load_fake;

const Policy kScatter(PolicyKind::scatter);
const Policy kCompact(PolicyKind::compact);

// The nodes a share's processors lie on.
std::set<int> nodes_of(const Topology& topo, const CpuSet& cpus) {
  std::set<int> nodes;
  for (int id : cpus) nodes.insert(topo.processor(id)->node);
  return nodes;
}

// The cores (machine-wide numbers) a share's processors belong to.
std::set<int> cores_of(const Topology& topo, const CpuSet& cpus) {
  std::set<int> cores;
  for (int id : cpus) cores.insert(topo.processor(id)->core);
  return cores;
}

// Shares that do not overlap and together are every usable processor.
void expect_partition(const Topology& topo, const RankShares& s) {
  CpuSet all;
  for (const CpuSet& share : s.cpus) {
    EXPECT_FALSE(share.empty());
    EXPECT_FALSE(share.intersects(all)) << share.to_list() << " overlaps " << all.to_list();
    all = all | share;
  }
  EXPECT_EQ(all, topo.usable());
}

// 8 nodes, 2 cores each, no SMT (8 packages of one node).
const FakeMachine kEightNodes{.packages = 8, .cores_per_package = 2};

TEST(RankShare, EightNodesFourRanksTakeTwoWholeNodesEach) {
  const Topology topo = load_fake(kEightNodes);
  const RankShares s = ulibc::rank_shares(topo, kScatter, 4);
  EXPECT_EQ(s.rule, 1);
  expect_partition(topo, s);
  for (int r = 0; r < 4; ++r) EXPECT_EQ(nodes_of(topo, s.cpus[r]), (std::set<int>{2 * r, 2 * r + 1})) << r;
}

TEST(RankShare, OneRankPerNodeWhenTheCountsMatch) {
  const Topology topo = load_fake(kEightNodes);
  const RankShares s = ulibc::rank_shares(topo, kCompact, 8);
  EXPECT_EQ(s.rule, 1);
  for (int r = 0; r < 8; ++r) EXPECT_EQ(nodes_of(topo, s.cpus[r]), std::set<int>{r});
}

TEST(RankShare, TwoNodesThreeRanksTakeRunsOfWholeCores) {
  // 2 nodes × 3 cores × 2 SMT: 3 ranks neither divide 2 nodes nor are divided by them.
  const Topology topo = load_fake({.packages = 2, .cores_per_package = 3, .smt = 2});
  const RankShares s = ulibc::rank_shares(topo, kCompact, 3);
  EXPECT_EQ(s.rule, 3);
  expect_partition(topo, s);
  std::set<int> seen;
  for (const CpuSet& share : s.cpus) {
    EXPECT_EQ(share.count(), 4) << share.to_list();  // two whole cores: both siblings of each
    EXPECT_EQ(cores_of(topo, share).size(), 2u);
    for (int core : cores_of(topo, share)) EXPECT_TRUE(seen.insert(core).second) << "core " << core << " shared";
  }
  // Compact goes node by node: rank 0 on node 0 alone, rank 2 on node 1 alone.
  EXPECT_EQ(nodes_of(topo, s.cpus[0]), std::set<int>{0});
  EXPECT_EQ(nodes_of(topo, s.cpus[2]), std::set<int>{1});
}

TEST(RankShare, ScatterRunsOfCoresGoRoundTheNodes) {
  const Topology topo = load_fake({.packages = 2, .cores_per_package = 3, .smt = 2});
  const RankShares s = ulibc::rank_shares(topo, kScatter, 3);
  EXPECT_EQ(s.rule, 3);
  expect_partition(topo, s);
  // Cores in scatter order alternate nodes, so each run of two cores spans both.
  for (const CpuSet& share : s.cpus) EXPECT_EQ(nodes_of(topo, share).size(), 2u) << share.to_list();
}

TEST(RankShare, MoreRanksThanNodesSplitEachNodeByCores) {
  // 2 nodes × 4 cores × 2 SMT, 4 ranks: two per node, two whole cores each.
  const Topology topo = load_fake({.packages = 2, .cores_per_package = 4, .smt = 2});
  const RankShares s = ulibc::rank_shares(topo, kScatter, 4);
  EXPECT_EQ(s.rule, 2);
  expect_partition(topo, s);
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(nodes_of(topo, s.cpus[r]), std::set<int>{r / 2});
    EXPECT_EQ(cores_of(topo, s.cpus[r]).size(), 2u);
    EXPECT_EQ(s.cpus[r].count(), 4);
  }
}

TEST(RankShare, SmtSiblingsAreSplitOnlyWhenRanksOutnumberCores) {
  // One node, 2 cores × 2 SMT: 4 ranks need the siblings apart, 5 must share.
  const Topology topo = load_fake({.cores_per_package = 2, .smt = 2});
  const RankShares four = ulibc::rank_shares(topo, kCompact, 4);
  EXPECT_EQ(four.rule, 4);
  expect_partition(topo, four);
  for (const CpuSet& share : four.cpus) EXPECT_EQ(share.count(), 1);
  const RankShares five = ulibc::rank_shares(topo, kCompact, 5);
  EXPECT_EQ(five.rule, 5);
  EXPECT_TRUE(five.shared());
  EXPECT_EQ(five.cpus[4], five.cpus[0]);  // round the order again
}

TEST(RankShare, AMemorylessNodeIsANodeWithProcessors) {
  // 4 nodes, node 1 without memory: 2 ranks take nodes {0, 1} and {2, 3}; the ranks' memory then goes to the
  // nearest node with memory, as for any thread on node 1.
  FakeMachine m{.packages = 4, .cores_per_package = 2};
  m.memoryless_nodes = CpuSet{1};
  const Topology topo = load_fake(m);
  const RankShares s = ulibc::rank_shares(topo, kCompact, 2);
  EXPECT_EQ(s.rule, 1);
  EXPECT_EQ(nodes_of(topo, s.cpus[0]), (std::set<int>{0, 1}));
  EXPECT_EQ(nodes_of(topo, s.cpus[1]), (std::set<int>{2, 3}));
}

TEST(RankShare, AListPolicyIsSplitInItsOwnOrder) {
  const Topology topo = load_fake(kEightNodes);
  const RankShares s = ulibc::rank_shares(topo, Policy::parse("list:15,0,7,8"), 2);
  EXPECT_EQ(s.rule, 4);
  EXPECT_EQ(s.cpus[0], (CpuSet{15, 0}));
  EXPECT_EQ(s.cpus[1], (CpuSet{7, 8}));
}

TEST(RankShare, ThreadsArePlacedByThePolicyInsideTheShare) {
  const Topology topo = load_fake({.packages = 2, .cores_per_package = 4, .smt = 2});
  const ulibc::LocalRank me{.rank = 3, .ranks = 4};
  const Topology view = ulibc::rank_view(topo, kScatter, me);
  const CpuSet share = ulibc::rank_shares(topo, kScatter, 4).cpus[3];
  EXPECT_EQ(view.usable(), share);
  const Mapping map = Mapping::build(view, kScatter, share.count());
  std::set<int> procs;
  for (const auto& p : map.threads()) {
    EXPECT_TRUE(share.test(p.proc)) << p.proc;
    procs.insert(p.proc);
  }
  EXPECT_EQ(static_cast<int>(procs.size()), share.count());
  EXPECT_FALSE(map.oversubscribed());
  // Scatter inside the share: both cores before any sibling.
  EXPECT_NE(topo.processor(map[0].proc)->core, topo.processor(map[1].proc)->core);
}

TEST(RankShare, AbsurdRankCountsAreRefused) {
  const Topology topo = load_fake(kEightNodes);
  expect_input_error([&] { ulibc::rank_shares(topo, kScatter, 0); }, "rank count 0 is outside 1..");
  expect_input_error([&] { ulibc::rank_shares(topo, kScatter, -3); }, "rank count -3");
  expect_input_error([&] { ulibc::rank_shares(topo, kScatter, Mapping::kMaxThreads + 1); }, "is outside 1..");
  // A local rank beyond the ranks asks for a share that does not exist.
  EXPECT_THROW(ulibc::rank_view(topo, kScatter, {.rank = 4, .ranks = 4}), std::out_of_range);
}

TEST(LauncherLocalRank, ReadsOpenMpiThenMpich) {
  using ulibc::testing::ScopedEnv;
  {
    ScopedEnv a("OMPI_COMM_WORLD_LOCAL_RANK", std::nullopt), b("OMPI_COMM_WORLD_LOCAL_SIZE", std::nullopt),
        c("MPI_LOCALRANKID", std::nullopt), d("MPI_LOCALNRANKS", std::nullopt);
    EXPECT_FALSE(ulibc::launcher_local_rank().has_value());
  }
  {
    ScopedEnv a("OMPI_COMM_WORLD_LOCAL_RANK", "2"), b("OMPI_COMM_WORLD_LOCAL_SIZE", "3"), c("MPI_LOCALRANKID", "0"),
        d("MPI_LOCALNRANKS", "1");
    const auto me = ulibc::launcher_local_rank();
    ASSERT_TRUE(me.has_value());
    EXPECT_EQ(me->rank, 2);
    EXPECT_EQ(me->ranks, 3);
  }
  {
    ScopedEnv a("OMPI_COMM_WORLD_LOCAL_RANK", std::nullopt), b("OMPI_COMM_WORLD_LOCAL_SIZE", std::nullopt),
        c("MPI_LOCALRANKID", "1"), d("MPI_LOCALNRANKS", "2");
    const auto me = ulibc::launcher_local_rank();
    ASSERT_TRUE(me.has_value());
    EXPECT_EQ(me->rank, 1);
    EXPECT_EQ(me->ranks, 2);
  }
}

TEST(LauncherLocalRank, MalformedValuesNameTheVariable) {
  using ulibc::testing::ScopedEnv;
  ScopedEnv c("MPI_LOCALRANKID", std::nullopt), d("MPI_LOCALNRANKS", std::nullopt);
  {
    ScopedEnv a("OMPI_COMM_WORLD_LOCAL_RANK", "3"), b("OMPI_COMM_WORLD_LOCAL_SIZE", "3");
    expect_input_error([] { ulibc::launcher_local_rank(); }, "OMPI_COMM_WORLD_LOCAL_RANK=\"3\": expected a local rank");
  }
  {
    ScopedEnv a("OMPI_COMM_WORLD_LOCAL_RANK", "x"), b("OMPI_COMM_WORLD_LOCAL_SIZE", "3");
    expect_input_error([] { ulibc::launcher_local_rank(); }, "OMPI_COMM_WORLD_LOCAL_RANK=\"x\"");
  }
  {
    ScopedEnv a("OMPI_COMM_WORLD_LOCAL_RANK", "0"), b("OMPI_COMM_WORLD_LOCAL_SIZE", "0");
    expect_input_error([] { ulibc::launcher_local_rank(); },
                       "OMPI_COMM_WORLD_LOCAL_SIZE=\"0\": expected a process count");
  }
  {
    ScopedEnv a("OMPI_COMM_WORLD_LOCAL_RANK", "1"), b("OMPI_COMM_WORLD_LOCAL_SIZE", std::nullopt);
    expect_input_error([] { ulibc::launcher_local_rank(); }, "OMPI_COMM_WORLD_LOCAL_SIZE is unset");
  }
}

}  // namespace
