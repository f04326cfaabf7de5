// simpath_command.cpp — `ulibc simpath`: the number of simple s-t paths of a graph, by Simpath's ZDD.
//
// The search runs on threads placed by a policy. The details come first; the last line of the text output is the
// count alone, for scripts.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "catalog.hpp"
#include "commands.hpp"
#include "graph/edge_io.hpp"
#include "io/file_io.hpp"
#include "simpath/sample.hpp"
#include "simpath/simpath.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"
#include "ulibc/process_memory.hpp"

namespace ulibc::cli {

namespace {

using simpath::PathProblem;

struct SimpathOptions {
  PlacementOptions placement;
  std::vector<int> grid;  // K, or R,C: cells
  std::string file;
  graph::Vertex s = -1, t = -1;
  std::optional<harness::Option> s_opt;
  std::optional<harness::Option> t_opt;
  std::string order = "auto";
  std::uint64_t memory_limit = 0;
  std::string zdd_file;
  int samples = 0;
  std::uint64_t seed = 1;
  bool json = false;
};

constexpr int kLevelsPerRow = 10;

std::optional<graph::Vertex> given(const std::optional<harness::Option>& option, graph::Vertex v) {
  return option->given() ? std::optional(v) : std::nullopt;
}

PathProblem make_problem(const SimpathOptions& o, std::string& notes) {
  if (o.grid.empty() == o.file.empty()) throw input_error("give either --grid K (or R,C) or --file F with --s and --t");
  if (!o.grid.empty()) {
    if (o.grid.size() > 2) throw input_error(fmt::format("--grid takes K or R,C cells, not {} numbers", o.grid.size()));
    return simpath::grid_problem(o.grid[0], o.grid.back(), given(o.s_opt, o.s), given(o.t_opt, o.t));
  }
  if (!o.s_opt->given() || !o.t_opt->given()) throw input_error("--file needs --s and --t, the ends of the paths");
  simpath::CleanReport cleaned;
  PathProblem p = simpath::graph_problem(graph::read_edges(o.file), o.s, o.t, o.file, &cleaned);
  if (cleaned.self_loops > 0)
    notes += fmt::format("dropped {} self-loop(s): no simple path uses one\n", cleaned.self_loops);
  if (cleaned.duplicates > 0)
    notes += fmt::format("merged {} repeated edge(s): paths are counted as vertex sequences\n", cleaned.duplicates);
  return p;
}

void print_levels(const simpath::Result& r) {
  fmt::print("ZDD nodes per edge (frontier states in brackets):\n");
  for (std::size_t first = 0; first < r.zdd.levels.size(); first += kLevelsPerRow) {
    const std::size_t end = std::min(first + kLevelsPerRow, r.zdd.levels.size());
    std::string row = fmt::format("  {:>4}-{:<4}", first + 1, end);
    for (std::size_t i = first; i < end; ++i) row += fmt::format(" {}[{}]", r.zdd.levels[i].size(), r.states[i]);
    fmt::print("{}\n", row);
  }
}

nlohmann::ordered_json result_json(const PathProblem& p, const std::string& notes, const Mapping& map,
                                   const simpath::Result& r, const std::vector<std::vector<graph::Vertex>>& samples) {
  std::vector<std::uint64_t> nodes;
  for (const auto& l : r.zdd.levels) nodes.push_back(l.size());
  return {
      {"graph", p.name},
      {"vertices", p.vertices},
      {"edges", p.edges.size()},
      {"s", p.s},
      {"t", p.t},
      {"notes", notes},
      {"policy", map.policy().name()},
      {"threads", map.size()},
      {"order", simpath::edge_order_name(r.order)},
      {"max_frontier", r.max_frontier},
      {"count", r.count},
      {"states", r.total_states()},
      {"zdd_nodes", r.zdd.size()},
      {"seconds",
       {{"total", r.seconds()}, {"order", r.order_seconds}, {"build", r.build_seconds}, {"reduce", r.reduce_seconds}}},
      {"search_peak_bytes", r.peak_bytes},
      {"peak_rss_bytes", ulibc::peak_resident_memory()},
      {"states_per_edge", r.states},
      {"nodes_per_edge", nodes},
      {"samples", samples}};
}

// The search alone runs on the team, bound for its length; sampling and printing need no team.
std::pair<simpath::Result, TeamBinding> solve_on_team(const PathProblem& problem, const simpath::Options& options,
                                                      const Mapping& map) {
  const ScopedOpenMPTeam team(map);
  return {simpath::solve(problem, options), team.binding()};
}

void run_simpath(const SimpathOptions& o) {
  std::string notes;
  const PathProblem problem = make_problem(o, notes);
  const Topology topo = load_topology("", false, "simpath", Detail::placement);
  const Mapping map = resolve_mapping(o.placement, topo);
  warn_if_oversubscribed(map);
  const simpath::EdgeOrder order = simpath::edge_order_named(o.order);
  if (o.samples < 0) throw input_error(fmt::format("--sample {}: the number of paths cannot be negative", o.samples));

  // Open the ZDD's file before the search, so that a bad path costs no search.
  std::optional<io::OutputFile> zdd_out;
  if (!o.zdd_file.empty()) zdd_out.emplace(o.zdd_file);
  const auto [r, binding] =
      solve_on_team(problem, {.order = order, .threads = map.size(), .memory_limit = o.memory_limit}, map);
  std::vector<std::vector<graph::Vertex>> samples;
  for (const auto& set : simpath::sample_sets(r.zdd, o.samples, o.seed))
    samples.push_back(simpath::path_vertices(set, problem.s));
  if (zdd_out) {
    simpath::write_zdd(r.zdd, problem.s, problem.t, zdd_out->stream());
    zdd_out->finish();
  }
  if (o.json) {
    print_json(result_json(problem, notes, map, r, samples));
    return;
  }
  fmt::print("{}{}: {} vertices, {} edges, s = {}, t = {}\n", notes, problem.name, problem.vertices,
             problem.edges.size(), problem.s, problem.t);
  fmt::print("edge order {}{}: frontier up to {} vertices\n", simpath::edge_order_name(r.order),
             order == simpath::EdgeOrder::automatic ? " (auto)" : "", r.max_frontier);
  fmt::print("{} thread{} ({}{}); search {}\n", map.size(), map.size() == 1 ? "" : "s", map.policy().name(),
             binding.bound ? "" : ", not bound: " + binding.reason,
             map.size() == 1 ? "sequential" : "edge-based (EBA)");
  fmt::print("search {:.3f} s: {} states; reduce and count {:.3f} s: {} ZDD nodes; total {:.3f} s\n", r.build_seconds,
             r.total_states(), r.reduce_seconds, r.zdd.size(), r.seconds());
  fmt::print("memory: {} held by the search at most, {} resident at peak\n", ulibc::format_bytes(r.peak_bytes),
             ulibc::format_bytes(ulibc::peak_resident_memory()));
  print_levels(r);
  if (!samples.empty()) {
    fmt::print("{} path{} drawn uniformly (seed {}):\n", samples.size(), samples.size() == 1 ? "" : "s", o.seed);
    for (const auto& path : samples) fmt::print("  {}\n", fmt::join(path, " "));
  }
  if (!o.zdd_file.empty()) fmt::print("ZDD written to {}\n", o.zdd_file);
  fmt::print("{}\n", r.count);
}

}  // namespace

Command add_simpath_command(harness::Options& parent) {
  auto o = std::make_shared<SimpathOptions>();
  harness::Options sub = parent.subcommand("simpath", std::string(summary_of("simpath")));
  sub.add("--grid", o->grid,
          "A grid of K x K cells, or R,C: R x C cells ((R+1)(C+1) vertices), s and t at "
          "opposite corners")
      .list()
      .type_name("K|R,C");
  sub.add("--file", o->file, "An edge list (text 'u v' lines or ULIBC binary; ids from 0)").type_name("FILE");
  o->s_opt = sub.add("--s", o->s, "The first end of the paths (a grid: default the top-left corner)");
  o->t_opt = sub.add("--t", o->t, "The other end (a grid: default the bottom-right corner)");
  add_placement_options(sub, o->placement);
  sub.add("--order", o->order,
          "Edge order: auto (the narrowest frontier of the others), input (as given; a "
          "grid row by row), bfs (from s, as Simpath) or greedy")
      .show_default();
  sub.add("--memory-limit", o->memory_limit,
          "Stop, saying how far it got, before the search holds more "
          "than SIZE (e.g. 4G); default the memory available")
      .size_suffixes(false)
      .type_name("SIZE");
  sub.add("--zdd", o->zdd_file, "Write the ZDD to FILE (text, docs/ZDD_FORMAT.md)").type_name("FILE");
  sub.add("--sample", o->samples, "Also print K paths drawn uniformly at random").type_name("K");
  sub.add("--seed", o->seed, "Seed of --sample")
      .check([](const std::string& text) { return text.starts_with('-') ? "a seed is not negative" : ""; })
      .show_default();
  add_json_flag(sub, o->json);
  say_runs_here_only(sub);
  return {sub, [o] { run_simpath(*o); }};
}

}  // namespace ulibc::cli
