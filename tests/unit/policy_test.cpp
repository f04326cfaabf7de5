// policy_test.cpp — the policies' processor orders and their names.
#include <gtest/gtest.h>

#include <cstdlib>

#include "fake_sysfs.hpp"
#include "live_machine.hpp"
#include "scoped_env.hpp"
#include "ulibc.hpp"

namespace {

using ulibc::CpuSet;
using ulibc::Mapping;
using ulibc::Policy;
using ulibc::PolicyKind;
using ulibc::Topology;
using ulibc::testing::FakeMachine;
using ulibc::testing::load_fake;
using ulibc::testing::ScopedEnv;

using ulibc::testing::procs;

TEST(Policy, ParsesEveryName) {
  EXPECT_EQ(Policy::parse("scatter").kind(), PolicyKind::scatter);
  EXPECT_EQ(Policy::parse("compact").kind(), PolicyKind::compact);
  EXPECT_EQ(Policy::parse("compact+").kind(), PolicyKind::compact_plus);
  EXPECT_EQ(Policy::parse("none").kind(), PolicyKind::none);
  const Policy list = Policy::parse("list:3,1,8-10");
  EXPECT_EQ(list.order(), (std::vector<int>{3, 1, 8, 9, 10}));
  EXPECT_EQ(Policy::parse(list.name()).order(), list.order());
  EXPECT_EQ(Policy::parse("compact+").name(), "compact+");
}

TEST(Policy, UnknownNameListsWhatIsAccepted) {
  try {
    Policy::parse("spread");
    ADD_FAILURE();
  } catch (const ulibc::Error& e) {
    const std::string msg = e.what();
    for (const char* word : {"spread", "scatter", "compact", "compact+", "none", "list:"})
      EXPECT_NE(msg.find(word), std::string::npos) << msg;
  }
  for (const char* bad : {"list:", "list:1-", "list:5-3", "list:a", "list:1,,2", "list:99999999999", "SCATTER", ""})
    EXPECT_THROW(Policy::parse(bad), ulibc::Error) << bad;
}

TEST(Mapping, WrapsAroundAndSaysSo) {
  const Topology t = load_fake(FakeMachine{.packages = 2, .cores_per_package = 2});
  const Mapping m = Mapping::build(t, Policy::parse("scatter"), 6);
  EXPECT_EQ(procs(m), (std::vector<int>{0, 2, 1, 3, 0, 2}));
  EXPECT_TRUE(m.oversubscribed());
  EXPECT_EQ(m[4].ordcore, 2);  // third thread on node 0
  EXPECT_FALSE(Mapping::build(t, Policy::parse("scatter"), 4).oversubscribed());
}

TEST(Mapping, ExplicitListKeepsItsOrder) {
  const Topology t = load_fake(FakeMachine{.packages = 2, .cores_per_package = 4});
  const Mapping m = Mapping::build(t, Policy::parse("list:5,0,6"), 4);
  EXPECT_EQ(procs(m), (std::vector<int>{5, 0, 6, 5}));
  EXPECT_EQ(m[0].node_index, 1);
  EXPECT_EQ(m[1].node_index, 0);
  EXPECT_EQ(m.threads_per_node(), (std::vector<int>{1, 3}));
  EXPECT_TRUE(m.oversubscribed());
}

TEST(Mapping, ListNamingAnUnusableProcessorIsAnError) {
  const Topology t = load_fake(FakeMachine{.packages = 1, .cores_per_package = 4, .offline = CpuSet{2}});
  for (const char* bad : {"list:2", "list:0,9"}) {
    try {
      Mapping::build(t, Policy::parse(bad), 2);
      ADD_FAILURE() << bad;
    } catch (const ulibc::Error& e) {
      EXPECT_NE(std::string(e.what()).find("not usable"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("0-1,3"), std::string::npos) << e.what();
    }
  }
}

TEST(Mapping, ThreadCountsOutsideTheLimitsAreErrors) {
  const Topology t = load_fake(FakeMachine{.packages = 1, .cores_per_package = 2});
  for (int n : {0, -1, Mapping::kMaxThreads + 1})
    EXPECT_THROW(Mapping::build(t, Policy::parse("compact"), n), ulibc::Error) << n;
  EXPECT_EQ(Mapping::build(t, Policy::parse("compact"), Mapping::kMaxThreads).size(), Mapping::kMaxThreads);
}

TEST(Mapping, OnlyUsableProcessorsAreUsedAndRanksStayDense) {
  // Node 0 keeps only processor 3 usable; the sparse node ids still give dense indices.
  const Topology t = load_fake(
      FakeMachine{.packages = 2, .cores_per_package = 4, .node_ids = {4, 9}, .cpuset = CpuSet::parse_list("3-7")});
  const Mapping m = Mapping::build(t, Policy::parse("scatter"), 5);
  EXPECT_EQ(procs(m), (std::vector<int>{3, 4, 5, 6, 7}));
  EXPECT_EQ(m.node_ids(), (std::vector<int>{4, 9}));
  EXPECT_EQ(m[1].node, 9);
  EXPECT_EQ(m[1].node_index, 1);
  EXPECT_EQ(m[1].core_index, 0);  // core 0 of node 9
  EXPECT_EQ(m.threads_per_node(), (std::vector<int>{1, 4}));
}

TEST(Mapping, CompactPlusAvoidsSiblingsUntilEveryCoreIsUsed) {
  const Topology t = load_fake(FakeMachine{
      .packages = 2, .cores_per_package = 2, .smt = 2, .numbering = ulibc::testing::Numbering::smt_adjacent});
  // Processors: package 0 core 0 = {0,1}, core 1 = {2,3}; package 1 = {4,5}, {6,7}.
  EXPECT_EQ(procs(Mapping::build(t, Policy::parse("compact+"), 8)), (std::vector<int>{0, 2, 4, 6, 1, 3, 5, 7}));
  EXPECT_EQ(procs(Mapping::build(t, Policy::parse("compact"), 8)), (std::vector<int>{0, 2, 1, 3, 4, 6, 5, 7}));
  EXPECT_EQ(procs(Mapping::build(t, Policy::parse("scatter"), 8)), (std::vector<int>{0, 4, 2, 6, 1, 5, 3, 7}));
}

TEST(Mapping, NoneBindsNothingAndGroupsEveryThread) {
  const Topology t = load_fake(FakeMachine{.packages = 2, .cores_per_package = 2});
  const Mapping m = Mapping::build(t, Policy::parse("none"), 3);
  EXPECT_EQ(procs(m), (std::vector<int>{-1, -1, -1}));
  EXPECT_EQ(m.nodes_used(), 1);
  EXPECT_EQ(m[2].ordcore, 2);
  EXPECT_EQ(m[2].node_index, 0);
}

TEST(Mapping, NoUsableProcessorIsAnError) {
  const Topology t = load_fake(FakeMachine{.packages = 1, .cores_per_package = 2, .cpuset = CpuSet{5}});
  EXPECT_TRUE(t.usable().empty());
  EXPECT_THROW(Mapping::build(t, Policy::parse("scatter"), 1), ulibc::Error);
}

TEST(Environment, PolicyAndThreadCount) {
  EXPECT_EQ(ulibc::policy_from_env(Policy(PolicyKind::compact)).kind(), PolicyKind::compact);
  {
    ScopedEnv p("ULIBC_POLICY", "compact+");
    EXPECT_EQ(ulibc::policy_from_env(Policy()).kind(), PolicyKind::compact_plus);
  }
  EXPECT_EQ(ulibc::threads_from_env(7), 7);
  {
    ScopedEnv omp("OMP_NUM_THREADS", "6,2");
    EXPECT_EQ(ulibc::threads_from_env(7), 6);
    ScopedEnv ulibc_n("ULIBC_NUM_THREADS", "3");
    EXPECT_EQ(ulibc::threads_from_env(7), 3);  // ULIBC's own variable wins over OpenMP's
  }
}

TEST(Environment, MalformedValuesNameTheVariable) {
  {
    ScopedEnv p("ULIBC_POLICY", "fast");
    try {
      ulibc::policy_from_env(Policy());
      ADD_FAILURE();
    } catch (const ulibc::Error& e) {
      EXPECT_NE(std::string(e.what()).find("ULIBC_POLICY"), std::string::npos) << e.what();
    }
  }
  for (const char* bad : {"0", "-4", "many", "99999999999", "4x"}) {
    ScopedEnv n("ULIBC_NUM_THREADS", bad);
    try {
      ulibc::threads_from_env(1);
      ADD_FAILURE() << bad;
    } catch (const ulibc::Error& e) {
      EXPECT_NE(std::string(e.what()).find("ULIBC_NUM_THREADS"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
