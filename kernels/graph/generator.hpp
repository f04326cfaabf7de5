// graph/generator.hpp — the Graph500 Kronecker generator.
//
// Each of edgefactor * 2^scale tuples picks its endpoints one bit at a time:
// quadrant (0,0), (0,1), (1,0), (1,1) with probabilities A, B, C, D. Vertex
// labels are then permuted, so that degree says nothing about the id. Every
// tuple is drawn from a counter-based generator keyed by (seed, tuple index),
// so the edges are the same whatever the number of threads.
#pragma once
#include <cstdint>

#include "graph/edge_list.hpp"

namespace ulibc::graph {

struct KroneckerParams {
  int scale = 0;        // 2^scale vertices
  int edgefactor = 16;  // tuples per vertex
  std::uint64_t seed = 1;
  double a = 0.57, b = 0.19, c = 0.19;  // D = 1 - A - B - C = 0.05
};

constexpr int kMinScale = 1;
constexpr int kMaxScale = 30;  // 2^30 vertices: the largest that 32-bit ids allow
constexpr int kMaxEdgefactor = 1024;

// Error(input) for a scale outside kMinScale..kMaxScale, an edgefactor
// outside 1..kMaxEdgefactor, or probabilities that are not a distribution.
void check(const KroneckerParams& p);

// The edge tuples, on an OpenMP team of `threads` (0: omp_get_max_threads()).
EdgeList kronecker(const KroneckerParams& p, int threads = 0);

}  // namespace ulibc::graph
