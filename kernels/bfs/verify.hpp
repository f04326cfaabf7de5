// bfs/verify.hpp — the BFS verifier: the Graph500 specification's validation of a BFS tree.
//
// Against the input tuples (self-loops and duplicates included), a parent
// array passes when
//   1. the root is its own parent;
//   2. the parents are consistent: each is a vertex, reached, and following
//      them from any reached vertex ends at the root without a cycle;
//   3. every tree edge {v, parent[v]} is an edge of the input;
//   4. along every input edge between reached vertices the BFS levels (depth
//      in the tree) differ by at most one;
//   5. every vertex of the root's component is reached: no input edge joins
//      a reached vertex to an unreached one.
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "bfs/bfs.hpp"
#include "graph/edge_list.hpp"
#include "graph/tuples.hpp"

namespace ulibc::bfs {

struct Validation {
  bool valid = false;
  std::string failure;       // the first check that failed and where ("" when valid)
  std::int64_t edges = 0;    // input tuples inside the component: Graph500's m for TEPS
  std::int64_t reached = 0;  // vertices in the tree
  int depth = 0;             // the largest level
};

// Runs on an OpenMP team of `threads` (0: omp_get_max_threads()). The
// tuples are read once, in one parallel pass (a Kronecker graph's drawn
// again, not held); the validator's own memory is 9 bytes a vertex.
Validation validate(const graph::Tuples& input, Vertex root, std::span<const Vertex> parent, int threads = 0);
Validation validate(const graph::EdgeList& input, Vertex root, std::span<const Vertex> parent, int threads = 0);

}  // namespace ulibc::bfs
