// simpath/edge_order.hpp — the order in which the search decides the edges.
//
// The search keeps one state per distinct "mate" assignment of its frontier
// (the vertices with edges both decided and undecided), so the number of
// states grows exponentially with the frontier's width: the edge order is
// what makes a graph tractable. Both orders place the vertices one by one
// and decide, when a vertex is placed, its edges to the vertices placed
// before it; the frontier is then the placed vertices that still have
// unplaced neighbours.
#pragma once
#include <string>
#include <vector>

#include "simpath/path_problem.hpp"

namespace ulibc::simpath {

enum class EdgeOrder {
  bfs,     // vertices in breadth-first order from s, as Knuth's Simpath
  greedy,  // next the vertex that widens the frontier least (ties: nearer s, lower id)
};

EdgeOrder edge_order_named(const std::string& name);  // "bfs" | "greedy"; Error(input) otherwise
const char* edge_order_name(EdgeOrder order);

// Every edge of `p` once, in the order the search decides them; each edge
// written (earlier placed, later placed). Vertices s cannot reach come after
// the others.
std::vector<PathEdge> order_edges(const PathProblem& p, EdgeOrder order);

}  // namespace ulibc::simpath
