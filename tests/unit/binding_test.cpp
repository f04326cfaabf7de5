// binding_test.cpp — binding on the live machine: the calling thread, std::thread teams, OpenMP teams, the C API.
//
// Also the scoped OpenMP team guard, and the C API's set_affinity / clear_affinity. The machine may have only one or
// two processors; every test works with what it has.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <latch>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "scoped_env.hpp"
#include "ulibc.hpp"
#include "ulibc/ulibc.h"

namespace {

using ulibc::CpuSet;
using ulibc::Mapping;
using ulibc::Placement;
using ulibc::Policy;
using ulibc::PolicyKind;
using ulibc::Topology;
using ulibc::testing::ScopedEnv;

// Every test starts and ends unbound, so one failure cannot leak into the next.
class Binding : public ::testing::Test {
 protected:
  void SetUp() override { original_ = ulibc::current_affinity(); }
  void TearDown() override {
    ulibc::restore_affinity();
    EXPECT_EQ(ulibc::current_affinity(), original_) << "a test left the thread bound";
  }
  Topology live() const { return Topology::load("/", ulibc::Detail::placement); }
  CpuSet original_;
};

TEST_F(Binding, BindsTheCallingThreadAndRestoresItsMask) {
  const int proc = live().usable().last();
  ulibc::bind_current_thread(proc);
  EXPECT_EQ(ulibc::current_affinity(), CpuSet({proc}));
  EXPECT_EQ(ulibc::current_processor(), proc);
  EXPECT_EQ(ulibc::affinity_before_binding(), original_);
  ulibc::restore_affinity();
  EXPECT_EQ(ulibc::current_affinity(), original_);
}

TEST_F(Binding, RestoreGoesBackToTheMaskBeforeTheFirstBind) {
  const CpuSet usable = live().usable();
  ulibc::bind_current_thread(usable.first());
  ulibc::bind_current_thread(usable.last());
  ulibc::bind_current_thread(usable);
  ulibc::restore_affinity();
  EXPECT_EQ(ulibc::current_affinity(), original_);
}

TEST_F(Binding, RestoreWithoutBindIsHarmless) {
  ulibc::restore_affinity();
  EXPECT_EQ(ulibc::current_affinity(), original_);
}

TEST_F(Binding, RefusedProcessorsAreInputErrorsAndLeaveTheMask) {
  const int absent = live().all().last() + 1;
  for (int bad : {-1, absent, ulibc::CpuSet::kMaxId + 1}) {
    try {
      ulibc::bind_current_thread(bad);
      ADD_FAILURE() << "binding to " << bad << " succeeded";
    } catch (const ulibc::Error& e) {
      EXPECT_EQ(e.kind(), ulibc::ErrorKind::input);
      EXPECT_NE(std::string(e.what()).find(std::to_string(bad)), std::string::npos) << e.what();
    }
    EXPECT_EQ(ulibc::current_affinity(), original_) << "after binding to " << bad;
  }
  EXPECT_THROW(ulibc::bind_current_thread(CpuSet{}), ulibc::Error);
}

TEST_F(Binding, LiveTopologyIgnoresOurOwnBinding) {
  const CpuSet usable = live().usable();
  ulibc::bind_current_thread(usable.first());
  EXPECT_EQ(live().usable(), usable) << "a bound thread's topology lost processors";
}

TEST_F(Binding, NonePlacementBindsNothing) {
  const Mapping none = Mapping::build(live(), Policy(PolicyKind::none), 2);
  ulibc::bind_current_thread(none[0]);
  EXPECT_EQ(ulibc::current_affinity(), original_);
}

TEST_F(Binding, RunTeamBindsEveryThreadToItsEntry) {
  const Topology topo = live();
  for (const char* policy : {"scatter", "compact", "compact+"}) {
    for (int threads : {1, topo.usable().count(), 2 * topo.usable().count()}) {
      const Mapping map = Mapping::build(topo, Policy::parse(policy), threads);
      std::vector<int> seen(static_cast<std::size_t>(threads), -2);
      std::vector<CpuSet> masks(static_cast<std::size_t>(threads));
      ulibc::run_team(map, [&](const Placement& p) {
        seen[static_cast<std::size_t>(p.thread)] = ulibc::current_processor();
        masks[static_cast<std::size_t>(p.thread)] = ulibc::current_affinity();
      });
      for (const Placement& p : map.threads()) {
        EXPECT_EQ(seen[static_cast<std::size_t>(p.thread)], p.proc) << policy << ", thread " << p.thread;
        EXPECT_EQ(masks[static_cast<std::size_t>(p.thread)], CpuSet({p.proc})) << policy << ", thread " << p.thread;
      }
      EXPECT_EQ(ulibc::current_affinity(), original_) << policy << ": the caller's mask was not restored";
    }
  }
}

TEST_F(Binding, RunTeamKeepsAnAlreadyBoundCallersMask) {
  const Topology topo = live();
  ulibc::bind_current_thread(topo.usable().last());
  ulibc::run_team(Mapping::build(topo, Policy(PolicyKind::scatter), 2), [](const Placement&) {});
  EXPECT_EQ(ulibc::current_affinity(), CpuSet({topo.usable().last()}));
  ulibc::restore_affinity();
  EXPECT_EQ(ulibc::current_affinity(), original_);
}

TEST_F(Binding, RunTeamFollowsAListInItsOrder) {
  const Topology topo = live();
  std::vector<int> order = topo.usable().ids();
  std::reverse(order.begin(), order.end());
  const Mapping map = Mapping::build(topo, Policy::explicit_list(order), static_cast<int>(order.size()));
  std::vector<int> seen(order.size());
  ulibc::run_team(map,
                  [&](const Placement& p) { seen[static_cast<std::size_t>(p.thread)] = ulibc::current_processor(); });
  EXPECT_EQ(seen, order);
}

TEST_F(Binding, RunTeamRethrowsABodysExceptionAfterEveryThreadFinished) {
  const Mapping map = Mapping::build(live(), Policy(PolicyKind::scatter), 4);
  std::atomic<int> finished{0};
  EXPECT_THROW(ulibc::run_team(map,
                               [&](const Placement& p) {
                                 ++finished;
                                 if (p.thread == 2) throw std::runtime_error("thread 2 failed");
                               }),
               std::runtime_error);
  EXPECT_EQ(finished.load(), 4);
  EXPECT_EQ(ulibc::current_affinity(), original_);
}

TEST_F(Binding, BindThreadsBindsRunningThreads) {
  const Mapping map = Mapping::build(live(), Policy(PolicyKind::compact), 2);
  std::latch bound(1);
  std::vector<int> seen(2, -2);
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&, t] {
      bound.wait();
      seen[static_cast<std::size_t>(t)] = ulibc::current_processor();
    });
  ulibc::bind_threads(map, threads);
  bound.count_down();
  for (auto& t : threads) t.join();
  EXPECT_EQ(seen, (std::vector<int>{map[0].proc, map[1].proc}));
  std::vector<std::thread> one(1);
  EXPECT_THROW(ulibc::bind_threads(map, one), ulibc::Error);  // sizes differ
}

// The OpenMP tests clear OpenMP's binding variables: CI may set them.
struct NoOpenMPBinding {
  ScopedEnv places{"OMP_PLACES", std::nullopt}, bind{"OMP_PROC_BIND", std::nullopt},
      gomp{"GOMP_CPU_AFFINITY", std::nullopt}, kmp{"KMP_AFFINITY", std::nullopt},
      rule{"ULIBC_OUTSIDE_BINDING", std::nullopt};
};

// The guard unbinds the team even when an assertion leaves the test early.
TEST_F(Binding, OpenMPTeamIsBoundAndStaysBoundInLaterRegions) {
  NoOpenMPBinding clean;
  const Mapping map = Mapping::build(live(), Policy(PolicyKind::scatter), 2);
  const ulibc::ScopedOpenMPTeam team(map);
  const ulibc::TeamBinding& r = team.binding();
  ASSERT_TRUE(r.bound) << r.reason;
  EXPECT_TRUE(r.mismatches(map).empty()) << r.mismatches(map).front();
  std::vector<int> later(2, -2);
#pragma omp parallel num_threads(2)
  later[static_cast<std::size_t>(omp_get_thread_num())] = ulibc::current_processor();
  EXPECT_EQ(later, (std::vector<int>{map[0].proc, map[1].proc})) << "a later region of the same size moved";
}

TEST_F(Binding, OpenMPTeamRespectsOutsideBindingUnlessOverridden) {
  NoOpenMPBinding clean;
  ScopedEnv outside("OMP_PROC_BIND", "close");
  const Mapping map = Mapping::build(live(), Policy(PolicyKind::scatter), 2);
  const ulibc::TeamBinding respected = ulibc::bind_openmp_team(map);
  EXPECT_FALSE(respected.bound);
  EXPECT_NE(respected.reason.find("OMP_PROC_BIND=close"), std::string::npos) << respected.reason;
  const ulibc::ScopedOpenMPTeam overridden(map, ulibc::OutsideRule::override_it);
  EXPECT_TRUE(overridden.bound());
  EXPECT_TRUE(overridden.binding().mismatches(map).empty());
}

// Each member's mask in a parallel region of `threads`, by thread number.
std::vector<CpuSet> team_masks(int threads) {
  std::vector<CpuSet> masks(static_cast<std::size_t>(threads));
#pragma omp parallel num_threads(threads)
  masks[static_cast<std::size_t>(omp_get_thread_num())] = ulibc::current_affinity();
  return masks;
}

std::vector<CpuSet> mapped_masks(const Mapping& map) {
  std::vector<CpuSet> masks;
  for (const Placement& p : map.threads()) masks.push_back(CpuSet({p.proc}));
  return masks;
}

TEST_F(Binding, ScopedOpenMPTeamBindsForItsScopeAndRestoresEveryMember) {
  NoOpenMPBinding clean;
  const Topology topo = live();
  const Mapping map = Mapping::build(topo, Policy(PolicyKind::scatter), std::min(2, topo.usable().count()));
  const std::vector<CpuSet> before = team_masks(map.size());
  {
    const ulibc::ScopedOpenMPTeam team(map);
    ASSERT_TRUE(team.bound()) << team.binding().reason;
    EXPECT_EQ(team_masks(map.size()), mapped_masks(map));
  }
  EXPECT_EQ(team_masks(map.size()), before) << "the team kept its binding after the scope";
}

TEST_F(Binding, ScopedOpenMPTeamRestoresWhenAnExceptionLeavesTheScope) {
  NoOpenMPBinding clean;
  const Topology topo = live();
  const Mapping map = Mapping::build(topo, Policy(PolicyKind::compact), std::min(2, topo.usable().count()));
  const std::vector<CpuSet> before = team_masks(map.size());
  const auto bind_then_fail = [&] {
    const ulibc::ScopedOpenMPTeam team(map);
    EXPECT_EQ(team_masks(map.size()), mapped_masks(map));
    throw std::runtime_error("the kernel failed");
  };
  EXPECT_THROW(bind_then_fail(), std::runtime_error);
  EXPECT_EQ(team_masks(map.size()), before) << "an exception left the team bound";
}

// Under policy none the guard binds nothing, so it must restore nothing either:
// a team bound by hand beforehand keeps its masks.
TEST_F(Binding, ScopedOpenMPTeamUnderPolicyNoneNeitherBindsNorRestores) {
  NoOpenMPBinding clean;
  const Topology topo = live();
  const int threads = std::min(2, topo.usable().count());
  const Mapping by_hand = Mapping::build(topo, Policy(PolicyKind::scatter), threads);
  const std::vector<CpuSet> before = team_masks(threads);
#pragma omp parallel num_threads(threads)
  ulibc::bind_current_thread(by_hand[omp_get_thread_num()]);
  {
    const ulibc::ScopedOpenMPTeam team(Mapping::build(topo, Policy(PolicyKind::none), threads));
    EXPECT_FALSE(team.bound());
    EXPECT_NE(team.binding().reason.find("none"), std::string::npos) << team.binding().reason;
    EXPECT_EQ(team_masks(threads), mapped_masks(by_hand)) << "policy none bound the team";
  }
  EXPECT_EQ(team_masks(threads), mapped_masks(by_hand)) << "policy none restored masks it never bound";
#pragma omp parallel num_threads(threads)
  ulibc::restore_affinity();
  EXPECT_EQ(team_masks(threads), before);
}

TEST_F(Binding, OpenMPTeamUnderPolicyNoneIsNotBound) {
  NoOpenMPBinding clean;
  const ulibc::TeamBinding r = ulibc::bind_openmp_team(Mapping::build(live(), Policy(PolicyKind::none), 2));
  EXPECT_FALSE(r.bound);
  EXPECT_NE(r.reason.find("none"), std::string::npos);
}

TEST_F(Binding, MismatchesNameTheThreadAndBothProcessors) {
  const Mapping map = Mapping::build(live(), Policy(PolicyKind::scatter), 1);
  ulibc::TeamBinding r;
  r.cpus = {map[0].proc + 1};
  ASSERT_EQ(r.mismatches(map).size(), 1u);
  EXPECT_EQ(r.mismatches(map)[0],
            "thread 0 on processor " + std::to_string(map[0].proc + 1) + ", mapped to " + std::to_string(map[0].proc));
}

TEST_F(Binding, CApiSetAndClearAffinity) {
  ASSERT_EQ(ulibc_init_with("/", "compact", 1), 0) << ulibc_last_error();
  const int proc = ulibc_get_numa_procid(0);
  ASSERT_EQ(ulibc_set_affinity(proc), 0) << ulibc_last_error();
  EXPECT_EQ(ulibc::current_affinity(), CpuSet({proc}));
  ASSERT_EQ(ulibc_clear_affinity(), 0);
  EXPECT_EQ(ulibc::current_affinity(), original_);

  const int absent = live().all().last() + 1;
  EXPECT_EQ(ulibc_set_affinity(absent), -1);
  EXPECT_NE(std::string(ulibc_last_error()).find("processor " + std::to_string(absent) + " is not usable"),
            std::string::npos)
      << ulibc_last_error();
  EXPECT_EQ(ulibc_set_affinity(-3), -1);
  EXPECT_EQ(ulibc::current_affinity(), original_);
}

TEST_F(Binding, CApiBindsAnOpenMPTeam) {
  NoOpenMPBinding clean;
  ASSERT_EQ(ulibc_init_with("/", "scatter", 2), 0) << ulibc_last_error();
  EXPECT_EQ(ulibc_bind_openmp_team(), 1) << ulibc_last_error();
  std::vector<int> seen(2, -2), rc(2, -2);
#pragma omp parallel num_threads(2)
  {
    const int t = omp_get_thread_num();
    rc[static_cast<std::size_t>(t)] = ulibc_bind_thread();
    seen[static_cast<std::size_t>(t)] = ulibc::current_processor();
    ulibc_clear_affinity();
  }
  EXPECT_EQ(rc, (std::vector<int>{0, 0}));
  EXPECT_EQ(seen, (std::vector<int>{ulibc_get_numa_procid(0), ulibc_get_numa_procid(1)}));

  ScopedEnv outside("OMP_PLACES", "cores");
  EXPECT_EQ(ulibc_bind_openmp_team(), 0);
  EXPECT_NE(std::string(ulibc_last_error()).find("OMP_PLACES=cores"), std::string::npos) << ulibc_last_error();
}

}  // namespace
