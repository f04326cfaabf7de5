// simpath/simpath.hpp — counting the simple s-t paths of a graph with a ZDD.
//
// Knuth's Simpath (TAOCP 7.1.4): a frontier-based search builds the ZDD of
// every simple path from s to t, one node per distinct frontier state
// (frontier.hpp), which is then reduced and counted exactly (reduce.hpp).
// On one thread the search is sequential; on more it is the lock-free
// edge-based approach of Takeuchi et al. (build.hpp), whose threads the
// caller places (the ULIBC paper, section 4.2: neighbouring steps' threads
// close together).
//
// The public API is this header, path_problem.hpp, edge_order.hpp, zdd.hpp
// (with node_ref.hpp, the names of its nodes), sample.hpp and verify.hpp; the
// rest of the folder is internal, in ulibc::simpath::detail.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "simpath/edge_order.hpp"
#include "simpath/path_problem.hpp"
#include "simpath/zdd.hpp"

namespace ulibc::simpath {

struct Options {
  // automatic: of the input order, greedy and bfs, the one whose frontier
  // is narrowest (ties in that order). On grids that is the input's row by
  // row order, which makes 2.6x fewer ZDD nodes than bfs's diagonals.
  EdgeOrder order = EdgeOrder::automatic;
  int threads = 1;                 // the OpenMP team of the search and the reduction
  std::uint64_t memory_limit = 0;  // bytes the search may hold; 0: the memory available now
};

struct Result {
  std::string count;                   // the number of simple s-t paths, in decimal
  EdgeOrder order = EdgeOrder::input;  // the order used (never automatic)
  Zdd zdd;                             // reduced; zdd.levels[i].size() nodes decide zdd.edges[i]
  std::vector<std::uint64_t> states;   // per step: frontier states the search made
  int max_frontier = 0;                // the widest frontier (working slots)
  double order_seconds = 0, build_seconds = 0, reduce_seconds = 0;
  std::uint64_t peak_bytes = 0;  // the most the search held at once, by its own count
  double seconds() const { return order_seconds + build_seconds + reduce_seconds; }
  std::uint64_t total_states() const {
    std::uint64_t n = 0;
    for (std::uint64_t s : states) n += s;
    return n;
  }
};

// Error(input) for a problem out of reach: a frontier too wide for a state,
// or the memory limit reached (naming the limit and how far the search got).
Result solve(const PathProblem& problem, const Options& options);

}  // namespace ulibc::simpath
