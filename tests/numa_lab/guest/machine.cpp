// machine.cpp — reads a lab machine description with nlohmann-json.
#include "machine.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace lab {

namespace {

Machine g_machine;

}  // namespace

Machine Machine::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the machine description");
  try {
    const auto j = nlohmann::json::parse(in);
    Machine m;
    m.name = j.at("name").get<std::string>();
    m.about = j.value("about", "");
    const auto& q = j.at("qemu");
    m.sockets = q.at("sockets").get<int>();
    m.cores = q.at("cores").get<int>();
    m.threads = q.at("threads").get<int>();
    for (const auto& n : j.at("nodes")) {
      NodeSpec spec{n.at("id").get<int>(), ulibc::CpuSet::parse_list(n.at("cpus").get<std::string>()),
                    n.at("memory_mib").get<std::uint64_t>()};
      if (spec.id != static_cast<int>(m.nodes.size())) throw std::runtime_error("node ids must be 0, 1, ... in order");
      m.nodes.push_back(spec);
    }
    m.distances = j.at("distances").get<std::vector<std::vector<int>>>();
    if (j.contains("guest")) {
      m.offline = ulibc::CpuSet::parse_list(j["guest"].value("offline", ""));
      m.taskset = ulibc::CpuSet::parse_list(j["guest"].value("taskset", ""));
    }
    return m;
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

int Machine::node_of(int proc) const {
  for (const auto& n : nodes)
    if (n.cpus.test(proc)) return n.id;
  return -1;
}

int Machine::smt_rank(int proc) const {
  int rank = 0;
  for (int p : online())
    if (p < proc && package_of(p) == package_of(proc) && core_of(p) == core_of(proc)) ++rank;
  return rank;
}

ulibc::CpuSet Machine::all() const {
  ulibc::CpuSet s;
  for (int p = 0; p < processors(); ++p) s.set(p);
  return s;
}

ulibc::NodeSet Machine::memory_nodes() const {
  ulibc::NodeSet s;
  for (const auto& n : nodes)
    if (n.memory_mib > 0) s.set(n.id);
  return s;
}

int Machine::nearest_memory_node(int node) const {
  int best = -1;
  for (int m : memory_nodes()) {
    const auto& row = distances.at(static_cast<std::size_t>(node));
    if (best < 0 || row.at(static_cast<std::size_t>(m)) < row.at(static_cast<std::size_t>(best))) best = m;
  }
  return best;
}

const Machine& machine() { return g_machine; }
void set_machine(Machine m) { g_machine = std::move(m); }

}  // namespace lab
