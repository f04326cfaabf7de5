// graph/road_generator.hpp — a seeded generator of road-like weighted graphs,
// so that shortest-path tests and benchmarks need no downloaded DIMACS file.
//
// The model, kept simple on purpose:
//  - a rows x cols grid of intersections; vertex r*cols + c sits at
//    (c, r) * kRoadSpacing moved by up to kRoadJitter in x and in y. The
//    jitter is under half the spacing, so the streets never cross: the graph
//    is planar, and neighbouring ids are neighbouring places, as in real files;
//  - a street joins each pair of grid neighbours, missing with probability
//    `deletion`; each street is two arcs, u->v and v->u, of the same weight;
//  - a street's weight is its Euclidean length times a detour factor drawn
//    uniformly from [1, kMaxDetour) (a street is rarely straight), rounded,
//    at least 1: hundreds to a few thousand, like a DIMACS "distance" graph;
//  - every `arterial_every`-th row and column (those with index % k == k/2,
//    so that the border is not one) is an arterial road: its streets are
//    never missing and weigh `arterial_factor` times as much, so long
//    shortest paths leave the local streets for the arterials, as on real
//    roads, and the arterials hold the network together.
// With the defaults, 7/8 of the streets are local and 30% of those are
// missing: an average out-degree of about 4 * (1 - 0.3 * 7/8) = 2.95, between
// the DIMACS USA graph's 2.4 and the full grid's 4. About 0.3^4 of the
// vertices off the arterials lose all four streets and are cut off (as real
// road graphs have unreachable parts), and a few more are cut off in small groups.
//
// Every random choice comes from a stream keyed by (seed, the vertex or
// street it decides), so the output is the same for any number of threads.
#pragma once
#include <cstdint>

#include "graph/weighted_graph.hpp"

namespace ulibc::graph {

constexpr std::int64_t kRoadSpacing = 1000;  // between grid neighbours, in coordinate units
constexpr std::int64_t kRoadJitter = 300;    // an intersection's largest move in x and in y
constexpr double kMaxDetour = 1.5;           // weight / length on local streets lies in [1, kMaxDetour]

struct RoadParams {
  std::int64_t rows = 1000, cols = 1000;  // 10^6 vertices: a state-sized road graph
  double deletion = 0.3;                  // probability that a local street is missing
  std::uint64_t seed = 1;
  std::int64_t arterial_every = 8;  // every k-th row and column is an arterial; 0: none
  double arterial_factor = 0.5;     // an arterial street's weight relative to a local one's: twice as fast
};

// Error(input) naming the bad parameter: rows or cols below 1, more than
// kMaxVertices intersections, deletion outside [0, 1), arterial_every below 0,
// arterial_factor outside (0, 1].
void check(const RoadParams& p);

struct RoadNetwork {
  ArcList arcs;             // ordered by tail, then head; rows * cols vertices
  Coordinates coordinates;  // one place per vertex
};

// The network, filled on an OpenMP team of `threads` (0: omp_get_max_threads()).
// Memory: 12 bytes per arc (at most 4 per vertex) and 16 per vertex, nothing more.
RoadNetwork generate_road(const RoadParams& p, int threads = 0);

}  // namespace ulibc::graph
