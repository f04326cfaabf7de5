// team_test.cpp — the team launcher under stress: many short teams, oversubscribed, with data
// handed between the caller and the team, and failures from several threads.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "ulibc.hpp"

namespace {

using ulibc::Mapping;
using ulibc::Placement;
using ulibc::Policy;
using ulibc::PolicyKind;
using ulibc::Topology;

Topology live() { return Topology::load("/", ulibc::Detail::placement); }

TEST(Team, ManyTeamsSeeTheCallersDataAndHandBackTheirs) {
  const Topology topo = live();
  for (int round = 0; round < 200; ++round) {
    const int threads = 1 + round % 8;
    const Mapping map = Mapping::build(topo, Policy(round % 3 ? PolicyKind::scatter : PolicyKind::none), threads);
    std::vector<int> input(static_cast<std::size_t>(threads), round);  // written before the team starts
    std::vector<int> output(static_cast<std::size_t>(threads), -1);
    ulibc::run_team(map, [&](const Placement& p) {
      output[static_cast<std::size_t>(p.thread)] = input[static_cast<std::size_t>(p.thread)] + p.thread;
    });
    for (int t = 0; t < threads; ++t) ASSERT_EQ(output[static_cast<std::size_t>(t)], round + t) << "round " << round;
  }
}

TEST(Team, EveryThreadIdRunsExactlyOnce) {
  const Mapping map = Mapping::build(live(), Policy(PolicyKind::compact), 16);
  std::vector<std::atomic<int>> runs(16);
  ulibc::run_team(map, [&](const Placement& p) { runs[static_cast<std::size_t>(p.thread)].fetch_add(1); });
  for (int t = 0; t < 16; ++t) EXPECT_EQ(runs[static_cast<std::size_t>(t)].load(), 1) << "thread " << t;
}

TEST(Team, FailuresOfSeveralThreadsGiveOneExceptionAndNoLeak) {
  const Mapping map = Mapping::build(live(), Policy(PolicyKind::scatter), 6);
  for (int round = 0; round < 50; ++round) {
    std::atomic<int> finished{0};
    EXPECT_THROW(ulibc::run_team(map,
                                 [&](const Placement& p) {
                                   finished.fetch_add(1);
                                   if (p.thread % 2) throw std::runtime_error("odd thread");
                                 }),
                 std::runtime_error);
    EXPECT_EQ(finished.load(), 6);
  }
}

TEST(Team, BodiesThatWaitForEachOtherDoNotHang) {
  const Mapping map = Mapping::build(live(), Policy(PolicyKind::scatter), 5);
  std::atomic<int> arrived{0};
  ulibc::run_team(map, [&](const Placement&) {
    arrived.fetch_add(1);
    while (arrived.load() < 5) std::this_thread::yield();  // every thread must be running at once
  });
  EXPECT_EQ(arrived.load(), 5);
}

}  // namespace
