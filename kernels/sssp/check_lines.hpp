// sssp/check_lines.hpp — the 9th DIMACS challenge's check lines: a run's answers in the form its checkers read.
//
// A check file (.ss.chk for single-source queries, .p2p.chk for
// point-to-point) opens with the problem ("p chk sp ss|p2p ulibc"), the
// files solved ("f") and the graph ("g"), then has one "d" line per query:
// a source's checksum, or a pair's distance (-1: unreachable). Vertices are
// DIMACS ids, from 1. `ulibc sssp` writes whole files; `ulibc bench sssp`
// reports the graph and checksum lines of its runs.
#pragma once
#include <cstddef>
#include <limits>
#include <span>
#include <string>

#include "graph/weighted_graph.hpp"
#include "sssp/many_query.hpp"
#include "sssp/road_problem.hpp"

namespace ulibc::sssp {

// "g VERTICES ARCS MIN_WEIGHT MAX_WEIGHT\n".
std::string graph_line(const graph::WeightedGraph& g);

// "d SOURCE CHECKSUM\n" for each of the first `most` queries.
std::string checksum_lines(std::span<const QueryRecord> queries,
                           std::size_t most = std::numeric_limits<std::size_t>::max());

// The .ss.chk text: the problem's single-source queries, answered by `queries`.
std::string source_check_lines(const RoadProblem& problem, std::span<const QueryRecord> queries);

// The .p2p.chk text: "d SOURCE TARGET DISTANCE\n" for each of the problem's
// pairs, distances[i] answering problem.pairs[i] (kUnreached: -1); as many
// distances as pairs, else std::logic_error.
std::string pair_check_lines(const RoadProblem& problem, std::span<const graph::Distance> distances);

}  // namespace ulibc::sssp
