// graph/edge_list.hpp — a graph as it comes in: vertex ids and edge tuples.
//
// This is Graph500's input: undirected tuples that may repeat and may be
// self-loops, over vertices 0..vertices-1 (some possibly without edges).
// Everything else (graph/csr_graph.hpp) is built from it.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

namespace ulibc::graph {

// Vertex ids are 32-bit, as in GAP and in the Graph500 reference code's
// compressed graphs: half the memory of 64-bit ids in every adjacency array,
// for graphs of up to 2^31 - 1 vertices (Kronecker SCALE 30).
using Vertex = std::int32_t;
// Positions in an adjacency array: a graph may hold more than 2^31 arcs.
using EdgeIndex = std::int64_t;

constexpr std::int64_t kMaxVertices = std::numeric_limits<Vertex>::max();

struct Edge {
  Vertex u = 0;
  Vertex v = 0;
  bool operator==(const Edge&) const = default;
};

struct EdgeList {
  std::int64_t vertices = 0;  // ids are 0..vertices-1; at most kMaxVertices
  std::vector<Edge> edges;    // undirected tuples, duplicates and self-loops kept
};

}  // namespace ulibc::graph
