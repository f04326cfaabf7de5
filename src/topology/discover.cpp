// topology/discover.cpp — builds a Topology from sysfs/procfs below a root.
//
// Order matters: processors first (ids, online, package/core), then nodes
// (which may have to look at processors' node links), then what we are
// allowed to use, then caches (read only for online processors).
#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>

#include "config/environment.hpp"
#include "os/affinity.hpp"
#include "os/fs.hpp"
#include "os/meminfo.hpp"
#include "os/process.hpp"
#include "topology/cgroup.hpp"
#include "topology/sysfs_values.hpp"
#include "ulibc/error.hpp"
#include "ulibc/topology.hpp"

namespace ulibc {

namespace {
const std::string kCpuDir = "/sys/devices/system/cpu";
const std::string kNodeDir = "/sys/devices/system/node";
constexpr int kLocalDistance = 10;
constexpr int kRemoteDistance = 20;

std::string cpu_path(int id) { return kCpuDir + "/cpu" + std::to_string(id); }
std::string node_path(int id) { return kNodeDir + "/node" + std::to_string(id); }
}  // namespace

class TopologyBuilder {
 public:
  TopologyBuilder(const std::string& fsroot, Detail detail) : fs_(fsroot) {
    t_.fsroot_ = fs_.root();
    t_.live_ = fs_.is_live();
    t_.detail_ = detail;
  }

  Topology build() {
    if (!fs_.is_dir("/")) throw input_error("filesystem root " + fs_.root() + ": not a readable directory");
    if (!fs_.is_dir(kCpuDir))
      throw input_error(fs_.path(kCpuDir) + ": missing; is " + fs_.root() + " a Linux sysfs/procfs root?");
    read_processors();
    read_nodes();
    read_allowed();
    if (t_.detail_ == Detail::full) read_caches();
    collect_packages();
    return std::move(t_);
  }

 private:
  Processor& proc(int id) { return t_.processors_[static_cast<std::size_t>(index_[static_cast<std::size_t>(id)])]; }
  bool known(int id) const {
    return id >= 0 && static_cast<std::size_t>(id) < index_.size() && index_[static_cast<std::size_t>(id)] >= 0;
  }
  void note(std::string s) { t_.notes_.push_back(std::move(s)); }

  void read_processors() {
    for (const auto& name : fs_.list(kCpuDir))
      if (int id = topo::suffix_id(name, "cpu"); id >= 0) t_.processors_.push_back(Processor{.id = id});
    if (t_.processors_.empty()) throw input_error(fs_.path(kCpuDir) + ": no cpuN directories");
    std::sort(t_.processors_.begin(), t_.processors_.end(), [](auto& a, auto& b) { return a.id < b.id; });
    index_.assign(static_cast<std::size_t>(t_.processors_.back().id) + 1, -1);
    for (std::size_t i = 0; i < t_.processors_.size(); ++i)
      index_[static_cast<std::size_t>(t_.processors_[i].id)] = static_cast<int>(i);

    read_online();
    for (auto& p : t_.processors_) read_core_topology(p);
    number_packages_without_id();
    identify_cores();
  }

  void read_online() {
    if (auto text = fs_.read(kCpuDir + "/online")) {
      const CpuSet online = topo::parse_set_in(fs_, kCpuDir + "/online", *text, true);
      for (auto& p : t_.processors_) p.online = online.test(p.id);
      return;
    }
    // Old kernels: only the per-processor flag, absent for processors that cannot go offline.
    for (auto& p : t_.processors_) p.online = topo::read_int(fs_, cpu_path(p.id) + "/online").value_or(1) != 0;
  }

  void read_core_topology(Processor& p) {
    const std::string dir = cpu_path(p.id) + "/topology";
    const auto package = topo::read_int(fs_, dir + "/physical_package_id");
    if (!package) {
      if (p.online) note("cpu" + std::to_string(p.id) + ": no topology directory; taken as its own core");
      if (p.online) p.core_id = p.id;
      return;
    }
    p.package = static_cast<int>(*package);
    p.core_id = static_cast<int>(topo::read_int(fs_, dir + "/core_id").value_or(p.id));
    if (t_.detail_ == Detail::placement) return;
    p.die = static_cast<int>(topo::read_int(fs_, dir + "/die_id").value_or(-1));
    p.cluster = static_cast<int>(topo::read_int(fs_, dir + "/cluster_id").value_or(-1));
  }

  // Some kernels (POWER, old ARM) report physical_package_id -1. The set of
  // processors sharing a package (core_siblings / package_cpus) still tells
  // which processors belong together; number those groups after the real ids.
  void number_packages_without_id() {
    int next_id = 0;
    for (const auto& p : t_.processors_) next_id = std::max(next_id, p.package + 1);
    std::map<int, int> id_of_group;  // first processor of the sibling set → synthetic id
    for (auto& p : t_.processors_) {
      if (!p.online || p.package >= 0) continue;
      const std::string dir = cpu_path(p.id) + "/topology";
      auto siblings = topo::read_set(fs_, dir + "/package_cpus_list", dir + "/package_cpus");
      if (!siblings) siblings = topo::read_set(fs_, dir + "/core_siblings_list", dir + "/core_siblings");
      const int key = siblings && !siblings->empty() ? siblings->first() : -1;
      auto [it, inserted] = id_of_group.try_emplace(key, next_id);
      if (inserted) ++next_id;
      p.package = it->second;
    }
    if (!id_of_group.empty())
      note("physical_package_id is -1 (or missing); packages numbered from " +
           std::to_string(id_of_group.begin()->second) + " by their sibling sets");
  }

  // A core is the set of hardware threads the kernel lists in core_cpus
  // (thread_siblings before 5.x), not the processors sharing (package,
  // core_id): on multi-die packages of kernels without die_id (AMD
  // Magny-Cours) core_id repeats in every die. One read per core. Without the
  // files, (package, core_id) is the best we have. Cores are then numbered
  // machine-wide in (package, core_id, first processor) order, and each
  // processor's SMT rank is its place among its core's online threads.
  void identify_cores() {
    std::vector<std::vector<int>> cores;                // online members, ascending ids
    std::map<std::pair<int, int>, std::size_t> by_key;  // fallback grouping
    std::vector<int> group(index_.size(), -1);
    for (const auto& p : t_.processors_) {
      if (!p.online || group[static_cast<std::size_t>(p.id)] >= 0) continue;
      const auto siblings = thread_siblings(p.id);
      std::size_t g = cores.size();
      if (siblings && siblings->test(p.id)) {
        cores.emplace_back();
        for (int cpu : *siblings)
          if (known(cpu) && proc(cpu).online && group[static_cast<std::size_t>(cpu)] < 0) {
            group[static_cast<std::size_t>(cpu)] = static_cast<int>(g);
            cores[g].push_back(cpu);
          }
        continue;
      }
      auto [it, inserted] = by_key.try_emplace({p.package, p.core_id}, g);
      if (inserted) cores.emplace_back();
      group[static_cast<std::size_t>(p.id)] = static_cast<int>(it->second);
      cores[it->second].push_back(p.id);
    }
    std::sort(cores.begin(), cores.end(), [&](const auto& a, const auto& b) {
      const Processor& x = proc(a.front());
      const Processor& y = proc(b.front());
      return std::tie(x.package, x.core_id, x.id) < std::tie(y.package, y.core_id, y.id);
    });
    for (std::size_t c = 0; c < cores.size(); ++c)
      for (std::size_t rank = 0; rank < cores[c].size(); ++rank) {
        proc(cores[c][rank]).core = static_cast<int>(c);
        proc(cores[c][rank]).smt = static_cast<int>(rank);
      }
  }

  std::optional<CpuSet> thread_siblings(int cpu) {
    const std::string dir = cpu_path(cpu) + "/topology";
    if (auto s = topo::read_set(fs_, dir + "/core_cpus_list", dir + "/core_cpus")) return s;
    return topo::read_set(fs_, dir + "/thread_siblings_list", dir + "/thread_siblings");
  }

  void read_nodes() {
    std::vector<std::vector<int>> raw_rows;
    for (const auto& name : fs_.list(kNodeDir)) {
      const int id = topo::suffix_id(name, "node");
      if (id < 0) continue;
      Node n{.id = id};
      const std::string dir = node_path(id);
      if (auto cpus = topo::read_set(fs_, dir + "/cpulist", dir + "/cpumap"))
        n.cpus = *cpus;
      else
        note("node" + std::to_string(id) + ": no cpulist or cpumap; processors taken from cpu*/node links");
      n.memory_bytes = read_node_memory(dir + "/meminfo");
      if (t_.detail_ == Detail::full) n.hugepages = read_hugepages(dir + "/hugepages");
      t_.nodes_.push_back(std::move(n));
    }
    std::sort(t_.nodes_.begin(), t_.nodes_.end(), [](auto& a, auto& b) { return a.id < b.id; });
    assign_node_cpus();
    attach_unassigned_processors();
    read_distances();
  }

  std::uint64_t read_node_memory(const std::string& rel) { return os::read_meminfo(fs_, rel, "MemTotal").value_or(0); }

  std::vector<HugePages> read_hugepages(const std::string& dir) {
    std::vector<HugePages> out;
    for (const auto& name : fs_.list(dir)) {
      if (name.rfind("hugepages-", 0) != 0) continue;
      auto size = topo::parse_size(std::string_view(name).substr(10));
      if (!size) continue;
      out.push_back(
          {.page_bytes = *size,
           .total = static_cast<std::uint64_t>(topo::read_int(fs_, dir + "/" + name + "/nr_hugepages").value_or(0)),
           .free = static_cast<std::uint64_t>(topo::read_int(fs_, dir + "/" + name + "/free_hugepages").value_or(0))});
    }
    std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.page_bytes < b.page_bytes; });
    return out;
  }

  // Buggy firmware tables (and some heterogeneous-memory kernels) list a
  // processor in two nodes. Refusing would leave the machine unusable; like
  // hwloc, the first node (lowest id) keeps it and the conflict is a note.
  void assign_node_cpus() {
    for (auto& n : t_.nodes_) {
      CpuSet claimed_elsewhere;
      for (int cpu : n.cpus) {
        if (!known(cpu)) continue;  // a possible-but-absent processor
        Processor& p = proc(cpu);
        if (p.node >= 0) {
          note("processor " + std::to_string(cpu) + " is listed in both node" + std::to_string(p.node) + " and node" +
               std::to_string(n.id) + "; kept in node" + std::to_string(p.node));
          claimed_elsewhere.set(cpu);
          continue;
        }
        p.node = n.id;
      }
      n.cpus = n.cpus - claimed_elsewhere;
    }
  }

  Node& node_ref(int id) {
    auto it = std::lower_bound(t_.nodes_.begin(), t_.nodes_.end(), id, [](const Node& n, int v) { return n.id < v; });
    if (it == t_.nodes_.end() || it->id != id) {
      note("node" + std::to_string(id) + ": no directory; known only from processor links, memory taken as 0");
      it = t_.nodes_.insert(it, Node{.id = id});
    }
    return *it;
  }

  // Processors no node claims: the kernel's cpuN/nodeM link says where they
  // are (it survives when the node's own directory does not, and for offline
  // processors); with no node information at all the machine is one node.
  void attach_unassigned_processors() {
    std::vector<int> orphans;
    for (const auto& p : t_.processors_)
      if (p.node < 0) orphans.push_back(p.id);
    if (orphans.empty()) return;
    if (t_.nodes_.empty() && !fs_.is_dir(kNodeDir)) {
      Node n{.id = 0, .memory_bytes = read_node_memory("/proc/meminfo")};
      for (auto& p : t_.processors_) {
        n.cpus.set(p.id);
        p.node = 0;
      }
      t_.nodes_.push_back(std::move(n));
      return;
    }
    for (int cpu : orphans) {
      for (const auto& name : fs_.list(cpu_path(cpu))) {
        if (int id = topo::suffix_id(name, "node"); id >= 0) {
          node_ref(id).cpus.set(cpu);
          proc(cpu).node = id;
          break;
        }
      }
      if (proc(cpu).node < 0 && proc(cpu).online) {
        if (t_.nodes_.empty()) t_.nodes_.push_back(Node{.id = 0, .memory_bytes = read_node_memory("/proc/meminfo")});
        Node& first = t_.nodes_.front();
        note("cpu" + std::to_string(cpu) + ": no node lists it; placed in node" + std::to_string(first.id));
        first.cpus.set(cpu);
        proc(cpu).node = first.id;
      }
    }
  }

  // A node's distance file lists one entry per node the kernel knows, in id
  // order. When the files are missing or disagree in length with the nodes we
  // found, rows are completed by symmetry and the defaults 10 (local) / 20.
  void read_distances() {
    const std::size_t n = t_.nodes_.size();
    if (n == 1) {  // a node's distance to itself is by definition the local 10
      t_.nodes_[0].distances = {kLocalDistance};
      return;
    }
    std::vector<int> ids;
    for (const auto& node : t_.nodes_) ids.push_back(node.id);
    std::vector<std::vector<int>> d(n, std::vector<int>(n, -1));
    std::optional<std::vector<int>> kernel_ids;  // read only when a row's length asks for it
    bool complete = true;
    for (std::size_t i = 0; i < n; ++i) {
      const std::string rel = node_path(ids[i]) + "/distance";
      auto text = fs_.read(rel);
      if (!text) {
        complete = false;
        continue;
      }
      std::vector<int> row = parse_distance_row(rel, *text);
      if (row.size() != n && !kernel_ids) kernel_ids = kernel_node_ids(ids);
      const std::vector<int>& columns = row.size() == n ? ids : *kernel_ids;
      if (row.size() != columns.size()) {
        note(fs_.path(rel) + ": " + std::to_string(row.size()) + " entries for " + std::to_string(n) +
             " nodes; ignored");
        complete = false;
        continue;
      }
      for (std::size_t c = 0; c < columns.size(); ++c) {
        auto it = std::find(ids.begin(), ids.end(), columns[c]);
        if (it != ids.end()) d[i][static_cast<std::size_t>(it - ids.begin())] = row[c];
      }
    }
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        if (d[i][j] < 0) {
          complete = false;
          d[i][j] = d[j][i] >= 0 ? d[j][i] : (i == j ? kLocalDistance : kRemoteDistance);
        }
    if (!complete && n > 1) note("node distances incomplete; completed by symmetry and the defaults 10/20");
    for (std::size_t i = 0; i < n; ++i) t_.nodes_[i].distances = std::move(d[i]);
  }

  // The node ids a distance row's columns stand for: node/possible, else node/online.
  std::vector<int> kernel_node_ids(const std::vector<int>& fallback) {
    for (const char* file : {"/possible", "/online"})
      if (auto text = fs_.read(kNodeDir + file)) return topo::parse_set_in(fs_, kNodeDir + file, *text, true).ids();
    return fallback;
  }

  std::vector<int> parse_distance_row(const std::string& rel, const std::string& text) {
    std::vector<int> row;
    std::istringstream in(text);
    for (std::string tok; in >> tok;) {
      char* end = nullptr;
      const long v = std::strtol(tok.c_str(), &end, 10);
      if (*end != '\0' || v < 0 || v > 255) throw input_error(fs_.path(rel) + ": bad distance \"" + tok + "\"");
      row.push_back(static_cast<int>(v));
    }
    return row;
  }

  // On the live machine the kernel already confines our affinity mask and
  // memory policy to the cgroup's cpuset, so two system calls replace
  // /proc/mounts and the cgroup files. The mask is the one from before ULIBC
  // bound this thread — unless an OpenMP runtime was told to bind (it has
  // bound the initial thread to its first place at start-up) or an MPI
  // launcher started us as one of several ranks (it may have bound each to a
  // core or a socket): then the mask says where they put us, and only the
  // cgroup says what the process may use, the same for every rank, which
  // then takes its share (ulibc/rank_share.hpp). A snapshot has only the files.
  // What says an OpenMP runtime or an MPI launcher may have bound this process (a variable), "" if nothing.
  static std::string outside_binder() {
    if (const auto vars = config::openmp_binding_settings(); !vars.empty()) return vars.front();
    if (config::launcher_local_rank()) return "an MPI launcher's local rank";
    return "";
  }

  void read_allowed() {
    CpuSet allowed = t_.online();
    std::optional<NodeSet> mems;
    if (fs_.is_live()) {
      if (const std::string binder = outside_binder(); binder.empty()) {
        allowed = allowed & os::affinity_before_binding();
      } else {
        if (const auto limits = topo::read_cgroup_limits(fs_, t_.notes_); limits.cpus) allowed = allowed & *limits.cpus;
        note(binder +
             " is set: allowed processors come from the cgroup cpuset, not from the thread's mask "
             "(the OpenMP runtime or the MPI launcher may have bound it); a taskset restriction is not seen");
      }
      mems = os::allowed_memory_nodes();
    } else {
      const auto limits = topo::read_cgroup_limits(fs_, t_.notes_);
      if (limits.cpus) allowed = allowed & *limits.cpus;
      mems = limits.mems;
    }
    for (auto& p : t_.processors_) p.allowed = allowed.test(p.id);
    if (allowed.empty()) note("no processor is both online and allowed");
    for (auto& n : t_.nodes_) n.allowed = !mems || mems->test(n.id);
  }

  // Processors sharing a cache are read once: a processor already covered by
  // a cache of the same index is skipped, so a large machine costs a few
  // reads per cache instead of per processor.
  void read_caches() {
    struct Seen {
      int index;
      int level;
      std::string type;
      CpuSet cpus;
    };
    std::vector<Seen> seen;
    std::vector<int> indices;
    for (const auto& p : t_.processors_) {
      if (!p.online) continue;
      const std::string dir = cpu_path(p.id) + "/cache";
      if (indices.empty())
        for (const auto& name : fs_.list(dir))
          if (int k = topo::suffix_id(name, "index"); k >= 0) indices.push_back(k);
      for (int k : indices) {
        if (std::any_of(seen.begin(), seen.end(), [&](const Seen& s) { return s.index == k && s.cpus.test(p.id); }))
          continue;
        const std::string idx = dir + "/index" + std::to_string(k);
        const auto level = topo::read_int(fs_, idx + "/level");
        if (!level) continue;
        Cache c{.level = static_cast<int>(*level)};
        if (auto type = fs_.read(idx + "/type")) c.type = type->substr(0, type->find('\n'));
        if (auto size = fs_.read(idx + "/size")) c.size_bytes = topo::parse_size(*size).value_or(0);
        c.cpus = topo::read_set(fs_, idx + "/shared_cpu_list", idx + "/shared_cpu_map").value_or(CpuSet{p.id});
        c.cpus.set(p.id);
        seen.push_back({k, c.level, c.type, c.cpus});
        t_.caches_.push_back(std::move(c));
      }
    }
    std::sort(t_.caches_.begin(), t_.caches_.end(), [](const Cache& a, const Cache& b) {
      return std::make_tuple(a.level, a.type, a.cpus.first()) < std::make_tuple(b.level, b.type, b.cpus.first());
    });
  }

  void collect_packages() {
    std::map<int, CpuSet> packages;
    for (const auto& p : t_.processors_)
      if (p.package >= 0) packages[p.package].set(p.id);
    for (auto& [id, cpus] : packages) t_.packages_.push_back({.id = id, .cpus = std::move(cpus)});
  }

  os::FsRoot fs_;
  Topology t_;
  std::vector<int> index_;  // processor id → position in t_.processors_, -1 if absent
};

Topology Topology::load(const std::string& fsroot, Detail detail) {
  return TopologyBuilder(fsroot.empty() ? config::fsroot().value_or("") : fsroot, detail).build();
}

const Processor* Topology::processor(int id) const {
  auto it =
      std::lower_bound(processors_.begin(), processors_.end(), id, [](const Processor& p, int v) { return p.id < v; });
  return it != processors_.end() && it->id == id ? &*it : nullptr;
}

const Node* Topology::node(int id) const {
  auto it = std::lower_bound(nodes_.begin(), nodes_.end(), id, [](const Node& n, int v) { return n.id < v; });
  return it != nodes_.end() && it->id == id ? &*it : nullptr;
}

int Topology::distance(int from_node, int to_node) const {
  const Node* from = node(from_node);
  const Node* to = node(to_node);
  if (!from || !to) return -1;
  return from->distances[static_cast<std::size_t>(to - nodes_.data())];
}

namespace {
template <class Pred>
CpuSet select(const std::vector<Processor>& ps, Pred pred) {
  CpuSet s;
  for (const auto& p : ps)
    if (pred(p)) s.set(p.id);
  return s;
}
}  // namespace

CpuSet Topology::all() const {
  return select(processors_, [](auto&) { return true; });
}
CpuSet Topology::online() const {
  return select(processors_, [](auto& p) { return p.online; });
}
CpuSet Topology::allowed() const {
  return select(processors_, [](auto& p) { return p.allowed; });
}
CpuSet Topology::usable() const {
  return select(processors_, [](auto& p) { return p.usable(); });
}

Topology Topology::restricted_to(const CpuSet& cpus) const {
  Topology narrowed = *this;
  for (Processor& p : narrowed.processors_) p.allowed = p.allowed && cpus.test(p.id);
  return narrowed;
}

}  // namespace ulibc
