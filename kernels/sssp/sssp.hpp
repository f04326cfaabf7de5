// sssp/sssp.hpp — shortest paths on road graphs: which algorithm answers a problem's queries, and running it.
//
// Single-source queries (the 9th DIMACS challenge's "ss" problems) are
// answered four ways: Dijkstra on one thread with a radix or a binary heap
// (dijkstra.hpp), Δ-stepping with each query on the whole team
// (delta_stepping.hpp), or many queries at once spread over the team
// (many_query.hpp). Point-to-point queries ("p2p") are Dijkstra's, stopped
// at the target. `ulibc sssp` and `ulibc bench sssp` both choose and run
// them here, so that the rules are the same wherever a query is answered.
//
// The public API is this header, road_problem.hpp, check_lines.hpp,
// dijkstra.hpp, delta_stepping.hpp, many_query.hpp and verify.hpp; the
// queues and the placed graph copy are internal, in ulibc::sssp::detail.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "graph/weighted_graph.hpp"
#include "sssp/dijkstra.hpp"
#include "sssp/many_query.hpp"
#include "sssp/road_problem.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/memory.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::sssp {

enum class Algorithm {
  radix,   // Dijkstra with the radix heap, on one thread
  binary,  // Dijkstra with the binary heap, on one thread
  delta,   // Δ-stepping, each query on the whole team
  many,    // the queries spread over the team, each on one thread's Dijkstra with the radix heap
};
std::string to_string(Algorithm a);  // "radix", "binary", "delta", "many": the names options give
bool is_sequential(Algorithm a);     // runs on one thread: radix and binary
Queue queue_of(Algorithm a);         // the queue of its Dijkstra (radix for those that choose none)

// How the queries are run, whichever algorithm runs them.
struct SolveOptions {
  graph::Distance delta = 0;          // delta's Δ; 0: DeltaStepping::default_delta
  PageKind pages = PageKind::normal;  // of the graph's copy and the searches' state
  bool replicate = false;             // many: one copy of the graph per node of the mapping
};

// Resolves the algorithm `name` (auto, radix, binary, delta or many) for the
// problem's queries on a team of `threads`. auto is radix on one thread;
// on more, many when there are at least as many sources as threads to
// spread, else delta. Error(input), naming the option, for an unknown name,
// a one-thread algorithm on a larger team, point-to-point queries by any
// other, options.replicate without many and a Δ without delta.
Algorithm resolve_algorithm(const std::string& name, int threads, const RoadProblem& problem,
                            const SolveOptions& options);

// Every source's query by `algorithm`, on an OpenMP team of map.size()
// threads that the caller has placed at map (ScopedOpenMPTeam). Errors as
// run_many_queries and run_queries_in_turn.
ManyQueryResult solve_sources(const graph::WeightedGraph& g, std::span<const Vertex> sources, const Topology& topo,
                              const Mapping& map, Algorithm algorithm, const SolveOptions& options);

struct PairAnswers {
  std::vector<graph::Distance> distances;  // by pair, in their order; kUnreached where the target is out of reach
  double seconds = 0;                      // the searches alone, summed
};
// Each pair by Dijkstra with `queue` on the calling thread, each search
// timed alone and stopped as soon as its target is settled.
PairAnswers answer_pairs(const graph::WeightedGraph& g, std::span<const graph::VertexPair> pairs, Queue queue);

}  // namespace ulibc::sssp
