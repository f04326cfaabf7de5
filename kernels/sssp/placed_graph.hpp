// sssp/placed_graph.hpp — a copy of a graph placed where the threads that read it should find it (internal).
//
// On one node, interleaved over several, on huge pages or not.
// A many-query run reads the whole graph once per query from every thread.
// Where the graph's pages lie decides how much of that is remote (Yasui's APSP
// notes: one copy per node, "replication", against one shared copy), and their
// size how many TLB misses the scattered reads of a search cost (huge
// pages). Both are measured here by giving the kernels a copy instead of
// the graph itself: they take a GraphView either way.
#pragma once
#include <string>

#include "graph/weighted_graph.hpp"
#include "ulibc/cpuset.hpp"
#include "ulibc/memory.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::sssp::detail {

class PlacedGraph {
 public:
  // A copy of g bound to `node` (an OS node id; memory-less nodes are
  // served by the nearest node with memory), on pages of `pages`.
  PlacedGraph(const graph::WeightedGraph& g, const Topology& topo, int node, PageKind pages);
  // A copy of g interleaved page by page over `nodes` (empty: all).
  PlacedGraph(const graph::WeightedGraph& g, const Topology& topo, const NodeSet& nodes, PageKind pages);

  graph::GraphView view() const { return view_; }
  // The pages it got (a fallback from huge pages is not an error) and why, "" when as asked.
  PageKind pages() const { return arcs_.pages(); }
  std::string note() const;
  std::size_t bytes() const { return offsets_.mapped_bytes() + arcs_.mapped_bytes(); }

 private:
  void copy(const graph::WeightedGraph& g);

  NumaBuffer offsets_;
  NumaBuffer arcs_;
  graph::GraphView view_;
};

}  // namespace ulibc::sssp::detail
