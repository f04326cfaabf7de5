// graph/weighted_graph.hpp — a directed graph with non-negative integer arc
// weights, in compressed sparse rows: what the shortest-path kernels read.
//
// Road networks come as arc lists (DIMACS .gr, graph/dimacs_io.hpp) or from
// the generator (graph/road_generator.hpp); build_weighted() turns a list into
// the CSR form. Parallel arcs and self-loops are kept, as DIMACS allows both:
// a shortest path simply never uses the longer copy or the loop.
#pragma once
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "graph/edge_list.hpp"

namespace ulibc::graph {

// Arc weights are 32-bit and distances 64-bit: a simple path has fewer than
// 2^31 arcs, so no distance can overflow, whatever the weights. A weight
// beyond 32 bits is refused where it is read, naming its line.
using Weight = std::uint32_t;
using Distance = std::uint64_t;
constexpr Weight kMaxWeight = std::numeric_limits<Weight>::max();
// The distance of a vertex no path reaches.
constexpr Distance kUnreached = std::numeric_limits<Distance>::max();

// An arc as read or generated: tail -> head, ids 0-based.
struct WeightedArc {
  Vertex tail = 0;
  Vertex head = 0;
  Weight weight = 0;
  bool operator==(const WeightedArc&) const = default;
};

struct ArcList {
  std::int64_t vertices = 0;  // ids are 0..vertices-1; at most kMaxVertices
  std::vector<WeightedArc> arcs;
};

// Each vertex's place in the plane (DIMACS .co): x[v], y[v] for vertex v.
struct Coordinates {
  std::vector<std::int64_t> x;
  std::vector<std::int64_t> y;
  bool operator==(const Coordinates&) const = default;
};

// An arc in the CSR: head and weight side by side, so that relaxing an arc
// reads one place in memory, not two arrays.
struct Arc {
  Vertex head = 0;
  Weight weight = 0;
  bool operator==(const Arc&) const = default;
};

// The arrays of a graph without owning them: what the kernels take, so that
// the same code runs on the graph itself or on a copy placed elsewhere
// (on huge pages, on another node; sssp/placed_graph.hpp).
struct GraphView {
  Vertex vertices = 0;
  const EdgeIndex* offsets = nullptr;  // vertices + 1 entries
  const Arc* arcs = nullptr;           // offsets[vertices] entries

  EdgeIndex arc_count() const { return offsets[vertices]; }
  std::span<const Arc> out(Vertex v) const {
    return {arcs + offsets[v], static_cast<std::size_t>(offsets[v + 1] - offsets[v])};
  }
};

class WeightedGraph {
 public:
  WeightedGraph() : offsets_(1, 0) {}
  // offsets: vertices+1 non-decreasing entries from 0 to arcs.size(); every
  // head in 0..vertices-1. Error(input) naming what does not hold.
  WeightedGraph(std::vector<EdgeIndex> offsets, std::vector<Arc> arcs);

  Vertex vertices() const { return static_cast<Vertex>(offsets_.size() - 1); }
  EdgeIndex arc_count() const { return offsets_.back(); }
  std::span<const Arc> out(Vertex v) const { return view().out(v); }
  GraphView view() const { return {vertices(), offsets_.data(), arcs_.data()}; }

  // The smallest and largest arc weight; both 0 when there are no arcs.
  Weight min_weight() const { return min_weight_; }
  Weight max_weight() const { return max_weight_; }

  const std::vector<EdgeIndex>& offsets() const { return offsets_; }
  const std::vector<Arc>& arcs() const { return arcs_; }
  std::size_t bytes() const { return offsets_.size() * sizeof(EdgeIndex) + arcs_.size() * sizeof(Arc); }

 private:
  std::vector<EdgeIndex> offsets_;
  std::vector<Arc> arcs_;
  Weight min_weight_ = 0;
  Weight max_weight_ = 0;
};

// The CSR form of `list`: each tail's arcs in the order of the list.
// Error(input) naming the arc when an id lies outside 0..list.vertices-1 or
// list.vertices is negative or beyond kMaxVertices.
WeightedGraph build_weighted(const ArcList& list);

// The arcs of `g` as a list, tail by tail: build_weighted's inverse.
ArcList arc_list(const WeightedGraph& g);

}  // namespace ulibc::graph
