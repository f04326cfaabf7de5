// graph/builder.hpp — from edge tuples to a CSR graph, in parallel.
#pragma once
#include <span>
#include <vector>

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

// build_undirected's refusal of a bad input, on its own, for builders that
// read the tuples themselves (bfs/search_graph.hpp).
void check_edge_list(const EdgeList& input, int threads = 0);

// Sorts ids below 2^bits ascending: an LSD radix sort through `scratch`
// (grown as needed) for long lists, std::sort for short ones.
void sort_ids(std::span<Vertex> list, int bits, std::vector<Vertex>& scratch);

}  // namespace ulibc::graph
