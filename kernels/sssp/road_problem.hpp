// sssp/road_problem.hpp — what a shortest-path run solves: a graph and its queries.
//
// The graph is a file or the road generator's; the queries a DIMACS .ss or
// .p2p file, ids given, drawn at random, or every vertex. `ulibc sssp` and
// `ulibc bench sssp` set them up the same way.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/dimacs_io.hpp"
#include "graph/road_generator.hpp"
#include "graph/weighted_graph.hpp"
#include "harness/options.hpp"

namespace ulibc::sssp {

using graph::Vertex;

// The command-line options that choose a problem.
struct ProblemOptions {
  std::string graph_file;                // .gr text or ULIBC's binary
  std::vector<std::int64_t> generate;    // ROWS,COLS of a generated road graph
  graph::RoadParams road;                // its parameters (seed, deletion)
  std::string sources_file;              // DIMACS .ss
  std::string pairs_file;                // DIMACS .p2p
  std::vector<std::int64_t> source_ids;  // DIMACS ids (1-based)
  int queries = 0;                       // sources drawn at random (0: the default)
  bool all_pairs = false;                // every vertex a source

  // Registers --graph, --generate, --seed, --deletion, --sources, --source,
  // --queries, --all-pairs on `options`, and --pairs when `point_to_point`.
  void add_to(harness::Options& options, bool point_to_point);
  bool generated() const { return graph_file.empty(); }
};

struct RoadProblem {
  graph::WeightedGraph graph;
  graph::Coordinates coordinates;        // empty unless generated
  std::vector<Vertex> sources;           // 0-based
  std::vector<graph::VertexPair> pairs;  // point-to-point queries (only with --pairs)
  std::string queries_file;              // the .ss or .p2p file the queries were read from, "" when none
  std::string name;                      // the file, or "road-ROWSxCOLS-seedS"
  double load_seconds = 0;               // reading or generating, and building the CSR
};

// Error(input) naming the option: a graph both read and generated (or
// neither, when no default size is given), queries given two ways, a
// missing file, a source or pair naming a vertex not in the graph, a
// graph without arcs to draw sources from, more than `max_queries` sources.
// default_queries: sources drawn when none are named.
RoadProblem load_problem(const ProblemOptions& options, int default_queries, std::int64_t max_queries, int threads);

// k sources drawn uniformly, with repetition, among the vertices with at
// least one out-arc (a source without one answers nothing), from `seed`.
std::vector<Vertex> random_sources(const graph::WeightedGraph& g, int k, std::uint64_t seed);

}  // namespace ulibc::sssp
