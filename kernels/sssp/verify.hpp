// sssp/verify.hpp — what a shortest-path result is checked against: the
// DIMACS challenge's checksum, a plain reference Dijkstra, and a linear-time
// certificate that a distance array is exactly the shortest distances.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "graph/weighted_graph.hpp"

namespace ulibc::sssp {

using graph::Distance;
using graph::GraphView;
using graph::Vertex;

// What one source's result comes to, whichever algorithm made it.
struct Reach {
  // The 9th DIMACS challenge's checksum: the sum of the distances to every
  // vertex the source reaches, modulo 2^62.
  std::uint64_t checksum = 0;
  Vertex vertices = 0;        // reached, the source included
  graph::EdgeIndex arcs = 0;  // out-arcs of the reached vertices: the edges a search traverses, for TEPS
  bool operator==(const Reach&) const = default;
};
Reach reach(const GraphView& g, std::span<const Distance> dist);
// The checksum's modulus 2^62 as a mask: unsigned sums wrap modulo 2^64, a
// multiple of 2^62, so masking once at the end is exact.
constexpr std::uint64_t kChecksumMask = (std::uint64_t{1} << 62) - 1;

// Dijkstra as a textbook writes it (std::priority_queue, lazy deletion),
// sharing no code with the kernels: the reference they are tested against.
std::vector<Distance> reference_distances(const GraphView& g, Vertex source);

// "" when dist is exactly the shortest-path distances from source, else what
// is wrong, naming a vertex. The certificate, O(vertices + arcs): dist[source]
// is 0; no arc u->v has dist[v] > dist[u] + w (nothing shorter exists); and
// every finite distance is reached from the source along arcs with
// dist[v] = dist[u] + w (each is the length of a real path) — checked by a
// search over those tight arcs, which zero-weight cycles cannot fool.
std::string check_distances(const GraphView& g, Vertex source, std::span<const Distance> dist);

}  // namespace ulibc::sssp
