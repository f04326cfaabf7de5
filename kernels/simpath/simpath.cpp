// simpath/simpath.cpp — order, search, reduce, count.
#include "simpath/simpath.hpp"

#include <optional>

#include "harness/timer.hpp"
#include "simpath/build.hpp"
#include "simpath/reduce.hpp"
#include "ulibc/error.hpp"
#include "ulibc/process_memory.hpp"

namespace ulibc::simpath {

using detail::FrontierPlan;

namespace {

// The plan of `order`, or for automatic the narrowest of the candidates'.
FrontierPlan plan_for(const PathProblem& problem, EdgeOrder order, EdgeOrder& chosen) {
  if (order != EdgeOrder::automatic) {
    chosen = order;
    return FrontierPlan(problem, order_edges(problem, order));
  }
  std::optional<FrontierPlan> best;
  std::string refusal;
  for (const EdgeOrder candidate : {EdgeOrder::input, EdgeOrder::greedy, EdgeOrder::bfs}) {
    try {
      FrontierPlan plan(problem, order_edges(problem, candidate));
      if (!best || plan.max_width() < best->max_width()) best.emplace(std::move(plan)), chosen = candidate;
    } catch (const Error& e) {
      refusal = e.what();  // too wide in this order; another may do
    }
  }
  if (!best) throw input_error(refusal);
  return std::move(*best);
}

}  // namespace

Result solve(const PathProblem& problem, const Options& options) {
  Result r;
  harness::Timer order_timer;
  const FrontierPlan plan = plan_for(problem, options.order, r.order);
  r.order_seconds = order_timer.seconds();
  r.max_frontier = plan.max_width();
  const std::uint64_t available = ulibc::available_memory();  // 0: the kernel does not say
  const std::uint64_t limit = options.memory_limit != 0 ? options.memory_limit
                              : available != 0          ? available
                                                        : UINT64_MAX;
  detail::MemoryBudget budget(limit);

  harness::Timer build_timer;
  detail::Diagram diagram = detail::build_diagram(plan, options.threads, budget);
  r.build_seconds = build_timer.seconds();
  r.states = diagram.states();

  harness::Timer reduce_timer;
  detail::Reduced reduced = detail::reduce_and_count(plan, diagram, options.threads, budget);
  r.reduce_seconds = reduce_timer.seconds();
  r.count = std::move(reduced.count);
  r.zdd = std::move(reduced.zdd);
  r.peak_bytes = budget.peak();
  return r;
}

}  // namespace ulibc::simpath
