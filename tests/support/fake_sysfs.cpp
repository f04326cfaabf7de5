// fake_sysfs.cpp — writes a synthetic sysfs/procfs tree from a description.
#include "fake_sysfs.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace ulibc::testing {

namespace {

void put(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text << '\n';
}

// The kernel's hex cpumap: 32-bit words, most significant first.
std::string to_mask(const CpuSet& s) {
  const int words = std::max(1, s.last() / 32 + 1);
  std::string out;
  char buf[16];
  for (int w = words - 1; w >= 0; --w) {
    unsigned bits = 0;
    for (int b = 0; b < 32; ++b)
      if (s.test(w * 32 + b)) bits |= 1u << b;
    std::snprintf(buf, sizeof buf, "%08x", bits);
    out += buf;
    if (w) out += ',';
  }
  return out;
}

// Writes "<base>_list" and "<base>" (or only the mask, as old kernels do).
void put_set(const fs::path& dir, const std::string& list_name, const std::string& mask_name, const CpuSet& s,
             bool with_list) {
  if (with_list) put(dir / list_name, s.to_list());
  put(dir / mask_name, to_mask(s));
}

}  // namespace

int FakeMachine::total_processors() const { return packages * cores_per_package * smt; }

int FakeMachine::processor_id(int package, int core, int smt_rank) const {
  const int global_core = package * cores_per_package + core;
  return numbering == Numbering::smt_last ? global_core + packages * cores_per_package * smt_rank
                                          : global_core * smt + smt_rank;
}

int FakeMachine::node_index_of(int package, int core) const {
  if (packages_per_node > 1) return package / packages_per_node;
  return package * nodes_per_package + core / (cores_per_package / nodes_per_package);
}

std::string write_fake_sysfs(const FakeMachine& m, const std::string& root) {
  if (m.nodes_per_package > 1 && m.packages_per_node > 1)
    throw std::invalid_argument("FakeMachine: nodes_per_package and packages_per_node are exclusive");
  const fs::path sys = fs::path(root) / "sys/devices/system";
  const int nnodes = m.packages_per_node > 1 ? m.packages / m.packages_per_node : m.packages * m.nodes_per_package;
  auto node_id = [&](int index) { return m.node_ids.empty() ? index : m.node_ids.at(static_cast<std::size_t>(index)); };

  CpuSet all, online;
  std::vector<CpuSet> node_cpus(static_cast<std::size_t>(nnodes));
  for (int p = 0; p < m.packages; ++p) {
    CpuSet package_cpus;
    for (int c = 0; c < m.cores_per_package; ++c)
      for (int t = 0; t < m.smt; ++t) package_cpus.set(m.processor_id(p, c, t));
    for (int c = 0; c < m.cores_per_package; ++c) {
      CpuSet siblings;
      for (int t = 0; t < m.smt; ++t) siblings.set(m.processor_id(p, c, t));
      for (int t = 0; t < m.smt; ++t) {
        const int id = m.processor_id(p, c, t);
        all.set(id);
        node_cpus[static_cast<std::size_t>(m.node_index_of(p, c))].set(id);
        const fs::path cpu = sys / "cpu" / ("cpu" + std::to_string(id));
        const bool up = !m.offline.test(id);
        if (up) online.set(id);
        if (id != 0 || !up) put(cpu / "online", up ? "1" : "0");
        if (!up) continue;  // the kernel removes an offline processor's topology directory
        const fs::path topo = cpu / "topology";
        put(topo / "physical_package_id", m.package_id_unknown ? "-1" : std::to_string(p));
        put(topo / "core_id", std::to_string(m.core_id_period > 0 ? c % m.core_id_period : c));
        put_set(topo, "thread_siblings_list", "thread_siblings", siblings - m.offline, m.write_cpulist);
        put_set(topo, "core_siblings_list", "core_siblings", package_cpus - m.offline, m.write_cpulist);
      }
    }
  }
  if (m.write_online_file) {
    put(sys / "cpu/online", online.to_list());
    put(sys / "cpu/possible", all.to_list());
    put(sys / "cpu/present", all.to_list());
  }

  if (m.write_node_dir) {
    CpuSet ids;
    for (int n = 0; n < nnodes; ++n) {
      const fs::path dir = sys / "node" / ("node" + std::to_string(node_id(n)));
      ids.set(node_id(n));
      put_set(dir, "cpulist", "cpumap", node_cpus[static_cast<std::size_t>(n)], m.write_cpulist);
      const std::uint64_t kb = m.memoryless_nodes.test(n) ? 0 : m.node_memory_bytes >> 10;
      put(dir / "meminfo", "Node " + std::to_string(node_id(n)) + " MemTotal:       " + std::to_string(kb) + " kB");
      std::string row;
      for (int o = 0; o < nnodes; ++o) {
        const int d = !m.distances.empty() ? m.distances[static_cast<std::size_t>(n)][static_cast<std::size_t>(o)]
                      : o == n             ? 10
                                           : m.remote_distance;
        row += (o ? " " : "") + std::to_string(d);
      }
      put(dir / "distance", row);
      put(dir / "hugepages/hugepages-2048kB/nr_hugepages", "0");
      put(dir / "hugepages/hugepages-2048kB/free_hugepages", "0");
    }
    put(sys / "node/online", ids.to_list());
    put(sys / "node/possible", ids.to_list());
  }
  put(fs::path(root) / "proc/meminfo",
      "MemTotal:       " + std::to_string(nnodes * (m.node_memory_bytes >> 10)) + " kB");

  if (m.cpuset) {
    const std::string cpus = m.cpuset->to_list();
    switch (m.cgroup) {
      case CgroupFlavor::legacy_cpuset:
        put(fs::path(root) / "proc/mounts", "none /dev/cpuset cpuset rw 0 0");
        put(fs::path(root) / "proc/self/cpuset", "/job");
        put(fs::path(root) / "dev/cpuset/job/cpus", cpus);
        break;
      case CgroupFlavor::v1:
        put(fs::path(root) / "proc/mounts", "cgroup /sys/fs/cgroup/cpuset cgroup rw,nosuid,cpuset 0 0");
        put(fs::path(root) / "proc/self/cgroup", "4:cpuset:/job");
        put(fs::path(root) / "sys/fs/cgroup/cpuset/job/cpuset.cpus", cpus);
        break;
      case CgroupFlavor::v1_noprefix:
        put(fs::path(root) / "proc/mounts",
            "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime 0 0\n"
            "cpuset /srv/batch/cpusets cgroup rw,relatime,cpuset,noprefix 0 0\n");
        put(fs::path(root) / "proc/self/cpuset", "/job/step\n");
        put(fs::path(root) / "proc/self/cgroup", "0::/user.slice\n");
        put(fs::path(root) / "srv/batch/cpusets/job/step/cpus", cpus);
        put(fs::path(root) / "srv/batch/cpusets/job/step/mems", "0");
        break;
      case CgroupFlavor::v2:
        // The job's own group has no cpuset controller: the limit is its parent's.
        put(fs::path(root) / "proc/mounts", "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid 0 0");
        put(fs::path(root) / "proc/self/cgroup", "0::/batch/job/step");
        put(fs::path(root) / "sys/fs/cgroup/batch/job/cpuset.cpus.effective", cpus);
        fs::create_directories(fs::path(root) / "sys/fs/cgroup/batch/job/step");
        break;
    }
  }
  return root;
}

namespace {

// Memory-backed when possible: tests write thousands of small files, which
// costs seconds on a disk and milliseconds on tmpfs.
fs::path scratch_base() {
  if (const char* env = std::getenv("TMPDIR"); env && *env) return env;
  if (::access("/dev/shm", W_OK) == 0) return "/dev/shm";
  return fs::temp_directory_path();
}

}  // namespace

TempDir::TempDir() {
  std::string templ = (scratch_base() / "ulibc-test-XXXXXX").string();
  if (!::mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
  path_ = templ;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

Topology load_fake(const FakeMachine& m) {
  TempDir dir;
  return Topology::load(write_fake_sysfs(m, dir.path()));
}

const Topology& four_nodes() {
  static const Topology topo = load_fake(kFourNodes);
  return topo;
}

}  // namespace ulibc::testing
