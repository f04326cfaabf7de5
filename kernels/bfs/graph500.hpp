// bfs/graph500.hpp — the Graph500 procedure around a BFS kernel.
//
// Search keys, timed and validated searches, and the statistics block of its output.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bfs/bfs.hpp"
#include "graph/edge_list.hpp"
#include "graph/tuples.hpp"

namespace ulibc::bfs {

constexpr int kGraph500Roots = 64;  // the specification's NBFS

// `count` distinct search keys drawn at random among the vertices with at
// least one neighbour, the same for the same seed; all such vertices, in
// drawn order, when there are no more than `count`.
std::vector<Vertex> choose_roots(const CsrGraph& g, int count, std::uint64_t seed);
// The same draw from `candidates`, the vertices with at least one neighbour in ascending order.
std::vector<Vertex> choose_roots(std::vector<Vertex> candidates, int count, std::uint64_t seed);

// Which vertices have at least one neighbour, as a bitmap (bit v of word
// v / 64): those in a tuple that is not a self-loop. One parallel pass over
// the tuples on `threads` (0: omp_get_max_threads()), n / 8 bytes; for
// drawing keys without building a graph. Error(input) as
// graph::check_edge_list for an edge list with an id out of range.
std::vector<std::uint64_t> vertices_with_edges(const graph::Tuples& tuples, int threads = 0);

struct SearchRecord {
  Vertex root = 0;
  double seconds = 0;  // the search alone, state initialisation included
  double validate_seconds = 0;
  std::int64_t edges = 0;  // input tuples in the traversed component (Graph500's m)
  std::int64_t reached = 0;
  int depth = 0;
  bool valid = false;
  std::string failure;  // the validator's finding when not valid
  double teps() const { return seconds > 0 ? static_cast<double>(edges) / seconds : 0; }
};

// Searches from each root in turn, each timed and then validated against the
// input tuples (validation is not timed).
std::vector<SearchRecord> run_searches(Bfs& bfs, const graph::Tuples& input, const std::vector<Vertex>& roots,
                                       const Params& params);
std::vector<SearchRecord> run_searches(Bfs& bfs, const graph::EdgeList& input, const std::vector<Vertex>& roots,
                                       const Params& params);

// The specification's summary of a sample: quartiles are the medians of the
// lower and upper halves; stddev is the sample standard deviation.
struct Statistics {
  double min = 0, first_quartile = 0, median = 0, third_quartile = 0, max = 0, mean = 0, stddev = 0;
};
Statistics statistics(std::vector<double> values);  // Error(input) for an empty sample

// TEPS are rates: their mean is the harmonic mean, whose standard deviation
// the specification estimates from the reciprocals.
struct HarmonicMean {
  double mean = 0;
  double stddev = 0;
};
HarmonicMean harmonic_mean(const std::vector<double>& rates);  // Error(input) for an empty sample or a rate <= 0

// The statistics block in the reference implementation's output format:
// `name: value` lines, the header lines first (SCALE, edgefactor, ...), then
// NBFS, times, edge counts, TEPS (with the harmonic mean and its deviation),
// validation times, and last whether every search validated.
std::string graph500_output(const std::vector<std::pair<std::string, std::string>>& header,
                            const std::vector<SearchRecord>& searches);

}  // namespace ulibc::bfs
