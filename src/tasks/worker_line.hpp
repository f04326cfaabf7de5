// tasks/worker_line.hpp — the order of a task runtime's workers, and the order in which each looks at the others.
#pragma once
#include <vector>

#include "ulibc/mapping.hpp"

namespace ulibc::tasks::detail {

// The mapping's threads grouped by node, in the mapping's order within a node, so that a contiguous range of
// workers is processors of one node under every policy; compact's order already is, and stays as it is. Each
// entry's .thread is its position.
std::vector<Placement> worker_line(const Mapping& map);

// The workers other than w, nearest first: its core's SMT siblings, its node, then the other nodes in
// `node_order` (nodes_nearest_first); within each, by distance along the line.
std::vector<int> nearest_workers(const std::vector<Placement>& line, int w,
                                 const std::vector<std::vector<int>>& node_order);

// adws: the worker (of `workers`) a point of the line falls on, and whether [begin, end) crosses a worker boundary.
// Points are sums of products of hints: one within 1e-9 of a boundary is on it.
int worker_at(double x, int workers);
bool spans_workers(double begin, double end);

}  // namespace ulibc::tasks::detail
