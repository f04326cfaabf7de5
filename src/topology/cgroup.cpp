// topology/cgroup.cpp — the cpuset a batch scheduler or container confines us to.
#include "topology/cgroup.hpp"

#include <sstream>

#include "topology/sysfs_values.hpp"

namespace ulibc::topo {

namespace {

enum class Flavor { legacy_cpuset, v1, v2 };

struct Mount {
  Flavor flavor;
  std::string dir;
  // v1 names its files cpuset.cpus, cpuset.mems, … unless mounted with
  // `noprefix` (what the legacy cpuset filesystem always did): cpus, mems.
  std::string prefix;
};

bool has_option(const std::string& options, const std::string& want) {
  std::stringstream ss(options);
  for (std::string opt; std::getline(ss, opt, ',');)
    if (opt == want) return true;
  return false;
}

// The v1/legacy cpuset mount if there is one (it is the one that limits us),
// else the cgroup2 mount.
std::optional<Mount> find_cpuset_mount(const os::FsRoot& fs) {
  auto mounts = fs.read("/proc/mounts");
  if (!mounts) return std::nullopt;
  std::optional<Mount> v2;
  std::istringstream in(*mounts);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string dev, dir, type, options;
    if (!(fields >> dev >> dir >> type >> options)) continue;
    if (type == "cpuset") return Mount{Flavor::legacy_cpuset, dir, ""};
    if (type == "cgroup" && has_option(options, "cpuset"))
      return Mount{Flavor::v1, dir, has_option(options, "noprefix") ? "" : "cpuset."};
    if (type == "cgroup2" && !v2) v2 = Mount{Flavor::v2, dir, "cpuset."};
  }
  return v2;
}

// The group's path inside the hierarchy of `flavor`.
std::optional<std::string> group_path(const os::FsRoot& fs, Flavor flavor) {
  if (auto p = fs.read("/proc/self/cpuset")) {
    std::string path = p->substr(0, p->find('\n'));
    if (!path.empty() && path.front() == '/') return path;
  }
  auto cg = fs.read("/proc/self/cgroup");
  if (!cg) return std::nullopt;
  std::istringstream in(*cg);
  for (std::string line; std::getline(in, line);) {
    const auto c1 = line.find(':');
    const auto c2 = c1 == std::string::npos ? c1 : line.find(':', c1 + 1);
    if (c2 == std::string::npos) continue;
    const std::string controllers = line.substr(c1 + 1, c2 - c1 - 1);
    const bool match =
        flavor == Flavor::v2 ? line.compare(0, c1, "0") == 0 && controllers.empty() : has_option(controllers, "cpuset");
    if (match) return line.substr(c2 + 1);
  }
  return std::nullopt;
}

std::optional<CpuSet> read_list_file(const os::FsRoot& fs, const std::string& rel) {
  auto text = fs.read(rel);
  if (!text) return std::nullopt;
  return parse_set_in(fs, rel, *text, true);
}

std::string parent_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

}  // namespace

CgroupLimits read_cgroup_limits(const os::FsRoot& fs, std::vector<std::string>& notes) {
  CgroupLimits out;
  const auto mount = find_cpuset_mount(fs);
  if (!mount) return out;
  const auto group = group_path(fs, mount->flavor);
  if (!group) return out;
  std::string dir = mount->dir == "/" ? "" : mount->dir;

  switch (mount->flavor) {
    case Flavor::legacy_cpuset:
      out.cpus = read_list_file(fs, dir + *group + "/cpus");
      out.mems = read_list_file(fs, dir + *group + "/mems");
      break;
    case Flavor::v1: {
      const std::string base = dir + *group + "/" + mount->prefix;
      out.cpus = read_list_file(fs, base + "effective_cpus");
      if (!out.cpus) out.cpus = read_list_file(fs, base + "cpus");
      out.mems = read_list_file(fs, base + "effective_mems");
      if (!out.mems) out.mems = read_list_file(fs, base + "mems");
      break;
    }
    case Flavor::v2:
      // A group without the cpuset controller inherits its nearest ancestor's set.
      for (std::string g = *group;; g = parent_of(g)) {
        const std::string base = dir + (g == "/" ? "" : g);
        out.cpus = read_list_file(fs, base + "/cpuset.cpus.effective");
        out.mems = read_list_file(fs, base + "/cpuset.mems.effective");
        if (out.cpus || g == "/") break;
      }
      break;
  }
  if (out.cpus && out.cpus->empty()) {
    notes.push_back("cgroup cpuset of " + *group + " is empty; ignored");
    out.cpus.reset();
  }
  if (out.mems && out.mems->empty()) out.mems.reset();
  return out;
}

}  // namespace ulibc::topo
