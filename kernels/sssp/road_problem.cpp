// sssp/road_problem.cpp — loading a graph and its queries.
#include "sssp/road_problem.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "harness/memory_check.hpp"
#include "harness/timer.hpp"
#include "random/random_stream.hpp"
#include "ulibc/error.hpp"

namespace ulibc::sssp {
namespace {

// All-pairs is meant for small graphs: n queries of O(n log n) each.
constexpr std::int64_t kMaxAllPairsVertices = 1 << 16;

void require_file(const std::string& option, const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) throw input_error(fmt::format("{} {}: no such file", option, path));
}

graph::WeightedGraph generate(const ProblemOptions& o, RoadProblem& p, int threads) {
  graph::RoadParams road = o.road;
  if (!o.generate.empty()) {
    if (o.generate.size() > 2)
      throw input_error(
          fmt::format("--generate: {} numbers; give ROWS,COLS or one size for a square", o.generate.size()));
    road.rows = o.generate.front();
    road.cols = o.generate.back();
  }
  graph::check(road);
  // The arcs (12 bytes, at most 4 per vertex), coordinates (16) and the CSR (8 per arc, 8 per vertex).
  const std::uint64_t vertices =
      harness::saturating_mul(static_cast<std::uint64_t>(road.rows), static_cast<std::uint64_t>(road.cols));
  harness::require_memory(harness::saturating_mul(vertices, 4 * 12 + 16 + 4 * 8 + 8),
                          fmt::format("a {}x{} road graph", road.rows, road.cols));
  graph::RoadNetwork net = graph::generate_road(road, threads);
  p.coordinates = std::move(net.coordinates);
  p.name = fmt::format("road-{}x{}-seed{}", road.rows, road.cols, road.seed);
  return graph::build_weighted(net.arcs);
}

std::vector<Vertex> named_sources(const std::vector<std::int64_t>& ids, Vertex n) {
  std::vector<Vertex> sources;
  for (const std::int64_t id : ids) {
    if (id < 1 || id > n)
      throw input_error(fmt::format("--source {}: not a vertex of the graph (DIMACS ids 1..{})", id, n));
    sources.push_back(static_cast<Vertex>(id - 1));
  }
  return sources;
}

void resolve_queries(const ProblemOptions& o, RoadProblem& p, int default_queries, std::int64_t max_queries) {
  const int ways =
      !o.sources_file.empty() + !o.pairs_file.empty() + !o.source_ids.empty() + (o.queries != 0) + o.all_pairs;
  if (ways > 1)
    throw input_error(
        "give the queries one way: --sources FILE, --pairs FILE, --source IDS, --queries K or --all-pairs");
  const Vertex n = p.graph.vertices();
  if (o.queries < 0 || o.queries > max_queries)
    throw input_error(fmt::format("--queries {}: give 1..{}", o.queries, max_queries));
  if (!o.sources_file.empty()) {
    p.sources = graph::read_dimacs_sources(o.sources_file, n);
    p.queries_file = o.sources_file;
  } else if (!o.pairs_file.empty()) {
    p.pairs = graph::read_dimacs_pairs(o.pairs_file, n);
    p.queries_file = o.pairs_file;
  } else if (!o.source_ids.empty()) {
    p.sources = named_sources(o.source_ids, n);
  } else if (o.all_pairs) {
    if (n > kMaxAllPairsVertices)
      throw input_error(
          fmt::format("--all-pairs: the graph has {} vertices; all-pairs is for graphs of at most {} (use --queries K)",
                      n, kMaxAllPairsVertices));
    for (Vertex v = 0; v < n; ++v) p.sources.push_back(v);
  } else {
    p.sources = random_sources(p.graph, o.queries ? o.queries : default_queries, o.road.seed);
  }
  if (p.sources.empty() && p.pairs.empty())
    throw input_error(fmt::format("no queries to answer: {} names none (the graph has {} vertices)",
                                  !o.sources_file.empty() ? o.sources_file
                                  : !o.pairs_file.empty() ? o.pairs_file
                                                          : std::string("--all-pairs"),
                                  n));
  if (p.sources.size() + p.pairs.size() > static_cast<std::size_t>(max_queries))
    throw input_error(fmt::format("{} queries: at most {}", p.sources.size() + p.pairs.size(), max_queries));
}

}  // namespace

void ProblemOptions::add_to(harness::Options& options, bool point_to_point) {
  options.add("--graph", graph_file, "Road graph: DIMACS .gr text or ULIBC's binary (docs/GRAPH_FORMAT.md)")
      .type_name("FILE");
  options.add("--generate", generate, "Generate a road-like ROWS x COLS grid graph instead (one number: square)")
      .list()
      .type_name("ROWS,COLS");
  options.add("--seed", road.seed, "Seed of the generated graph and of random sources").show_default();
  options.add("--deletion", road.deletion, "Probability that a generated local street is missing").show_default();
  options.add("--sources", sources_file, "Single-source queries from a DIMACS .ss file").type_name("FILE");
  if (point_to_point)
    options.add("--pairs", pairs_file, "Point-to-point queries from a DIMACS .p2p file").type_name("FILE");
  options.add("--source", source_ids, "Single-source queries from these DIMACS ids (1-based)").list().type_name("IDS");
  options.add("--queries", queries, "Single-source queries from K random sources (seeded by --seed)").type_name("K");
  options.flag("--all-pairs", all_pairs, "Every vertex a source (small graphs)");
}

RoadProblem load_problem(const ProblemOptions& o, int default_queries, std::int64_t max_queries, int threads) {
  if (!o.graph_file.empty() && !o.generate.empty())
    throw input_error("--graph and --generate both name a graph: give one of them");
  for (const auto& [option, path] :
       {std::pair{"--graph", o.graph_file}, std::pair{"--sources", o.sources_file}, std::pair{"--pairs", o.pairs_file}})
    if (!path.empty()) require_file(option, path);
  RoadProblem p;
  const harness::Timer load;
  if (o.generated()) {
    p.graph = generate(o, p, threads);
  } else {
    // Reading holds the text and the arc list (at most 2 bytes of list per byte of text) beside the CSR.
    harness::require_memory(harness::saturating_mul(std::filesystem::file_size(o.graph_file), 4),
                            "reading " + o.graph_file);
    p.graph = graph::read_weighted_graph(o.graph_file, [&](std::int64_t vertices, std::int64_t arcs) {
      harness::require_memory(
          harness::saturating_mul(static_cast<std::uint64_t>(vertices) + 1, sizeof(graph::EdgeIndex)) +
              harness::saturating_mul(static_cast<std::uint64_t>(arcs), sizeof(graph::Arc)),
          fmt::format("{} ({} vertices, {} arcs)", o.graph_file, vertices, arcs));
    });
    p.name = o.graph_file;
  }
  p.load_seconds = load.seconds();
  resolve_queries(o, p, default_queries, max_queries);
  return p;
}

std::vector<Vertex> random_sources(const graph::WeightedGraph& g, int k, std::uint64_t seed) {
  std::vector<Vertex> candidates;
  for (Vertex v = 0; v < g.vertices(); ++v)
    if (!g.out(v).empty()) candidates.push_back(v);
  if (candidates.empty()) throw input_error("the graph has no arcs: there is no source to draw");
  // A stream of its own, apart from the generator's (keyed by vertex and street).
  rng::Stream rng(seed ^ 0x5353535053535350ULL, 0);
  std::vector<Vertex> sources;
  for (int i = 0; i < k; ++i) sources.push_back(candidates[rng.next() % candidates.size()]);
  return sources;
}

}  // namespace ulibc::sssp
