// task_runtime.hpp — a task runtime on this machine for the tests: `workers` workers placed by `policy` (several
// per processor when the machine has fewer), under a scheduler.
#pragma once
#include "ulibc/mapping.hpp"
#include "ulibc/tasks.hpp"

namespace ulibc::testing {

inline const Topology& live_topology() {
  static const Topology topo = Topology::load();
  return topo;
}

inline tasks::Runtime task_runtime(int workers, tasks::Options options, PolicyKind policy = PolicyKind::scatter) {
  return tasks::Runtime(live_topology(), Mapping::build(live_topology(), Policy(policy), workers), options);
}

inline constexpr tasks::Scheduler kAllSchedulers[] = {tasks::Scheduler::random, tasks::Scheduler::hierarchical,
                                                      tasks::Scheduler::adws};

}  // namespace ulibc::testing
