// binding_check.cpp — every thread of a team runs on its mapped processor, and a bound thread gets its old mask back.
//
// Teams: run_team, an OpenMP team under ScopedOpenMPTeam, the C API; masks given back as the paper's set_affinity /
// clear_affinity do.
#include <gtest/gtest.h>
#include <omp.h>

#include <string>
#include <thread>
#include <vector>

#include "lab.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"
#include "ulibc/ulibc.h"

namespace {

using lab::machine;
using lab::where;
using ulibc::CpuSet;
using ulibc::Mapping;
using ulibc::Placement;

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += "\n  " + l;
  return s;
}

// The mapping itself is the unit tests' business; here only what binding relies on.
void expect_sane(const Mapping& map) {
  for (const Placement& p : map.threads()) {
    EXPECT_TRUE(machine().usable().test(p.proc)) << "thread " << p.thread << " mapped to processor " << p.proc
                                                 << ", which is not usable (" << machine().usable().to_list() << ")";
    EXPECT_EQ(p.node, machine().node_of(p.proc)) << "thread " << p.thread << " on processor " << p.proc;
  }
}

void run_team_case(const Mapping& map) {
  expect_sane(map);
  const CpuSet before = ulibc::current_affinity();
  std::vector<int> cpu(map.size(), -1);
  std::vector<CpuSet> mask(map.size());
  ulibc::run_team(map, [&](const Placement& p) {
    cpu[p.thread] = ulibc::current_processor();
    mask[p.thread] = ulibc::current_affinity();
  });
  for (const Placement& p : map.threads()) {
    EXPECT_EQ(cpu[p.thread], p.proc) << "thread " << p.thread << ": sched_getcpu " << cpu[p.thread]
                                     << ", expected its mapped processor " << p.proc;
    EXPECT_EQ(mask[p.thread], CpuSet{p.proc}) << "thread " << p.thread << ": mask " << mask[p.thread].to_list()
                                              << ", expected only its mapped processor " << p.proc;
  }
  EXPECT_EQ(ulibc::current_affinity(), before) << "the caller's mask after run_team: expected " << before.to_list()
                                               << ", found " << ulibc::current_affinity().to_list();
}

TEST(Binding, RunTeamPutsEveryThreadOnItsProcessor) {
  for (const Mapping& map : lab::team_mappings(lab::live())) lab::check(where(map), [&] { run_team_case(map); });
}

// Each member's mask in a parallel region of `threads`, by thread number.
std::vector<CpuSet> team_masks(int threads) {
  std::vector<CpuSet> masks(threads);
#pragma omp parallel num_threads(threads)
  masks[omp_get_thread_num()] = ulibc::current_affinity();
  return masks;
}

void bound_team_checks(const Mapping& map, const ulibc::TeamBinding& team) {
  ASSERT_TRUE(team.bound) << "not bound: " << team.reason;
  ASSERT_EQ(team.cpus.size(), static_cast<std::size_t>(map.size())) << "TeamBinding.cpus";
  for (const Placement& p : map.threads())
    EXPECT_EQ(team.cpus[p.thread], p.proc) << "thread " << p.thread << ": sched_getcpu " << team.cpus[p.thread]
                                           << " right after binding, expected its mapped processor " << p.proc;
  const auto mismatches = team.mismatches(map);
  EXPECT_TRUE(mismatches.empty()) << "mismatches():" << join(mismatches);

  // The header's promise: later regions of the same size run on the same bound threads.
  std::vector<int> later(map.size(), -1);
#pragma omp parallel num_threads(map.size())
  later[omp_get_thread_num()] = ulibc::current_processor();
  for (const Placement& p : map.threads())
    EXPECT_EQ(later[p.thread], p.proc) << "thread " << p.thread << " in a later parallel region of " << map.size()
                                       << " threads: sched_getcpu " << later[p.thread] << ", expected " << p.proc;
}

// The team is bound for the guard's scope only: after it every member has its old mask back.
void openmp_team_case(const Mapping& map) {
  const std::vector<CpuSet> before = team_masks(map.size());
  {
    const ulibc::ScopedOpenMPTeam team(map);
    bound_team_checks(map, team.binding());
  }
  const std::vector<CpuSet> after = team_masks(map.size());
  for (const Placement& p : map.threads())
    EXPECT_EQ(after[p.thread], before[p.thread])
        << "thread " << p.thread << "'s mask after the team guard: expected " << before[p.thread].to_list()
        << ", found " << after[p.thread].to_list();
}

TEST(Binding, OpenMPTeamIsBoundAndStaysBound) {
  for (const Mapping& map : lab::team_mappings(lab::live()))
    lab::check(where(map) + ", ScopedOpenMPTeam", [&] { openmp_team_case(map); });
}

// set_affinity then clear_affinity, on every usable processor, from the
// main thread and from a new thread; the same through the C API.
void bind_then_restore(int proc, const CpuSet& before) {
  ulibc::bind_current_thread(proc);
  EXPECT_EQ(ulibc::current_processor(), proc) << "sched_getcpu after binding";
  EXPECT_EQ(ulibc::current_affinity(), CpuSet{proc}) << "mask after binding: " << ulibc::current_affinity().to_list();
  ulibc::restore_affinity();
  EXPECT_EQ(ulibc::current_affinity(), before)
      << "restore_affinity: expected " << before.to_list() << ", found " << ulibc::current_affinity().to_list();
}

void set_then_clear(int proc, const CpuSet& before) {
  ASSERT_EQ(ulibc_set_affinity(proc), 0) << ulibc_last_error();
  EXPECT_EQ(ulibc::current_processor(), proc) << "sched_getcpu after ulibc_set_affinity";
  ASSERT_EQ(ulibc_clear_affinity(), 0) << ulibc_last_error();
  EXPECT_EQ(ulibc::current_affinity(), before)
      << "ulibc_clear_affinity: expected " << before.to_list() << ", found " << ulibc::current_affinity().to_list();
}

void bind_and_restore_everywhere(const std::string& who) {
  const CpuSet before = ulibc::current_affinity();
  for (int proc : machine().usable()) {
    const std::string p = std::to_string(proc);
    lab::check(where(who + ", bind_current_thread(" + p + ")"), [&] { bind_then_restore(proc, before); });
    lab::check(where(who + ", ulibc_set_affinity(" + p + ")"), [&] { set_then_clear(proc, before); });
  }
}

TEST(Binding, SetAffinityThenClearAffinityRestoresTheMask) {
  bind_and_restore_everywhere("main thread");
  std::thread([] { bind_and_restore_everywhere("new thread"); }).join();
}

void offline_refused(int proc) {
  const CpuSet before = ulibc::current_affinity();
  try {
    ulibc::bind_current_thread(proc);
    ADD_FAILURE() << "bind_current_thread(" << proc << ") did not throw";
  } catch (const ulibc::Error& e) {
    EXPECT_EQ(e.kind(), ulibc::ErrorKind::input) << e.what();
    EXPECT_NE(std::string(e.what()).find(std::to_string(proc)), std::string::npos) << e.what();
  }
  EXPECT_EQ(ulibc_set_affinity(proc), -1);
  EXPECT_NE(std::string(ulibc_last_error()).find(std::to_string(proc)), std::string::npos) << ulibc_last_error();
  EXPECT_EQ(ulibc::current_affinity(), before) << "a refused binding changed the mask";
}

TEST(Binding, OfflineProcessorIsRefusedByName) {
  if (machine().offline.empty()) GTEST_SKIP() << "no processor offline on " << machine().name;
  for (int proc : machine().offline)
    lab::check(where("binding to offline processor " + std::to_string(proc)), [&] { offline_refused(proc); });
}

void c_api_team_case(const char* policy, int threads) {
  ASSERT_EQ(ulibc_init_with(nullptr, policy, threads), 0) << ulibc_last_error();
  const Mapping map = Mapping::build(lab::live(), ulibc::Policy::parse(policy), threads);
  for (const Placement& p : map.threads()) {
    EXPECT_EQ(ulibc_get_numa_procid(p.thread), p.proc) << "thread " << p.thread;
    EXPECT_EQ(ulibc_get_numa_node_osid(p.thread), p.node) << "thread " << p.thread;
    EXPECT_EQ(ulibc_get_numa_nodeid(p.thread), p.node_index) << "thread " << p.thread;
  }
  const CpuSet before = ulibc::current_affinity();
  ASSERT_EQ(ulibc_bind_openmp_team(), 1) << ulibc_last_error();
  std::vector<int> cpu(threads, -1);
#pragma omp parallel num_threads(threads)
  cpu[omp_get_thread_num()] = ulibc::current_processor();
  for (const Placement& p : map.threads())
    EXPECT_EQ(cpu[p.thread], p.proc) << "thread " << p.thread << ": sched_getcpu " << cpu[p.thread]
                                     << ", expected ulibc_get_numa_procid " << p.proc;
  ASSERT_EQ(ulibc_clear_affinity(), 0) << ulibc_last_error();
  EXPECT_EQ(ulibc::current_affinity(), before) << "the master's mask after ulibc_clear_affinity: expected "
                                               << before.to_list() << ", found " << ulibc::current_affinity().to_list();
}

TEST(Binding, CApiOpenMPTeam) {
  const int threads = machine().usable().count();
  for (const char* policy : {"scatter", "compact", "compact+"})
    lab::check(where(std::string("C API, policy ") + policy + ", " + std::to_string(threads) + " threads"),
               [&] { c_api_team_case(policy, threads); });
}

}  // namespace
