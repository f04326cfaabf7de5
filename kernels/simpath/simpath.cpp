// simpath/simpath.cpp — order, search, reduce, count.
#include "simpath/simpath.hpp"

#include "harness/timer.hpp"
#include "simpath/build.hpp"
#include "simpath/reduce.hpp"
#include "ulibc/memory.hpp"

namespace ulibc::simpath {

Result solve(const PathProblem& problem, const Options& options) {
  Result r;
  bench::Timer order_timer;
  const FrontierPlan plan(problem, order_edges(problem, options.order));
  r.order_seconds = order_timer.seconds();
  r.max_frontier = plan.max_width();
  const std::uint64_t available = available_memory();  // 0: the kernel does not say
  MemoryBudget budget(options.memory_limit != 0 ? options.memory_limit : available != 0 ? available : UINT64_MAX);

  bench::Timer build_timer;
  Diagram diagram = build_diagram(plan, options.threads, budget);
  r.build_seconds = build_timer.seconds();
  r.states = diagram.states();

  bench::Timer reduce_timer;
  Reduced reduced = reduce_and_count(plan, diagram, options.threads, budget);
  r.reduce_seconds = reduce_timer.seconds();
  r.count = std::move(reduced.count);
  r.zdd = std::move(reduced.zdd);
  r.peak_bytes = budget.peak();
  return r;
}

}  // namespace ulibc::simpath
