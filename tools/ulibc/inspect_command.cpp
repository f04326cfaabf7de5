// inspect_command.cpp — `ulibc inspect PID`: where a running process's threads and memory are, and what a policy
// would have bound them to (ulibc/inspect.hpp does the reading and judging; docs/INSPECT.md states the rules).
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "commands.hpp"
#include "inspect_report.hpp"
#include "table.hpp"
#include "ulibc/error.hpp"
#include "ulibc/inspect.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::cli {

namespace {

struct InspectOptions {
  CommonOptions common;
  int pid = 0;
  bool mappings = false;
};

std::string mib(std::uint64_t bytes) { return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20)); }

nlohmann::ordered_json inspect_thread_json(const ThreadReport& t) {
  return {{"tid", t.tid},
          {"name", t.name},
          {"state", std::string(1, t.state)},
          {"last_processor", t.last_processor},
          {"node", t.node},
          {"allowed", t.allowed.to_list()},
          {"allowed_nodes", t.allowed_nodes.to_list()},
          {"binding", binding_name(t.binding)},
          {"bound_to", t.bound_to},
          {"binding_node", t.binding_node},
          {"policies", t.policies},
          {"moved", t.moved},
          {"remote_fraction", t.remote_fraction},
          {"memory_elsewhere", t.memory_elsewhere},
          {"verdict", verdict_name(t.verdict)},
          {"explanation", t.explanation}};
}

nlohmann::ordered_json inspect_mapping_json(const MemoryMapping& m) {
  nlohmann::ordered_json pages = nlohmann::ordered_json::object();
  for (std::size_t n = 0; n < m.pages.size(); ++n)
    if (m.pages[n]) pages[std::to_string(n)] = m.pages[n];
  return {{"address", fmt::format("{:x}", m.address)},
          {"policy", m.policy},
          {"kind", m.kind},
          {"file", m.file},
          {"page_bytes", m.page_bytes},
          {"pages_by_node", pages},
          {"resident_bytes", m.resident_bytes()}};
}

nlohmann::ordered_json inspect_memory_json(const ProcessReport& r, bool mappings) {
  nlohmann::ordered_json j{{"readable", r.memory_readable}, {"resident_bytes", r.resident_bytes()}};
  j["nodes"] = nlohmann::ordered_json::array();
  for (std::size_t n = 0; n < r.node_bytes.size(); ++n)
    if (r.node_bytes[n]) j["nodes"].push_back({{"node", n}, {"bytes", r.node_bytes[n]}});
  if (mappings) {
    j["mappings"] = nlohmann::ordered_json::array();
    for (const MemoryMapping& m : r.mappings) j["mappings"].push_back(inspect_mapping_json(m));
  }
  return j;
}

void print_inspect_threads(const ProcessReport& r) {
  Table t({{"tid"},
           {"name", true},
           {"state", true},
           {"last_proc"},
           {"node"},
           {"allowed", true},
           {"mems", true},
           {"verdict", true}});
  for (const ThreadReport& th : r.threads)
    t.add({cell(th.tid), th.name, std::string(1, th.state), cell(th.last_processor), cell(th.node),
           th.allowed.to_list(), th.allowed_nodes.to_list(), std::string(verdict_name(th.verdict))});
  t.print(std::cout);
}

void print_inspect_memory(const ProcessReport& r, bool mappings) {
  if (!r.memory_readable) {
    fmt::print("\nMemory per node: unreadable (see the notes)\n");
    return;
  }
  fmt::print("\nMemory per node ({} resident):\n", mib(r.resident_bytes()));
  Table t({{"node"}, {"bytes"}, {"share"}});
  for (std::size_t n = 0; n < r.node_bytes.size(); ++n)
    if (r.node_bytes[n])
      t.add({cell(static_cast<long long>(n)), std::to_string(r.node_bytes[n]),
             fmt::format("{:.1f}%", 100.0 * static_cast<double>(r.node_bytes[n]) / r.resident_bytes())});
  t.print(std::cout);
  if (!mappings) return;
  fmt::print("\nMappings:\n");
  Table m({{"address", true}, {"policy", true}, {"kind", true}, {"page_kB"}, {"pages by node", true}, {"file", true}});
  for (const MemoryMapping& mm : r.mappings) {
    std::string pages;
    for (std::size_t n = 0; n < mm.pages.size(); ++n)
      if (mm.pages[n]) pages += fmt::format("{}N{}={}", pages.empty() ? "" : " ", n, mm.pages[n]);
    m.add({fmt::format("{:x}", mm.address), mm.policy, mm.kind, cell(static_cast<long long>(mm.page_bytes / 1024)),
           pages.empty() ? "-" : pages, mm.file});
  }
  m.print(std::cout);
}

void run_inspect(const InspectOptions& o) {
  const Topology topo = Topology::load(o.common.fsroot, Detail::placement);
  print_report(inspect_process(topo, o.pid), {.json = o.common.json, .mappings = o.mappings});
}

}  // namespace

nlohmann::ordered_json report_json(const ProcessReport& r, const ReportForm& form) {
  nlohmann::ordered_json j{{"pid", r.pid}};
  if (form.age_ms) j["age_ms"] = *form.age_ms;
  j["threads"] = nlohmann::ordered_json::array();
  for (const ThreadReport& t : r.threads) j["threads"].push_back(inspect_thread_json(t));
  j["memory"] = inspect_memory_json(r, form.mappings);
  j["notes"] = r.notes;
  return j;
}

void print_report(const ProcessReport& r, const ReportForm& form) {
  if (form.json) return print_json(report_json(r, form));
  fmt::print("Process {}: {} thread{}", r.pid, r.threads.size(), r.threads.size() == 1 ? "" : "s");
  if (form.age_ms) fmt::print(", read {} ms before it ended", *form.age_ms);
  fmt::print("\n");
  print_inspect_threads(r);
  print_inspect_memory(r, form.mappings);
  fmt::print("\nVerdicts:\n");
  for (const ThreadReport& t : r.threads) fmt::print("  thread {} ({}): {}\n", t.tid, t.name, t.explanation);
  if (r.notes.empty()) return;
  fmt::print("\nNotes:\n");
  for (const std::string& note : r.notes) fmt::print("  {}\n", note);
}

Command add_inspect_command(harness::Options& parent) {
  auto opts = std::make_shared<InspectOptions>();
  harness::Options sub = parent.subcommand(
      "inspect", "Show where a running process's threads last ran, what binds them, and its memory per node");
  sub.add("pid", opts->pid, "The process to inspect").required();
  sub.flag("--mappings", opts->mappings, "Also list every memory mapping (numa_maps) with its pages per node");
  add_common_options(sub, opts->common);
  sub.footer(
      "Verdicts: unbound, bound, restricted, moved, memory-elsewhere (docs/INSPECT.md says when)\n"
      "Example: ulibc inspect $(pidof stream) --mappings\n");
  return {sub, [opts] { run_inspect(*opts); }};
}

}  // namespace ulibc::cli
