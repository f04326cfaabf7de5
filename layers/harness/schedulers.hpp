// harness/schedulers.hpp — what the task kernels share: the --scheduler option and a run under each scheduler.
#pragma once
#include <string>
#include <vector>

#include "harness/bench_kernel.hpp"
#include "ulibc/tasks.hpp"

namespace ulibc::harness {

// "random,hierarchical,adws" (any of them, in any order, each once): Error(input) naming what is not one.
std::vector<tasks::Scheduler> scheduler_list(const std::string& text);
inline constexpr const char* kSchedulerListHelp =
    "Task schedulers to compare, comma-separated: random, hierarchical, adws (default: all three)";

// One result per scheduler, each from body(runtime) on a runtime of ctx.map's threads under that scheduler (with
// its statistics on when asked); the result's variant is the scheduler's name.
template <class Body>
std::vector<RunResult> run_per_scheduler(const RunContext& ctx, const std::vector<tasks::Scheduler>& schedulers,
                                         Body body, bool statistics = false) {
  std::vector<RunResult> results;
  for (const tasks::Scheduler s : schedulers) {
    tasks::Runtime rt(ctx.topo, ctx.map, {.scheduler = s, .statistics = statistics});
    RunResult r = body(rt);
    r.variant = tasks::scheduler_name(s);
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace ulibc::harness
