// graph/csr_graph.hpp — an undirected graph in compressed sparse rows.
//
// Each edge {u, v} is stored twice, as the arcs u->v and v->u: the neighbours
// of v are neighbours()[offsets()[v] .. offsets()[v+1]). graph/builder.hpp
// makes one from an edge list (symmetric, no self-loops, no duplicates,
// neighbours in ascending order); the kernels read it and never change it.
#pragma once
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "graph/edge_list.hpp"

namespace ulibc::graph {

class CsrGraph {
 public:
  CsrGraph() : offsets_(1, 0) {}
  // offsets: vertices+1 non-decreasing entries, the first 0 and the last
  // neighbours.size(); neighbours: ids in 0..vertices-1. Error(input) when
  // these do not hold. Symmetry is the builder's promise and is not checked.
  CsrGraph(std::vector<EdgeIndex> offsets, std::vector<Vertex> neighbours);

  Vertex vertices() const { return static_cast<Vertex>(offsets_.size() - 1); }
  EdgeIndex arcs() const { return offsets_.back(); }  // twice the undirected edges
  EdgeIndex degree(Vertex v) const { return offsets_[v + 1] - offsets_[v]; }
  std::span<const Vertex> neighbours(Vertex v) const {
    return {neighbours_.data() + offsets_[v], static_cast<std::size_t>(degree(v))};
  }

  const std::vector<EdgeIndex>& offsets() const { return offsets_; }
  const std::vector<Vertex>& neighbour_array() const { return neighbours_; }
  // Bytes of the two arrays: what the graph costs in memory.
  std::size_t bytes() const { return offsets_.size() * sizeof(EdgeIndex) + neighbours_.size() * sizeof(Vertex); }

 private:
  std::vector<EdgeIndex> offsets_;
  std::vector<Vertex> neighbours_;
};

}  // namespace ulibc::graph
