// simpath/path_problem.cpp — grids and cleaned-up edge lists.
#include "simpath/path_problem.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "ulibc/error.hpp"

namespace ulibc::simpath {

namespace {

void check_end(const char* which, Vertex v, std::int64_t vertices) {
  if (vertices == 0) throw input_error(fmt::format("{} = {} is not a vertex: the graph has no vertices", which, v));
  if (v < 0 || v >= vertices)
    throw input_error(
        fmt::format("{} = {} is not a vertex of the graph (its vertices are 0..{})", which, v, vertices - 1));
}

void check_ends(Vertex s, Vertex t, std::int64_t vertices) {
  check_end("s", s, vertices);
  check_end("t", t, vertices);
  if (s == t) throw input_error(fmt::format("s and t are both vertex {}: the ends of a path must differ", s));
}

}  // namespace

PathProblem grid_problem(int rows, int cols) {
  if (rows < 1 || cols < 1)
    throw input_error(fmt::format("grid {}x{}: a grid needs at least one cell each way", rows, cols));
  const std::int64_t width = std::int64_t{cols} + 1;
  const std::int64_t vertices = (std::int64_t{rows} + 1) * width;
  if (vertices > graph::kMaxVertices)
    throw input_error(
        fmt::format("grid {}x{}: {} vertices are more than {}", rows, cols, vertices, graph::kMaxVertices));
  PathProblem p;
  p.vertices = static_cast<Vertex>(vertices);
  p.name = fmt::format("grid {}x{} cells", rows, cols);
  for (std::int64_t r = 0; r <= rows; ++r)
    for (std::int64_t c = 0; c <= cols; ++c) {
      const auto v = static_cast<Vertex>(r * width + c);
      if (c < cols) p.edges.push_back({v, v + 1});
      if (r < rows) p.edges.push_back({v, static_cast<Vertex>(v + width)});
    }
  p.s = 0;
  p.t = p.vertices - 1;
  return p;
}

PathProblem grid_problem(int rows, int cols, std::optional<Vertex> s, std::optional<Vertex> t) {
  PathProblem p = grid_problem(rows, cols);
  p.s = s.value_or(p.s);
  p.t = t.value_or(p.t);
  check_ends(p.s, p.t, p.vertices);
  return p;
}

PathProblem graph_problem(const graph::EdgeList& input, Vertex s, Vertex t, std::string name, CleanReport* report) {
  check_ends(s, t, input.vertices);
  PathProblem p{.vertices = static_cast<Vertex>(input.vertices), .s = s, .t = t, .name = std::move(name)};
  CleanReport seen;
  // Kept in the input's order (the "input" edge order is the file's), each edge at its first appearance.
  std::unordered_set<std::uint64_t> kept;
  for (const graph::Edge& e : input.edges) {
    if (e.u < 0 || e.v < 0 || e.u >= input.vertices || e.v >= input.vertices)
      throw input_error(fmt::format("edge {{{}, {}}} names a vertex outside 0..{}", e.u, e.v, input.vertices - 1));
    const PathEdge edge{std::min(e.u, e.v), std::max(e.u, e.v)};
    if (e.u == e.v)
      ++seen.self_loops;
    else if (!kept.insert(static_cast<std::uint64_t>(edge.u) << 32 | static_cast<std::uint32_t>(edge.v)).second)
      ++seen.duplicates;
    else
      p.edges.push_back(edge);
  }
  if (report) *report = seen;
  return p;
}

}  // namespace ulibc::simpath
