// sssp/many_query.hpp — batches of single-source queries, for throughput or for latency.
//
// Two ways: spread over a team, each thread running sequential Dijkstra on
// its own queries (throughput), or one after another, each on the whole
// team with Δ-stepping or on one thread with Dijkstra (latency).
//
// The graph is shared and read-only; each thread owns its distance array
// and queue, placed on its own node. The variables of Yasui's "NUMA-affinity: APSP" notes are the options:
// where the graph lies (one copy, or one per node of the mapping), on which
// pages (base or huge), and where the threads run (the mapping's policy).
// All-pairs is the extreme case: every vertex a source.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "graph/weighted_graph.hpp"
#include "sssp/dijkstra.hpp"
#include "sssp/verify.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/memory.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::sssp {

struct ManyQueryOptions {
  Queue queue = Queue::radix_heap;
  // Pages of the graph and of the per-thread state. With base pages and no
  // replication the kernels read the graph where it was loaded; otherwise
  // they read a placed copy (sssp/placed_graph.hpp).
  PageKind pages = PageKind::normal;
  // One copy of the graph per node of the mapping, each thread reading its
  // node's. Without a placement (policy none) there is no node to copy to:
  // one copy, interleaved over every node.
  bool replicate = false;
};

struct QueryRecord {
  Vertex source = 0;
  Reach reach;         // checksum, vertices and arcs reached
  double seconds = 0;  // the search alone, its distance array's reset included
  int thread = 0;      // the team member that ran it
};

struct ManyQueryResult {
  std::vector<QueryRecord> queries;  // in the order of the sources
  double seconds = 0;                // the whole batch, wall clock (each search sums its checksum as it goes)
  std::size_t graph_bytes = 0;       // of the copies made (0: the graph itself was read)
  int graph_copies = 0;
  std::string note;  // how placement fell back (no huge pages, ...), "" when none
  double queries_per_second() const { return seconds > 0 ? static_cast<double>(queries.size()) / seconds : 0; }
  // Traversed edges per second: the out-arcs of every query's reached vertices over the batch's time.
  double teps() const;
};

// Runs the queries on an OpenMP team of map.size() threads that the caller
// has placed at map (bind_openmp_team); thread t takes the next query
// whenever it is free. Error(input) for a source outside the graph or a
// smaller team than asked.
ManyQueryResult run_many_queries(const graph::WeightedGraph& g, std::span<const Vertex> sources, const Topology& topo,
                                 const Mapping& map, const ManyQueryOptions& options);

struct InTurnOptions {
  bool delta_stepping = true;  // else sequential Dijkstra with `queue` on the calling thread
  Queue queue = Queue::radix_heap;
  graph::Distance delta = 0;  // Δ; 0: DeltaStepping::default_delta
  // Pages of a copy of the graph and of the distance array, both
  // interleaved over the mapping's nodes (the whole team reads them). With
  // base pages the graph is read where it was loaded.
  PageKind pages = PageKind::normal;
};

// The queries one after another; the result's seconds are the sum of the
// queries' (checksums not included), every record's thread 0. Error(input)
// as run_many_queries, and for a Δ the weights cannot take.
ManyQueryResult run_queries_in_turn(const graph::WeightedGraph& g, std::span<const Vertex> sources,
                                    const Topology& topo, const Mapping& map, const InTurnOptions& options);

}  // namespace ulibc::sssp
