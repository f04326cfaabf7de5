// sssp_command.cpp — `ulibc sssp`: shortest paths on a road graph, answered as the 9th DIMACS challenge checks them.
//
// The graph comes from DIMACS files or the generator; the answers are, for
// every source, the sum of its distances (modulo 2^62), for every pair its
// distance; plus the time per query, queries per second and TEPS. Also
// writes a generated graph and its queries as DIMACS files, for other
// solvers. The command parses and prints: the algorithm's rules, the runs
// and the check lines are the sssp library's (sssp/sssp.hpp, sssp/check_lines.hpp).
#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "catalog.hpp"
#include "commands.hpp"
#include "graph/dimacs_io.hpp"
#include "io/file_io.hpp"
#include "sssp/check_lines.hpp"
#include "sssp/road_problem.hpp"
#include "sssp/sssp.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"
#include "ulibc/memory.hpp"
#include "ulibc/process_memory.hpp"

namespace ulibc::cli {

namespace {

using graph::Distance;

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
    if (is_text_graph(o.write_graph))
      graph::write_dimacs_graph(p.graph, o.write_graph);
    else
      graph::write_binary_graph(p.graph, o.write_graph);
  }
  if (!o.write_coordinates.empty()) {
    if (p.coordinates.x.empty()) throw input_error("--write-coordinates: only a generated graph has coordinates");
    graph::write_dimacs_coordinates(p.coordinates, o.write_coordinates);
  }
  if (!o.write_sources.empty()) graph::write_dimacs_sources(p.sources, o.write_sources);
}

sssp::SolveOptions solve_options(const SsspOptions& o) {
  return {
      .delta = o.delta, .pages = o.hugepages ? PageKind::transparent_huge : PageKind::normal, .replicate = o.replicate};
}

// The --output file, opened before any solving so that a path that cannot
// be written costs no search; nullopt without --output.
std::optional<io::OutputFile> open_output(const std::string& path) {
  if (path.empty()) return std::nullopt;
  return std::optional<io::OutputFile>(std::in_place, path);
}

void write_output(std::optional<io::OutputFile>& out, const std::string& text) {
  if (!out) return;
  out->write(text);
  out->finish();
}

// Point-to-point: each pair's distance, -1 when the target is unreachable.
void run_pairs(const SsspOptions& o, sssp::Algorithm algorithm, const sssp::RoadProblem& p,
               std::optional<io::OutputFile>& output) {
  const sssp::PairAnswers answers = sssp::answer_pairs(p.graph, p.pairs, sssp::queue_of(algorithm));
  const std::string out = sssp::pair_check_lines(p, answers.distances);
  write_output(output, out);
  if (o.json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < p.pairs.size(); ++i) {
      const Distance d = answers.distances[i];
      list.push_back({{"source", p.pairs[i].source + 1},
                      {"target", p.pairs[i].target + 1},
                      {"distance", d == graph::kUnreached ? -1 : static_cast<std::int64_t>(d)}});
    }
    print_json(
        {{"graph", p.name}, {"algorithm", sssp::to_string(algorithm)}, {"seconds", answers.seconds}, {"pairs", list}});
    return;
  }
  fmt::print("{}: {} vertices, {} arcs; {} point-to-point queries, {:.3f} ms each on average ({})\n", p.name,
             p.graph.vertices(), p.graph.arc_count(), p.pairs.size(),
             answers.seconds * 1e3 / static_cast<double>(p.pairs.size()), sssp::to_string(algorithm));
  fmt::print("{}", out);
}

nlohmann::ordered_json result_json(const sssp::RoadProblem& p, sssp::Algorithm algorithm, const Mapping& map,
                                   const sssp::ManyQueryResult& r) {
  nlohmann::ordered_json queries = nlohmann::ordered_json::array();
  for (const sssp::QueryRecord& q : r.queries)
    queries.push_back({{"source", q.source + 1},
                       {"checksum", q.reach.checksum},
                       {"seconds", q.seconds},
                       {"reached", q.reach.vertices},
                       {"arcs", q.reach.arcs},
                       {"thread", q.thread}});
  return {{"graph",
           {{"name", p.name},
            {"vertices", p.graph.vertices()},
            {"arcs", p.graph.arc_count()},
            {"min_weight", p.graph.min_weight()},
            {"max_weight", p.graph.max_weight()},
            {"load_seconds", p.load_seconds}}},
          {"algorithm", sssp::to_string(algorithm)},
          {"threads", map.size()},
          {"policy", map.policy().name()},
          {"seconds", r.seconds},
          {"queries_per_second", r.queries_per_second()},
          {"teps", r.teps()},
          {"note", r.note},
          {"peak_rss_bytes", ulibc::peak_resident_memory()},
          {"queries", queries}};
}

void run_sssp(const SsspOptions& o) {
  if (o.problem.graph_file.empty() && o.problem.generate.empty())
    throw input_error("give the graph: --graph FILE (DIMACS .gr or ULIBC binary) or --generate ROWS,COLS");
  const Topology topo = load_topology("", false, "sssp", Detail::placement);
  const Mapping map = resolve_mapping(o.placement, topo);
  warn_if_oversubscribed(map);
  const sssp::RoadProblem p = sssp::load_problem(o.problem, kDefaultQueries, kMaxQueries, map.size());
  const sssp::SolveOptions solve = solve_options(o);
  const sssp::Algorithm algorithm = sssp::resolve_algorithm(o.algorithm, map.size(), p, solve);
  write_files(o, p);
  if (o.no_solve) return;
  std::optional<io::OutputFile> output = open_output(o.output);
  if (!p.pairs.empty()) return run_pairs(o, algorithm, p, output);

  const ScopedOpenMPTeam team(map);
  const sssp::ManyQueryResult r = sssp::solve_sources(p.graph, p.sources, topo, map, algorithm, solve);
  const std::string lines = sssp::source_check_lines(p, r.queries);
  write_output(output, lines);
  if (o.json) {
    print_json(result_json(p, algorithm, map, r));
    return;
  }
  fmt::print("{}: {} vertices, {} arcs, weights {}..{} (loaded in {:.3f} s)\n", p.name, p.graph.vertices(),
             p.graph.arc_count(), p.graph.min_weight(), p.graph.max_weight(), p.load_seconds);
  fmt::print("{} on {} thread{} ({}{}){}\n", sssp::to_string(algorithm), map.size(), map.size() == 1 ? "" : "s",
             map.policy().name(), team.bound() ? "" : ", not bound: " + team.binding().reason,
             r.note.empty() ? "" : "; " + r.note);
  fmt::print("{} queries in {:.3f} s: {:.3f} ms per query, {:.2f} queries/s, {:.4g} TEPS\n", r.queries.size(),
             r.seconds, r.seconds * 1e3 / static_cast<double>(r.queries.size()), r.queries_per_second(), r.teps());
  fmt::print("{}", lines);
}

}  // namespace

Command add_sssp_command(harness::Options& parent) {
  auto o = std::make_shared<SsspOptions>();
  harness::Options sub = parent.subcommand("sssp", std::string(summary_of("sssp")));
  harness::Options problem_options(sub);
  o->problem.add_to(problem_options, /*point_to_point=*/true);
  add_placement_options(sub, o->placement);
  sub.add("--algorithm", o->algorithm,
          "radix or binary (Dijkstra on one thread), delta (Δ-stepping, each query on the team), many "
          "(queries spread over the team); auto: radix on one thread, else many (delta for fewer queries "
          "than threads)")
      .show_default();
  sub.add("--delta", o->delta, "Δ of delta (rounded down to a power of two); default from the weights");
  sub.flag("--hugepages", o->hugepages, "Graph copy and distance arrays on transparent huge pages");
  sub.flag("--replicate", o->replicate, "many: one copy of the graph per NUMA node of the placement");
  sub.add("--output", o->output, "Also write the DIMACS check lines (.ss.chk / .p2p.chk) to FILE").type_name("FILE");
  sub.add("--write-graph", o->write_graph, "Write the graph to FILE (.gr: DIMACS text, else ULIBC binary)")
      .type_name("FILE");
  sub.add("--write-coordinates", o->write_coordinates, "Write a generated graph's coordinates (DIMACS .co)")
      .type_name("FILE");
  sub.add("--write-sources", o->write_sources, "Write the sources (DIMACS .ss)").type_name("FILE");
  sub.flag("--no-solve", o->no_solve, "Only write the files asked for");
  add_json_flag(sub, o->json);
  say_runs_here_only(sub);
  return {sub, [o] { run_sssp(*o); }};
}

}  // namespace ulibc::cli
