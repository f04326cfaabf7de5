// sssp_command.cpp — `ulibc sssp`: shortest paths on a road graph from DIMACS
// files or the generator, answered per the 9th DIMACS challenge's checking
// conventions: for every source the sum of its distances (modulo 2^62), for
// every pair its distance; plus the time per query, queries per second and
// TEPS. Also writes a generated graph and its queries as DIMACS files, for
// other solvers.
#include <algorithm>
#include <fstream>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "commands.hpp"
#include "graph/dimacs_io.hpp"
#include "harness/process_memory.hpp"
#include "harness/timer.hpp"
#include "sssp/delta_stepping.hpp"
#include "sssp/many_query.hpp"
#include "sssp/road_problem.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"
#include "ulibc/memory.hpp"

namespace ulibc::cli {

namespace {

using graph::Distance;
using sssp::Vertex;

struct SsspOptions {
  PlacementOptions placement;
  sssp::ProblemOptions problem;
  std::string algorithm = "auto";
  Distance delta = 0;
  bool hugepages = false;
  bool replicate = false;
  std::string output;
  std::string write_graph, write_coordinates, write_sources;
  bool no_solve = false;
  bool json = false;
};

constexpr int kDefaultQueries = 1;
constexpr std::int64_t kMaxQueries = 10'000'000;

bool is_text_graph(const std::string& path) { return path.ends_with(".gr"); }

void write_files(const SsspOptions& o, const sssp::RoadProblem& p) {
  if (!o.write_graph.empty()) {
    if (is_text_graph(o.write_graph)) graph::write_dimacs_graph(p.graph, o.write_graph);
    else graph::write_binary_graph(p.graph, o.write_graph);
  }
  if (!o.write_coordinates.empty()) {
    if (p.coordinates.x.empty())
      throw input_error("--write-coordinates: only a generated graph has coordinates");
    graph::write_dimacs_coordinates(p.coordinates, o.write_coordinates);
  }
  if (!o.write_sources.empty()) graph::write_dimacs_sources(p.sources, o.write_sources);
}

// The algorithm `auto` stands for: one thread answers with Dijkstra on the
// radix heap; a team spreads several queries over itself, or works on a
// single one together.
std::string settle_algorithm(const std::string& name, int threads, std::size_t queries) {
  if (name != "auto") return name;
  if (threads == 1) return "radix";
  return queries >= static_cast<std::size_t>(threads) ? "many" : "delta";
}

sssp::ManyQueryResult solve_sources(const SsspOptions& o, const std::string& algorithm, const sssp::RoadProblem& p,
                                    const Topology& topo, const Mapping& map) {
  const PageKind pages = o.hugepages ? PageKind::transparent_huge : PageKind::normal;
  if (algorithm == "many")
    return sssp::run_many_queries(p.graph, p.sources, topo, map,
                                  {.queue = sssp::Queue::radix_heap, .pages = pages, .replicate = o.replicate});
  return sssp::run_queries_in_turn(
      p.graph, p.sources, topo, map,
      {.delta_stepping = algorithm == "delta",
       .queue = algorithm == "binary" ? sssp::Queue::binary_heap : sssp::Queue::radix_heap,
       .delta = o.delta,
       .pages = pages});
}

void check_algorithm(const SsspOptions& o, const std::string& algorithm, const Mapping& map,
                     const sssp::RoadProblem& p) {
  const bool sequential = algorithm == "radix" || algorithm == "binary";
  if (!sequential && algorithm != "delta" && algorithm != "many")
    throw input_error(fmt::format("--algorithm {}: choose auto, radix, binary, delta or many", algorithm));
  if (sequential && map.size() > 1)
    throw input_error(fmt::format("--algorithm {} runs on one thread, not {}: use delta (one query on the team) or "
                                  "many (queries spread over it)", algorithm, map.size()));
  if (!p.pairs.empty() && !sequential)
    throw input_error("--pairs: point-to-point queries are answered by --algorithm radix or binary (one thread)");
  if (o.replicate && algorithm != "many") throw input_error("--replicate: only --algorithm many reads graph copies");
  if (o.delta && algorithm != "delta") throw input_error("--delta: only --algorithm delta has a Δ");
}

// The check file's header: problem, the files solved (the graph's name and
// the problem file, when there is one), the graph's size and weight range.
std::string dimacs_header(const std::string& kind, const std::string& graph_name, const std::string& problem_file,
                          const graph::WeightedGraph& g) {
  const std::string files = problem_file.empty() ? graph_name : graph_name + " " + problem_file;
  return fmt::format("p chk sp {} ulibc\nf {}\ng {} {} {} {}\n", kind, files, g.vertices(), g.arc_count(),
                     g.min_weight(), g.max_weight());
}

// The .ss.chk lines: each source's checksum.
std::string source_lines(const sssp::RoadProblem& p, const sssp::ManyQueryResult& r, const SsspOptions& o) {
  std::string out = dimacs_header("ss", p.name, o.problem.sources_file, p.graph);
  for (const sssp::QueryRecord& q : r.queries) out += fmt::format("d {} {}\n", q.source + 1, q.reach.checksum);
  return out;
}

// The --output file, opened before any solving so that a path that cannot
// be written costs no search; nullopt without --output.
std::optional<std::ofstream> open_output(const std::string& path) {
  if (path.empty()) return std::nullopt;
  std::optional<std::ofstream> out(std::in_place, path);
  if (!*out) throw system_error(fmt::format("cannot write {}", path));
  return out;
}

void write_output(std::optional<std::ofstream>& out, const std::string& path, const std::string& text) {
  if (!out) return;
  *out << text;
  out->flush();
  if (!*out) throw system_error(fmt::format("cannot write {}", path));
}

// Point-to-point: each pair's distance, -1 when the target is unreachable.
void run_pairs(const SsspOptions& o, const std::string& algorithm, const sssp::RoadProblem& p,
               std::optional<std::ofstream>& output) {
  sssp::Dijkstra search(p.graph.vertices(),
                        algorithm == "binary" ? sssp::Queue::binary_heap : sssp::Queue::radix_heap);
  std::vector<Distance> work(static_cast<std::size_t>(p.graph.vertices()));
  std::string out = dimacs_header("p2p", p.name, o.problem.pairs_file, p.graph);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  double total = 0;
  for (const graph::VertexPair& q : p.pairs) {
    const harness::Timer timer;
    const Distance d = search.distance(p.graph.view(), q.source, q.target, work);
    total += timer.seconds();
    const std::string text = d == graph::kUnreached ? "-1" : std::to_string(d);
    out += fmt::format("d {} {} {}\n", q.source + 1, q.target + 1, text);
    list.push_back({{"source", q.source + 1},
                    {"target", q.target + 1},
                    {"distance", d == graph::kUnreached ? -1 : static_cast<std::int64_t>(d)}});
  }
  write_output(output, o.output, out);
  if (o.json) {
    print_json({{"graph", p.name}, {"algorithm", algorithm}, {"seconds", total}, {"pairs", list}});
    return;
  }
  fmt::print("{}: {} vertices, {} arcs; {} point-to-point queries, {:.3f} ms each on average ({})\n", p.name,
             p.graph.vertices(), p.graph.arc_count(), p.pairs.size(), total * 1e3 / static_cast<double>(p.pairs.size()),
             algorithm);
  fmt::print("{}", out);
}

nlohmann::ordered_json result_json(const sssp::RoadProblem& p, const std::string& algorithm, const Mapping& map,
                                   const sssp::ManyQueryResult& r, double teps) {
  nlohmann::ordered_json queries = nlohmann::ordered_json::array();
  for (const sssp::QueryRecord& q : r.queries)
    queries.push_back({{"source", q.source + 1},
                       {"checksum", q.reach.checksum},
                       {"seconds", q.seconds},
                       {"reached", q.reach.vertices},
                       {"arcs", q.reach.arcs},
                       {"thread", q.thread}});
  return {{"graph", {{"name", p.name}, {"vertices", p.graph.vertices()}, {"arcs", p.graph.arc_count()},
                     {"min_weight", p.graph.min_weight()}, {"max_weight", p.graph.max_weight()},
                     {"load_seconds", p.load_seconds}}},
          {"algorithm", algorithm},
          {"threads", map.size()},
          {"policy", map.policy().name()},
          {"seconds", r.seconds},
          {"queries_per_second", r.queries_per_second()},
          {"teps", teps},
          {"note", r.note},
          {"peak_rss_bytes", harness::peak_resident_memory()},
          {"queries", queries}};
}

void run_sssp(const SsspOptions& o) {
  if (o.problem.graph_file.empty() && o.problem.generate.empty())
    throw input_error("give the graph: --graph FILE (DIMACS .gr or ULIBC binary) or --generate ROWS,COLS");
  const Topology topo = Topology::load("", Detail::placement);
  const Mapping map = resolve_mapping(o.placement, topo);
  warn_if_oversubscribed(map);
  const sssp::RoadProblem p = sssp::load_problem(o.problem, kDefaultQueries, kMaxQueries, map.size());
  const std::string algorithm = settle_algorithm(o.algorithm, map.size(), p.sources.size());
  check_algorithm(o, algorithm, map, p);
  write_files(o, p);
  if (o.no_solve) return;
  std::optional<std::ofstream> output = open_output(o.output);
  if (!p.pairs.empty()) return run_pairs(o, algorithm, p, output);

  const TeamBinding binding = bind_openmp_team(map);
  const sssp::ManyQueryResult r = solve_sources(o, algorithm, p, topo, map);
  if (binding.bound) restore_openmp_team(map.size());
  double arcs = 0;
  for (const sssp::QueryRecord& q : r.queries) arcs += static_cast<double>(q.reach.arcs);
  const double teps = r.seconds > 0 ? arcs / r.seconds : 0;
  const std::string lines = source_lines(p, r, o);
  write_output(output, o.output, lines);
  if (o.json) {
    print_json(result_json(p, algorithm, map, r, teps));
    return;
  }
  fmt::print("{}: {} vertices, {} arcs, weights {}..{} (loaded in {:.3f} s)\n", p.name, p.graph.vertices(),
             p.graph.arc_count(), p.graph.min_weight(), p.graph.max_weight(), p.load_seconds);
  fmt::print("{} on {} thread{} ({}{}){}\n", algorithm, map.size(), map.size() == 1 ? "" : "s",
             map.policy().name(), binding.bound ? "" : ", not bound: " + binding.reason,
             r.note.empty() ? "" : "; " + r.note);
  fmt::print("{} queries in {:.3f} s: {:.3f} ms per query, {:.2f} queries/s, {:.4g} TEPS\n", r.queries.size(),
             r.seconds, r.seconds * 1e3 / static_cast<double>(r.queries.size()), r.queries_per_second(), teps);
  fmt::print("{}", lines);
}

}  // namespace

Command add_sssp_command(CLI::App& parent) {
  auto o = std::make_shared<SsspOptions>();
  CLI::App* sub = parent.add_subcommand(
      "sssp", "Shortest paths on road graphs (DIMACS .gr/.ss/.p2p or generated): DIMACS checksums, queries/s, TEPS");
  o->problem.add_to(*sub, /*point_to_point=*/true);
  add_placement_options(*sub, o->placement);
  sub->add_option("--algorithm", o->algorithm,
                  "radix or binary (Dijkstra on one thread), delta (Δ-stepping, each query on the team), many "
                  "(queries spread over the team); auto: radix on one thread, else many (delta for fewer queries "
                  "than threads)")
      ->capture_default_str();
  sub->add_option("--delta", o->delta, "Δ of delta (rounded down to a power of two); default from the weights");
  sub->add_flag("--hugepages", o->hugepages, "Graph copy and distance arrays on transparent huge pages");
  sub->add_flag("--replicate", o->replicate, "many: one copy of the graph per NUMA node of the placement");
  sub->add_option("--output", o->output, "Also write the DIMACS check lines (.ss.chk / .p2p.chk) to FILE")
      ->type_name("FILE");
  sub->add_option("--write-graph", o->write_graph, "Write the graph to FILE (.gr: DIMACS text, else ULIBC binary)")
      ->type_name("FILE");
  sub->add_option("--write-coordinates", o->write_coordinates, "Write a generated graph's coordinates (DIMACS .co)")
      ->type_name("FILE");
  sub->add_option("--write-sources", o->write_sources, "Write the sources (DIMACS .ss)")->type_name("FILE");
  sub->add_flag("--no-solve", o->no_solve, "Only write the files asked for");
  add_json_flag(*sub, o->json);
  say_runs_here_only(*sub);
  return {sub, [o] { run_sssp(*o); }};
}

}  // namespace ulibc::cli
