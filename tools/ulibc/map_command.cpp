// map_command.cpp — `ulibc map`: the thread → processor table a policy gives
// on this machine, laid out like the ULIBC paper's Tables 3 and 4.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "draw.hpp"
#include "json.hpp"
#include "table.hpp"
#include "ulibc/error.hpp"
#include "ulibc/rank_share.hpp"

namespace ulibc::cli {

namespace {

constexpr int kThreadsPerRow = 8;  // the paper's Table 3 lists eight threads a row

struct MapOptions {
  CommonOptions common;
  PlacementOptions placement;
  int ranks = 0;     // --ranks: the machine shared by this many processes; 0: one process
  std::string draw;  // --draw FILE: the mapping as a picture instead of tables
};

// Table 3: "threads 0-7 : 0 8 16 24 1 9 17 25", eight threads a row.
void print_processor_rows(const Mapping& map) {
  const int last = map.size() - 1;
  const std::size_t range_width = fmt::format("{}-{}", last, last).size();
  std::size_t proc_width = 1;
  for (const Placement& p : map.threads()) proc_width = std::max(proc_width, cell(p.proc).size());
  fmt::print("Thread -> processor:\n");
  for (int first = 0; first <= last; first += kThreadsPerRow) {
    const int end = std::min(first + kThreadsPerRow, map.size()) - 1;
    std::string row = fmt::format("  threads {:<{}} :", fmt::format("{}-{}", first, end), range_width);
    for (int t = first; t <= end; ++t) row += fmt::format(" {:>{}}", cell(map[t].proc), proc_width);
    fmt::print("{}\n", row);
  }
}

void print_placements(const Mapping& map) {
  Table t(
      {{"thread"}, {"proc"}, {"node"}, {"node_index"}, {"package"}, {"core_id"}, {"core_index"}, {"smt"}, {"ordcore"}});
  for (const Placement& p : map.threads())
    t.add({cell(p.thread), cell(p.proc), cell(p.node), cell(p.node_index), cell(p.package), cell(p.core_id),
           cell(p.core_index), cell(p.smt), cell(p.ordcore)});
  fmt::print("\nPlacements:\n");
  t.print(std::cout);
}

// Table 4 of the paper: how a policy spreads a thread count over the machine.
void print_counts(const Mapping& map) {
  fmt::print("\nCounts:\n");
  fmt::print("  threads           {}\n", map.size());
  fmt::print("  NUMA nodes        {}\n", map.nodes_used());
  fmt::print("  cores per node    {}\n", map.max_cores_per_node());
  fmt::print("  threads per core  {}\n", map.max_threads_per_core());
  Table t({{"node_index"}, {"node"}, {"threads"}});
  for (int i = 0; i < map.nodes_used(); ++i) t.add({cell(i), cell(map.node_ids()[i]), cell(map.threads_per_node()[i])});
  fmt::print("\nThreads per node:\n");
  t.print(std::cout);
}

void print_text(const Mapping& map, const Topology& topo) {
  fmt::print("Policy {}, {} threads on {}\n\n", map.policy().name(), map.size(), topo.fsroot());
  print_processor_rows(map);
  print_placements(map);
  print_counts(map);
}

void print_map(const Mapping& map, const Topology& topo, bool json) {
  if (json) {
    nlohmann::ordered_json j = to_json(map);
    j["fsroot"] = topo.fsroot();
    print_json(j);
  } else {
    print_text(map, topo);
  }
}

// --ranks K: each local rank's share of the machine, and its threads' mapping inside it.
void print_ranks(const MapOptions& o, const Topology& topo) {
  const Policy policy = resolve_policy(o.placement);
  const RankShares shares = rank_shares(topo, policy, o.ranks);
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  for (int r = 0; r < o.ranks; ++r) {
    const CpuSet& cpus = shares.cpus[r];
    const Topology share = topo.restricted_to(cpus);
    const Mapping map = Mapping::build(share, policy, resolve_threads(o.placement, share));
    warn_if_oversubscribed(map);
    if (o.common.json) {
      ranks.push_back({{"rank", r}, {"processors", cpus.to_list()}, {"mapping", to_json(map)}});
      continue;
    }
    fmt::print("{}Rank {} of {}: processors {} ({})\n", r ? "\n" : "", r, o.ranks, cpus.to_list(), shares.rule_name());
    print_processor_rows(map);
    print_placements(map);
  }
  if (o.common.json)
    print_json({{"fsroot", topo.fsroot()},
                {"policy", policy.name()},
                {"ranks", o.ranks},
                {"rule", shares.rule_name()},
                {"shares", ranks}});
}

// The picture shows the caches, so its machine is loaded in full.
void draw_map(const MapOptions& o) {
  picture_format(o.draw);
  if (o.ranks > 0) throw input_error("--draw shows one process's threads: it cannot be combined with --ranks");
  const Topology topo = Topology::load(o.common.fsroot);
  const Mapping map = resolve_mapping(o.placement, topo);
  warn_if_oversubscribed(map);
  write_picture(draw_svg(topo, &map), o.draw);
  print_drawn(o.draw);
}

void run_map(const MapOptions& o) {
  if (!o.draw.empty()) return draw_map(o);
  const Topology topo = Topology::load(o.common.fsroot, Detail::placement);  // no caches needed
  if (o.ranks > 0) return print_ranks(o, topo);
  const Mapping map = resolve_mapping(o.placement, topo);
  warn_if_oversubscribed(map);
  print_map(map, topo, o.common.json);
}

}  // namespace

Command add_map_command(harness::Options& parent) {
  auto opts = std::make_shared<MapOptions>();
  harness::Options sub =
      parent.subcommand("map", "Show the thread -> processor mapping a policy gives on this machine");
  add_placement_options(sub, opts->placement);
  sub.add("--ranks", opts->ranks,
          "The machine shared by K processes (MPI ranks): each one's share and its threads' mapping in it")
      .type_name("K")
      .in_range(1, Mapping::kMaxThreads);
  add_common_options(sub, opts->common);
  sub.add("--draw", opts->draw,
          "Draw the machine with each thread on its processor, coloured by node index, instead of the tables: "
          "FILE.svg, or FILE.png (through rsvg-convert); prints one line saying where the picture went")
      .type_name("FILE")
      .excludes("--json");
  return {sub, [opts] { run_map(*opts); }};
}

}  // namespace ulibc::cli
