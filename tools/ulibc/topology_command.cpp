// topology_command.cpp — `ulibc topology`: what the library sees of the
// machine, the first thing to check before trusting any mapping.
#include <fmt/format.h>

#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <tuple>

#include "commands.hpp"
#include "draw.hpp"
#include "json.hpp"
#include "summary.hpp"
#include "table.hpp"
#include "ulibc/apic.hpp"
#include "ulibc/process_memory.hpp"

namespace ulibc::cli {

namespace {

std::string describe_source(const Topology& topo) {
  return topo.is_live() ? fmt::format("live machine ({})", topo.fsroot()) : fmt::format("snapshot {}", topo.fsroot());
}

void print_totals(const Topology& topo) {
  const MachineSummary s = summarize(topo);
  fmt::print("Machine: {}\n", describe_source(topo));
  fmt::print("  processors      {} (online {}, allowed {}, usable {})\n", s.processors, s.online, s.allowed, s.usable);
  fmt::print("  packages        {}\n", s.packages);
  fmt::print("  NUMA nodes      {}\n", s.nodes);
  fmt::print("  cores           {}\n", s.cores);
  // Hybrid parts mix cores with and without SMT: show the range rather than hide it.
  if (s.min_smt == s.max_smt)
    fmt::print("  SMT per core    {}\n", s.max_smt);
  else
    fmt::print("  SMT per core    {}-{} (varies by core)\n", s.min_smt, s.max_smt);
  fmt::print("  cpus all        {}\n", topo.all().to_list());
  fmt::print("       online     {}\n", topo.online().to_list());
  fmt::print("       allowed    {}\n", topo.allowed().to_list());
  fmt::print("       usable     {}\n", topo.usable().to_list());
  const CpuSet excluded = topo.online() - topo.usable();
  if (!excluded.empty())
    fmt::print("       not usable {} (online but outside the affinity mask or cgroup cpuset)\n", excluded.to_list());
}

std::string hugepages_cell(const Node& n) {
  std::string text;
  for (const HugePages& h : n.hugepages)
    text += fmt::format("{}{}: {}/{}", text.empty() ? "" : ", ", ulibc::format_bytes(h.page_bytes), h.free, h.total);
  return text.empty() ? "-" : text;
}

std::string memory_cell(const Node& n) {
  std::string text = n.has_memory() ? ulibc::format_bytes(n.memory_bytes) : "memory-less";
  if (!n.allowed) text += " (not in cgroup mems)";
  return text;
}

void print_nodes(const Topology& topo) {
  Table t({{"node"}, {"memory"}, {"hugepages free/total", true}, {"cpus", true}});
  for (const Node& n : topo.nodes())
    t.add({cell(n.id), memory_cell(n), hugepages_cell(n), n.cpus.empty() ? "-" : n.cpus.to_list()});
  fmt::print("\nNUMA nodes:\n");
  t.print(std::cout);
}

void print_packages(const Topology& topo) {
  Table t({{"package"}, {"cpus", true}});
  for (const Package& p : topo.packages()) t.add({cell(p.id), p.cpus.to_list()});
  fmt::print("\nPackages:\n");
  t.print(std::cout);
}

void print_distances(const Topology& topo) {
  std::vector<Table::Column> columns = {{"node"}};
  for (const Node& n : topo.nodes()) columns.push_back({std::to_string(n.id)});
  Table t(std::move(columns));
  for (const Node& from : topo.nodes()) {
    std::vector<std::string> row = {std::to_string(from.id)};
    for (const Node& to : topo.nodes()) row.push_back(cell(topo.distance(from.id, to.id)));
    t.add(std::move(row));
  }
  fmt::print("\nNode distances:\n");
  t.print(std::cout);
}

// Caches grouped by kind: a machine has hundreds of instances but a handful
// of kinds, and the kind plus its sharing is what placement decisions need.
void print_caches(const Topology& topo) {
  if (topo.caches().empty()) return;
  using Kind = std::tuple<int, std::string, std::uint64_t, int>;  // level, type, size, cpus sharing one
  std::map<Kind, int> instances;
  for (const Cache& c : topo.caches()) ++instances[{c.level, c.type, c.size_bytes, c.cpus.count()}];
  Table t({{"level"}, {"type", true}, {"size"}, {"instances"}, {"cpus each"}});
  for (const auto& [kind, count] : instances) {
    const auto& [level, type, size, sharing] = kind;
    t.add({fmt::format("L{}", level), type, ulibc::format_bytes(size), std::to_string(count), std::to_string(sharing)});
  }
  fmt::print("\nCaches:\n");
  t.print(std::cout);
}

// The ULIBC paper's processor-id → APIC-id table, eight processors a row
// like `ulibc map`'s thread rows: "processors 0-7 : 0 4 2 6 1 5 3 7".
void print_apic(const ApicTable& apic) {
  if (!apic.available()) {
    fmt::print("\nAPIC ids: none ({})\n", apic.absent_reason);
    return;
  }
  fmt::print("\nAPIC ids ({}):\n", apic.source);
  constexpr std::size_t kPerRow = 8;
  const std::size_t n = apic.entries.size();
  const int last = apic.entries.back().proc;
  const std::size_t range_width = fmt::format("{}-{}", last, last).size();
  for (std::size_t first = 0; first < n; first += kPerRow) {
    const std::size_t end = std::min(first + kPerRow, n) - 1;
    std::string row = fmt::format(
        "  processors {:<{}} :", fmt::format("{}-{}", apic.entries[first].proc, apic.entries[end].proc), range_width);
    for (std::size_t i = first; i <= end; ++i) {
      const auto id = apic.entries[i].id();
      row += " " + (id ? std::to_string(*id) : std::string("-"));
    }
    fmt::print("{}\n", row);
  }
  for (const std::string& d : apic.disagreements) fmt::print("  disagreement: {}\n", d);
}

void print_notes(const Topology& topo) {
  if (topo.notes().empty()) return;
  fmt::print("\nNotes (fallbacks taken while loading):\n");
  for (const std::string& note : topo.notes()) fmt::print("  - {}\n", note);
}

void print_text(const Topology& topo, const ApicTable& apic) {
  print_totals(topo);
  print_nodes(topo);
  print_packages(topo);
  print_apic(apic);
  print_distances(topo);
  print_caches(topo);
  print_notes(topo);
}

}  // namespace

Command add_topology_command(harness::Options& parent) {
  auto opts = std::make_shared<CommonOptions>();
  auto draw = std::make_shared<std::string>();
  harness::Options sub =
      parent.subcommand("topology", "Show the machine: processors, NUMA nodes, packages, distances, caches");
  add_common_options(sub, *opts);
  sub.add("--draw", *draw, kDrawHelp).type_name("FILE").excludes("--json");
  return {sub, [opts, draw] {
            if (!draw->empty()) picture_format(*draw);
            const Topology topo = Topology::load(opts->fsroot);
            if (!draw->empty()) {
              write_picture(draw_svg(topo, nullptr), *draw);
              print_drawn(*draw);
            } else if (opts->json) {
              nlohmann::ordered_json j = to_json(topo);
              add_apic_ids(j, read_apic_ids(topo));
              print_json(j);
            } else {
              print_text(topo, read_apic_ids(topo));
            }
          }};
}

}  // namespace ulibc::cli
