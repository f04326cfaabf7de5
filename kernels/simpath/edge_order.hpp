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
  automatic,  // the narrowest frontier of input, greedy and bfs, in that order of preference (solve() chooses)
  bfs,        // vertices in breadth-first order from s, as Knuth's Simpath
  greedy,     // next the vertex that widens the frontier least (ties: nearer s, lower id)
  input,      // the edges as the problem lists them (a grid: row by row), as TdZdd and Graphillion's "as-is"
};

EdgeOrder edge_order_named(const std::string& name);  // "auto" | "bfs" | "greedy" | "input"; Error(input) otherwise
const char* edge_order_name(EdgeOrder order);

// The edges of `p` that can lie on an s-t path, in the order the search
// decides them: those of s's connected component, none when t lies outside
// it. bfs and greedy write each edge (earlier placed, later placed);
// automatic is taken as input here.
std::vector<PathEdge> order_edges(const PathProblem& p, EdgeOrder order);

}  // namespace ulibc::simpath
