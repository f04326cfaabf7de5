// outside_binding_test.cpp — outside binding: OpenMP's binding variables, a narrowed process mask (from a
// snapshot's cgroup here; taskset in the virtual NUMA lab), the rule variable,
// and environment variables that disagree.
#include <gtest/gtest.h>
#include <sched.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fake_sysfs.hpp"
#include "scoped_env.hpp"
#include "ulibc.hpp"

namespace {

using ulibc::CpuSet;
using ulibc::Topology;
using ulibc::testing::FakeMachine;
using ulibc::testing::ScopedEnv;
using ulibc::testing::TempDir;

struct CleanEnv {
  ScopedEnv places{"OMP_PLACES", std::nullopt}, bind{"OMP_PROC_BIND", std::nullopt},
      gomp{"GOMP_CPU_AFFINITY", std::nullopt}, kmp{"KMP_AFFINITY", std::nullopt},
      rule{"ULIBC_OUTSIDE_BINDING", std::nullopt};
};

Topology snapshot(const FakeMachine& m, const TempDir& dir) {
  return Topology::load(ulibc::testing::write_fake_sysfs(m, dir.path()));
}

TEST(OutsideBinding, NothingSetIsNothingReported) {
  CleanEnv clean;
  TempDir dir;
  const auto found = ulibc::detect_outside_binding(snapshot({.packages = 2, .cores_per_package = 2}, dir));
  EXPECT_FALSE(found.any());
  EXPECT_EQ(found.describe(), "");
}

TEST(OutsideBinding, OpenMPVariablesThatBindAreListedInOrder) {
  CleanEnv clean;
  ScopedEnv gomp("GOMP_CPU_AFFINITY", "0-3"), places("OMP_PLACES", "cores"), kmp("KMP_AFFINITY", "compact");
  TempDir dir;
  const auto found = ulibc::detect_outside_binding(snapshot({.cores_per_package = 4}, dir));
  EXPECT_EQ(found.variables,
            (std::vector<std::string>{"OMP_PLACES=cores", "GOMP_CPU_AFFINITY=0-3", "KMP_AFFINITY=compact"}));
  EXPECT_EQ(found.describe(), "OMP_PLACES=cores, GOMP_CPU_AFFINITY=0-3, KMP_AFFINITY=compact set");
}

TEST(OutsideBinding, ValuesThatSwitchBindingOffAreNotBinding) {
  CleanEnv clean;
  ScopedEnv bind("OMP_PROC_BIND", "false"), kmp("KMP_AFFINITY", "none"), gomp("GOMP_CPU_AFFINITY", "");
  TempDir dir;
  EXPECT_FALSE(ulibc::detect_outside_binding(snapshot({.cores_per_package = 2}, dir)).any());
}

TEST(OutsideBinding, ACpusetNarrowerThanTheOnlineProcessorsIsReported) {
  CleanEnv clean;
  TempDir dir;
  const auto found = ulibc::detect_outside_binding(
      snapshot({.packages = 2, .cores_per_package = 4, .cpuset = CpuSet::parse_list("2-5")}, dir));
  EXPECT_TRUE(found.narrowed);
  EXPECT_EQ(found.process_mask, CpuSet::parse_list("2-5"));
  EXPECT_EQ(found.describe(), "process restricted to processors 2-5");
}

TEST(OutsideBinding, LiveProcessMaskIsTheMaskBeforeBinding) {
  CleanEnv clean;
  const Topology live = Topology::load("/", ulibc::Detail::placement);
  ulibc::bind_current_thread(live.usable().first());
  const auto found = ulibc::detect_outside_binding(live);
  ulibc::restore_affinity();
  EXPECT_EQ(found.process_mask, ulibc::current_affinity()) << "our own binding counted as outside binding";
}

// The live topology loaded while something other than ULIBC has pinned the process to one processor (as an
// OpenMP runtime or an MPI launcher does) and `variables` are set: it must be the machine as before, and its
// last note must contain `note`.
void expect_pinning_ignored(const std::vector<std::pair<const char*, const char*>>& variables,
                            const std::string& note) {
  const Topology before = Topology::load("/", ulibc::Detail::placement);
  cpu_set_t mask, one;
  ASSERT_EQ(sched_getaffinity(0, sizeof mask, &mask), 0);
  CPU_ZERO(&one);
  CPU_SET(before.usable().last(), &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);  // not through ULIBC
  std::vector<std::unique_ptr<ScopedEnv>> set;
  for (const auto& [name, value] : variables) set.push_back(std::make_unique<ScopedEnv>(name, value));
  const Topology after = Topology::load("/", ulibc::Detail::placement);
  ASSERT_EQ(sched_setaffinity(0, sizeof mask, &mask), 0);
  EXPECT_EQ(after.usable(), before.usable());
  ASSERT_FALSE(after.notes().empty());
  EXPECT_NE(after.notes().back().find(note), std::string::npos) << after.notes().back();
}

// An OpenMP runtime told to bind pins the initial thread before main: the
// live topology must not mistake that for the process's restriction.
TEST(OutsideBinding, OpenMPBindingVariablesDoNotNarrowTheLiveTopology) {
  CleanEnv clean;
  expect_pinning_ignored({{"OMP_PROC_BIND", "true"}}, "OMP_PROC_BIND=true is set");
}

// An MPI launcher may bind each rank to a core: the live topology is the machine the ranks share, so that each
// takes its share of the same processors (ulibc/rank_share.hpp).
TEST(OutsideBinding, AnMpiLaunchersBindingDoesNotNarrowTheLiveTopology) {
  CleanEnv clean;
  expect_pinning_ignored({{"OMPI_COMM_WORLD_LOCAL_RANK", "0"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"}},
                         "MPI launcher's local rank is set");
}

TEST(OutsideBinding, RuleComesFromTheEnvironment) {
  CleanEnv clean;
  EXPECT_EQ(ulibc::outside_rule_from_env(), ulibc::OutsideRule::respect);
  {
    ScopedEnv rule("ULIBC_OUTSIDE_BINDING", "override");
    EXPECT_EQ(ulibc::outside_rule_from_env(), ulibc::OutsideRule::override_it);
  }
  ScopedEnv rule("ULIBC_OUTSIDE_BINDING", "sometimes");
  try {
    ulibc::outside_rule_from_env();
    ADD_FAILURE() << "a bad rule was accepted";
  } catch (const ulibc::Error& e) {
    EXPECT_EQ(e.kind(), ulibc::ErrorKind::input);
    EXPECT_NE(std::string(e.what()).find("ULIBC_OUTSIDE_BINDING=\"sometimes\""), std::string::npos) << e.what();
  }
}

// Disagreeing thread counts: ULIBC's own variable wins over OpenMP's, as
// documented, and a malformed one is an error even when the other is fine.
TEST(OutsideBinding, UlibcThreadCountWinsOverOpenMPs) {
  ScopedEnv ours("ULIBC_NUM_THREADS", "3"), omp("OMP_NUM_THREADS", "5");
  EXPECT_EQ(ulibc::threads_from_env(1), 3);
  ScopedEnv bad("ULIBC_NUM_THREADS", "three");
  EXPECT_THROW(ulibc::threads_from_env(1), ulibc::Error);
}

// A policy asked of ULIBC while OpenMP is told to bind: the team is left to
// OpenMP under the default rule, and the reason names both.
TEST(OutsideBinding, PolicyAndOpenMPBindingTogetherAreReportedNotMixed) {
  CleanEnv clean;
  ScopedEnv policy("ULIBC_POLICY", "compact"), places("OMP_PLACES", "sockets"), bind("OMP_PROC_BIND", "spread");
  const Topology live = Topology::load("/", ulibc::Detail::placement);
  const auto map = ulibc::Mapping::build(live, ulibc::policy_from_env(), 1);
  const auto r = ulibc::bind_openmp_team(map);
  EXPECT_FALSE(r.bound);
  EXPECT_NE(r.reason.find("OMP_PLACES=sockets, OMP_PROC_BIND=spread"), std::string::npos) << r.reason;
}

}  // namespace
