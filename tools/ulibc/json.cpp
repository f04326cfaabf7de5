// json.cpp — JSON forms of Topology and Mapping.
//
// Field names follow the C++ API's member names, so a script reading the
// JSON and a program using the library speak of the same things.
#include "json.hpp"

#include "summary.hpp"

namespace ulibc::cli {

using json = nlohmann::ordered_json;

namespace {

json processor_json(const Processor& p) {
  return {{"id", p.id},           {"package", p.package}, {"die", p.die},        {"cluster", p.cluster},
          {"core_id", p.core_id}, {"core", p.core},       {"smt", p.smt},        {"node", p.node},
          {"online", p.online},   {"allowed", p.allowed}, {"usable", p.usable()}};
}

json hugepages_json(const HugePages& h) { return {{"page_bytes", h.page_bytes}, {"total", h.total}, {"free", h.free}}; }

json node_json(const Node& n) {
  json huge = json::array();
  for (const HugePages& h : n.hugepages) huge.push_back(hugepages_json(h));
  return {{"id", n.id},
          {"cpus", n.cpus.ids()},
          {"cpulist", n.cpus.to_list()},
          {"memory_bytes", n.memory_bytes},
          {"has_memory", n.has_memory()},
          {"allowed", n.allowed},
          {"distances", n.distances},
          {"hugepages", huge}};
}

json package_json(const Package& p) { return {{"id", p.id}, {"cpus", p.cpus.ids()}, {"cpulist", p.cpus.to_list()}}; }

json cache_json(const Cache& c) {
  return {{"level", c.level}, {"type", c.type}, {"size_bytes", c.size_bytes}, {"cpus", c.cpus.ids()}};
}

json summary_json(const MachineSummary& s) {
  return {{"processors", s.processors},   {"online", s.online}, {"allowed", s.allowed}, {"usable", s.usable},
          {"packages", s.packages},       {"nodes", s.nodes},   {"cores", s.cores},     {"smt_per_core_min", s.min_smt},
          {"smt_per_core_max", s.max_smt}};
}

// Maps each element of `items` through `convert` into a JSON array.
template <typename T, typename F>
json array_of(const std::vector<T>& items, F convert) {
  json a = json::array();
  for (const T& item : items) a.push_back(convert(item));
  return a;
}

json placement_json(const Placement& p) {
  return {{"thread", p.thread},         {"proc", p.proc},       {"node", p.node},
          {"node_index", p.node_index}, {"package", p.package}, {"core_id", p.core_id},
          {"core_index", p.core_index}, {"smt", p.smt},         {"ordcore", p.ordcore}};
}

}  // namespace

json to_json(const Topology& topo) {
  return {{"fsroot", topo.fsroot()},
          {"live", topo.is_live()},
          {"counts", summary_json(summarize(topo))},
          {"cpus",
           {{"all", topo.all().to_list()},
            {"online", topo.online().to_list()},
            {"allowed", topo.allowed().to_list()},
            {"usable", topo.usable().to_list()}}},
          {"processors", array_of(topo.processors(), processor_json)},
          {"nodes", array_of(topo.nodes(), node_json)},
          {"packages", array_of(topo.packages(), package_json)},
          {"caches", array_of(topo.caches(), cache_json)},
          {"notes", topo.notes()}};
}

void add_apic_ids(json& topology, const ApicTable& apic) {
  for (json& p : topology["processors"]) {
    const ApicEntry* e = apic.of(p["id"].get<int>());
    const auto id = e ? e->id() : std::nullopt;
    p["apic_id"] = id ? json(*id) : json(nullptr);
  }
  topology["apic"] = {{"available", apic.available()},
                      {"source", apic.source},
                      {"absent_reason", apic.absent_reason},
                      {"disagreements", apic.disagreements}};
}

json to_json(const Mapping& map) {
  return {{"policy", map.policy().name()},
          {"thread_count", map.size()},
          {"threads", array_of(map.threads(), placement_json)},
          {"nodes_used", map.nodes_used()},
          {"node_ids", map.node_ids()},
          {"threads_per_node", map.threads_per_node()},
          {"cores_per_node", map.max_cores_per_node()},
          {"threads_per_core", map.max_threads_per_core()},
          {"oversubscribed", map.oversubscribed()}};
}

}  // namespace ulibc::cli
