// topology/discover.cpp — builds a Topology from sysfs/procfs below a root.
//
// Order matters: processors first (ids, online, package/core), then nodes
// (which may have to look at processors' node links), then what we are
// allowed to use, then caches (read only for online processors).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <sstream>
#include <string>
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
    cpu_ = fs_.dir(kCpuDir);
    if (!cpu_.is_open())
      throw input_error(fs_.path(kCpuDir) + ": missing; is " + fs_.root() + " a Linux sysfs/procfs root?");
    read_processors();
    read_nodes();
    read_allowed();
    if (t_.detail_ == Detail::full) read_caches();
    collect_packages();
    return std::move(t_);
  }

 private:
  Processor& proc(int id) { return t_.processors_[index_[id]]; }
  bool known(int id) const { return id >= 0 && static_cast<std::size_t>(id) < index_.size() && index_[id] >= 0; }
  void note(std::string s) { t_.notes_.push_back(std::move(s)); }

  void read_processors() {
    for (const auto& name : cpu_.list())
      if (int id = topo::suffix_id(name, "cpu"); id >= 0) t_.processors_.push_back(Processor{.id = id});
    if (t_.processors_.empty()) throw input_error(fs_.path(kCpuDir) + ": no cpuN directories");
    std::sort(t_.processors_.begin(), t_.processors_.end(), [](auto& a, auto& b) { return a.id < b.id; });
    index_.assign(static_cast<std::size_t>(t_.processors_.back().id) + 1, -1);
    for (std::size_t i = 0; i < t_.processors_.size(); ++i) index_[t_.processors_[i].id] = static_cast<int>(i);

    read_online();
    read_cores();
    number_packages_without_id();
    number_cores();
  }

  void read_online() {
    if (auto text = cpu_.read("online")) {
      const CpuSet online = topo::parse_set_at(cpu_.path("online"), *text, true);
      for (auto& p : t_.processors_) p.online = online.test(p.id);
      return;
    }
    // Old kernels: only the per-processor flag, absent for processors that cannot go offline.
    for (auto& p : t_.processors_)
      p.online = topo::read_int(cpu_, "cpu" + std::to_string(p.id) + "/online").value_or(1) != 0;
  }

  // A processor's package, core_id (and in full detail die and cluster) from
  // its topology directory; false when it has none.
  bool read_core_ids(Processor& p, const os::FsDir& dir) {
    const auto package = topo::read_int(dir, "physical_package_id");
    if (!package) return false;
    p.package = static_cast<int>(*package);
    p.core_id = static_cast<int>(topo::read_int(dir, "core_id").value_or(p.id));
    if (t_.detail_ == Detail::placement) return true;
    if (const auto die = die_id_.read(dir)) p.die = static_cast<int>(topo::parse_int_at(dir.path("die_id"), *die));
    if (const auto cluster = cluster_id_.read(dir))
      p.cluster = static_cast<int>(topo::parse_int_at(dir.path("cluster_id"), *cluster));
    return true;
  }

  // A core is the set of hardware threads the kernel lists in core_cpus
  // (thread_siblings before 5.x), not the processors sharing (package,
  // core_id): on multi-die packages of kernels without die_id (AMD
  // Magny-Cours) core_id repeats in every die. A core's files are read once,
  // from its first online processor, and given to the siblings listed with
  // it, which share package, die, cluster and core_id: an SMT machine reads
  // a half or a quarter of the files. Without sibling files,
  // (package, core_id) is the best we have.
  void read_cores() {
    std::vector<int> group(index_.size(), -1);
    std::map<std::pair<int, int>, std::size_t> by_key;  // fallback grouping
    for (auto& p : t_.processors_) {
      if (group[p.id] >= 0) continue;
      const os::FsDir dir = cpu_.dir("cpu" + std::to_string(p.id) + "/topology");
      const bool has_ids = read_core_ids(p, dir);
      if (!p.online) continue;
      if (!has_ids) {
        note("cpu" + std::to_string(p.id) + ": no topology directory; taken as its own core");
        p.core_id = p.id;
      }
      const auto siblings = has_ids ? core_siblings_.read_set(dir) : std::nullopt;
      // Read here, while the directory is open, for number_packages_without_id.
      if (p.package < 0 && has_ids) package_sets_.emplace_back(p.id, package_siblings_.read_set(dir));
      const std::size_t g = cores_.size();
      if (siblings && siblings->test(p.id)) {
        cores_.emplace_back();
        for (int cpu : *siblings) {
          if (!known(cpu) || !proc(cpu).online || group[cpu] >= 0) continue;
          Processor& q = proc(cpu);
          std::tie(q.package, q.core_id, q.die, q.cluster) = std::tie(p.package, p.core_id, p.die, p.cluster);
          group[cpu] = static_cast<int>(g);
          cores_[g].push_back(cpu);
        }
        continue;
      }
      auto [it, inserted] = by_key.try_emplace({p.package, p.core_id}, g);
      if (inserted) cores_.emplace_back();
      group[p.id] = static_cast<int>(it->second);
      cores_[it->second].push_back(p.id);
    }
  }

  // Some kernels (POWER, old ARM) report physical_package_id -1. The set of
  // processors sharing a package (package_cpus / core_siblings) still tells
  // which processors belong together; number those groups after the real
  // ids. The sets were read with each core's files (read_cores); a core's
  // siblings, and the other cores of a set already met, need none.
  void number_packages_without_id() {
    int next_id = 0;
    for (const auto& p : t_.processors_) next_id = std::max(next_id, p.package + 1);
    std::vector<std::pair<CpuSet, int>> groups;  // sibling set → synthetic id, in order of first member
    int without_set = -1;                        // the id of the processors with no sibling set at all
    auto read_set = package_sets_.begin();
    for (auto& p : t_.processors_) {
      if (!p.online || p.package >= 0) continue;
      const auto found = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first.test(p.id); });
      if (found != groups.end()) {
        p.package = found->second;
        continue;
      }
      while (read_set != package_sets_.end() && read_set->first < p.id) ++read_set;
      const bool has_set = read_set != package_sets_.end() && read_set->first == p.id;
      const std::optional<CpuSet> siblings = has_set ? read_set->second : std::nullopt;
      if (siblings && !siblings->empty()) {
        groups.emplace_back(*siblings, next_id);
        p.package = next_id++;
        continue;
      }
      if (without_set < 0) without_set = next_id++;
      p.package = without_set;
    }
    if (!groups.empty() || without_set >= 0)
      note("physical_package_id is -1 (or missing); packages numbered from " +
           std::to_string(groups.empty() ? without_set : groups.front().second) + " by their sibling sets");
  }

  // Cores numbered machine-wide in (package, core_id, first processor) order;
  // each processor's SMT rank is its place among its core's online threads.
  void number_cores() {
    std::sort(cores_.begin(), cores_.end(), [&](const auto& a, const auto& b) {
      const Processor& x = proc(a.front());
      const Processor& y = proc(b.front());
      return std::tie(x.package, x.core_id, x.id) < std::tie(y.package, y.core_id, y.id);
    });
    for (std::size_t c = 0; c < cores_.size(); ++c)
      for (std::size_t rank = 0; rank < cores_[c].size(); ++rank) {
        proc(cores_[c][rank]).core = static_cast<int>(c);
        proc(cores_[c][rank]).smt = static_cast<int>(rank);
      }
  }

  void read_nodes() {
    node_ = fs_.dir(kNodeDir);
    for (const auto& name : node_.list()) {
      const int id = topo::suffix_id(name, "node");
      if (id < 0) continue;
      Node n{.id = id};
      const os::FsDir dir = node_.dir(name);
      if (auto cpus = node_cpus_.read_set(dir))
        n.cpus = *cpus;
      else
        note("node" + std::to_string(id) + ": no cpulist or cpumap; processors taken from cpu*/node links");
      if (const auto meminfo = dir.read("meminfo"))
        n.memory_bytes = os::meminfo_value(*meminfo, "MemTotal").value_or(0);
      if (t_.detail_ == Detail::full) n.hugepages = read_hugepages(dir);
      t_.nodes_.push_back(std::move(n));
    }
    std::sort(t_.nodes_.begin(), t_.nodes_.end(), [](auto& a, auto& b) { return a.id < b.id; });
    assign_node_cpus();
    attach_unassigned_processors();
    read_distances();
  }

  std::uint64_t read_node_memory(const std::string& rel) { return os::read_meminfo(fs_, rel, "MemTotal").value_or(0); }

  std::vector<HugePages> read_hugepages(const os::FsDir& node) {
    std::vector<HugePages> out;
    if (hugepages_absent_) return out;
    const os::FsDir dir = node.dir("hugepages");
    hugepages_absent_ = !dir.is_open() && t_.nodes_.empty();  // the kernel has none: not asked of other nodes
    for (const auto& name : dir.list()) {
      if (name.rfind("hugepages-", 0) != 0) continue;
      auto size = topo::parse_size(std::string_view(name).substr(10));
      if (!size) continue;
      out.push_back({.page_bytes = *size,
                     .total = static_cast<std::uint64_t>(topo::read_int(dir, name + "/nr_hugepages").value_or(0)),
                     .free = static_cast<std::uint64_t>(topo::read_int(dir, name + "/free_hugepages").value_or(0))});
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
    if (t_.nodes_.empty() && !node_.is_open()) {
      Node n{.id = 0, .memory_bytes = read_node_memory("/proc/meminfo")};
      for (auto& p : t_.processors_) {
        n.cpus.set(p.id);
        p.node = 0;
      }
      t_.nodes_.push_back(std::move(n));
      return;
    }
    for (int cpu : orphans) {
      for (const auto& name : cpu_.dir("cpu" + std::to_string(cpu)).list()) {
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
      const std::string rel = "node" + std::to_string(ids[i]) + "/distance";
      auto text = node_.read(rel);
      if (!text) {
        complete = false;
        continue;
      }
      std::vector<int> row = parse_distance_row(rel, *text);
      if (row.size() != n && !kernel_ids) kernel_ids = kernel_node_ids(ids);
      const std::vector<int>& columns = row.size() == n ? ids : *kernel_ids;
      if (row.size() != columns.size()) {
        note(node_.path(rel) + ": " + std::to_string(row.size()) + " entries for " + std::to_string(n) +
             " nodes; ignored");
        complete = false;
        continue;
      }
      for (std::size_t c = 0; c < columns.size(); ++c) {
        auto it = std::find(ids.begin(), ids.end(), columns[c]);
        if (it != ids.end()) d[i][it - ids.begin()] = row[c];
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
    for (const char* file : {"possible", "online"})
      if (auto text = node_.read(file)) return topo::parse_set_at(node_.path(file), *text, true).ids();
    return fallback;
  }

  std::vector<int> parse_distance_row(const std::string& rel, const std::string& text) {
    std::vector<int> row;
    std::istringstream in(text);
    for (std::string tok; in >> tok;) {
      char* end = nullptr;
      const long v = std::strtol(tok.c_str(), &end, 10);
      if (*end != '\0' || v < 0 || v > 255) throw input_error(node_.path(rel) + ": bad distance \"" + tok + "\"");
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
        CpuSet mask;
        if (const int err = os::affinity_before_binding(mask))
          throw system_error(std::string("sched_getaffinity: ") + std::strerror(err));
        allowed = allowed & mask;
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

  // A cache is read once, from the first processor it serves: a processor
  // already covered by a cache of the same index is skipped, so a large
  // machine costs a few reads per cache instead of per processor. Of a
  // cache, its size and sharing are read; its level and type are those of the
  // first cache read at the same index when the size is that cache's too.
  // The kernel numbers a processor's caches in a fixed order (x86: CPUID's
  // L1d, L1i, L2, L3; device trees: each level's data, then instruction, then
  // unified cache), so index k is the same kind of cache on every processor;
  // a size that differs (the efficiency cores of a hybrid part) has both
  // read again. That halves the files of a large machine's caches.
  void read_caches() {
    std::vector<int> indices;
    std::vector<CpuSet> covered;              // by position in indices: processors whose cache is read
    std::vector<std::optional<Cache>> first;  // by position in indices: the first cache read there
    for (const auto& p : t_.processors_) {
      if (!p.online) continue;
      const std::string cpu = "cpu" + std::to_string(p.id) + "/cache";
      if (indices.empty()) {
        for (const auto& name : cpu_.dir(cpu).list())
          if (int k = topo::suffix_id(name, "index"); k >= 0) indices.push_back(k);
        std::sort(indices.begin(), indices.end());
        covered.assign(indices.size(), CpuSet{});
        first.assign(indices.size(), std::nullopt);
      }
      for (std::size_t i = 0; i < indices.size(); ++i) {
        if (covered[i].test(p.id)) continue;
        const std::string dir = cpu + "/index" + std::to_string(indices[i]) + "/";
        auto c = read_cache(dir, first[i]);
        if (!c) continue;
        c->cpus = cache_cpus_.read_set(cpu_, dir).value_or(CpuSet{p.id});
        c->cpus.set(p.id);
        covered[i] = covered[i] | c->cpus;
        if (!first[i]) first[i] = *c;
        t_.caches_.push_back(std::move(*c));
      }
    }
    std::sort(t_.caches_.begin(), t_.caches_.end(), [](const Cache& a, const Cache& b) {
      return std::make_tuple(a.level, a.type, a.cpus.first()) < std::make_tuple(b.level, b.type, b.cpus.first());
    });
  }

  // The level, type and size of the cache in `dir` (a path in cpu_ ending in
  // '/'); nullopt when it has no level (or no directory).
  std::optional<Cache> read_cache(const std::string& dir, const std::optional<Cache>& same_index) {
    const auto size_text = cpu_.read(dir + "size");
    const std::uint64_t size = size_text ? topo::parse_size(*size_text).value_or(0) : 0;
    if (same_index && size > 0 && size == same_index->size_bytes)
      return Cache{.level = same_index->level, .type = same_index->type, .size_bytes = size};
    const auto level = topo::read_int(cpu_, dir + "level");
    if (!level) return std::nullopt;
    Cache c{.level = static_cast<int>(*level), .size_bytes = size};
    if (auto type = cpu_.read(dir + "type")) c.type = type->substr(0, type->find('\n'));
    return c;
  }

  void collect_packages() {
    std::map<int, CpuSet> packages;
    for (const auto& p : t_.processors_)
      if (p.package >= 0) packages[p.package].set(p.id);
    for (auto& [id, cpus] : packages) t_.packages_.push_back({.id = id, .cpus = std::move(cpus)});
  }

  using Alternatives = topo::Alternatives;
  os::FsRoot fs_;
  os::FsDir cpu_;   // /sys/devices/system/cpu
  os::FsDir node_;  // /sys/devices/system/node; not open on kernels without NUMA
  Topology t_;
  std::vector<int> index_;               // processor id → position in t_.processors_, -1 if absent
  std::vector<std::vector<int>> cores_;  // online members of each core, ascending ids
  // The package sibling sets of the first processor of each core without a package id, by processor id.
  std::vector<std::pair<int, std::optional<CpuSet>>> package_sets_;
  Alternatives die_id_{{{"die_id", false}}};
  Alternatives cluster_id_{{{"cluster_id", false}}};
  Alternatives core_siblings_{
      {{"core_cpus_list"}, {"core_cpus", false}, {"thread_siblings_list"}, {"thread_siblings", false}}};
  Alternatives package_siblings_{
      {{"package_cpus_list"}, {"package_cpus", false}, {"core_siblings_list"}, {"core_siblings", false}}};
  Alternatives node_cpus_{{{"cpulist"}, {"cpumap", false}}};
  // The map before the list, as hwloc reads them: the kernel writes both from one mask, but the 64fake
  // snapshot of hwloc's suite carries lists that disagree with its maps, and hwloc is the oracle.
  Alternatives cache_cpus_{{{"shared_cpu_map", false}, {"shared_cpu_list"}}};
  bool hugepages_absent_ = false;
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
  return from->distances[to - nodes_.data()];
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
