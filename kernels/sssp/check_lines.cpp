// sssp/check_lines.cpp — writing the DIMACS check lines.
#include "sssp/check_lines.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace ulibc::sssp {
namespace {

// The check file's header: its kind, the files solved (the graph's name and
// the queries' file, when there is one), and the graph.
std::string header(const char* kind, const RoadProblem& p) {
  const std::string files = p.queries_file.empty() ? p.name : p.name + " " + p.queries_file;
  return fmt::format("p chk sp {} ulibc\nf {}\n", kind, files) + graph_line(p.graph);
}

}  // namespace

std::string graph_line(const graph::WeightedGraph& g) {
  return fmt::format("g {} {} {} {}\n", g.vertices(), g.arc_count(), g.min_weight(), g.max_weight());
}

std::string checksum_lines(std::span<const QueryRecord> queries, std::size_t most) {
  std::string out;
  for (const QueryRecord& q : queries.first(std::min(most, queries.size())))
    out += fmt::format("d {} {}\n", q.source + 1, q.reach.checksum);
  return out;
}

std::string source_check_lines(const RoadProblem& problem, std::span<const QueryRecord> queries) {
  return header("ss", problem) + checksum_lines(queries);
}

std::string pair_check_lines(const RoadProblem& problem, std::span<const graph::Distance> distances) {
  if (distances.size() != problem.pairs.size())
    throw std::logic_error(fmt::format("{} distances for {} pairs", distances.size(), problem.pairs.size()));
  std::string out = header("p2p", problem);
  for (std::size_t i = 0; i < distances.size(); ++i) {
    const graph::VertexPair& q = problem.pairs[i];
    const std::string d = distances[i] == graph::kUnreached ? "-1" : std::to_string(distances[i]);
    out += fmt::format("d {} {} {}\n", q.source + 1, q.target + 1, d);
  }
  return out;
}

}  // namespace ulibc::sssp
