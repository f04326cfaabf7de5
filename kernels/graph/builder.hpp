// graph/builder.hpp — from edge tuples to a CSR graph, in parallel.
#pragma once
#include "graph/csr_graph.hpp"
#include "graph/edge_list.hpp"

namespace ulibc::graph {

// What the builder dropped from its input.
struct BuildReport {
  EdgeIndex self_loops = 0;  // tuples {v, v}
  EdgeIndex duplicates = 0;  // tuples naming an edge already seen ({u,v} and {v,u} are the same edge)
};

// The undirected graph of `input`: both arcs of every edge, self-loops and
// duplicates dropped, each neighbour list sorted ascending. Runs on an
// OpenMP team of `threads` (0: omp_get_max_threads()); the result does not
// depend on the team. Error(input) naming the tuple when an id lies outside
// 0..input.vertices-1 or input.vertices exceeds kMaxVertices.
CsrGraph build_undirected(const EdgeList& input, int threads = 0, BuildReport* report = nullptr);

}  // namespace ulibc::graph
