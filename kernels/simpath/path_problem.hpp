// simpath/path_problem.hpp — a graph and the two ends whose simple paths are counted.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "graph/edge_list.hpp"

namespace ulibc::simpath {

using graph::Vertex;

// An undirected edge.
struct PathEdge {
  Vertex u = 0;
  Vertex v = 0;
  bool operator==(const PathEdge&) const = default;
};

// Vertices 0..vertices-1, simple edges (u < v; no self-loops, no repeats), and the
// ends s != t of the paths. A path is a set of edges, so in a simple graph
// counting edge sets and counting vertex sequences agree.
struct PathProblem {
  Vertex vertices = 0;
  std::vector<PathEdge> edges;
  Vertex s = 0;
  Vertex t = 0;
  std::string name;  // "grid 12x12 cells", the file's name
};

// The grid of rows x cols cells, as the Simpath papers and Graphillion count
// it: (rows+1) x (cols+1) vertices, vertex (r, c) numbered r*(cols+1)+c, s at
// the top-left corner and t at the bottom-right. Error(input) unless both are
// at least 1 and the vertices fit a Vertex.
PathProblem grid_problem(int rows, int cols);
// The same grid with other ends, each defaulting to its corner; Error(input)
// also when an end is not a vertex of the grid or both are one vertex, named
// as graph_problem names them.
PathProblem grid_problem(int rows, int cols, std::optional<Vertex> s, std::optional<Vertex> t);

// What graph_problem dropped from its input.
struct CleanReport {
  std::int64_t self_loops = 0;  // never on a simple path
  std::int64_t duplicates = 0;  // repeats of an edge ({u,v} and {v,u} alike), merged into one
};

// The simple graph of `input` with ends s and t. Error(input) when s == t or
// either is not a vertex of the graph (naming which and the vertex count).
PathProblem graph_problem(const graph::EdgeList& input, Vertex s, Vertex t, std::string name,
                          CleanReport* report = nullptr);

}  // namespace ulibc::simpath
