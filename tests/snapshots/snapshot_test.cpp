// snapshot_test.cpp — ULIBC's reading of real machines checked against hwloc's.
//
// Each snapshot (a sysfs/procfs tarball from hwloc's test suite) is extracted
// once, loaded with Topology::load(root), and read by hwloc's lstopo through
// hwloc_oracle.py, which turns hwloc's XML into a small JSON. For every
// processor hwloc reports, ULIBC must agree on package, core and NUMA node;
// the online and allowed sets, the node set and node memory must agree too.
// Where ULIBC differs on purpose, kSnapshots names the difference and why, and
// the test checks that the difference is really there (a stale entry fails).
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "fake_sysfs.hpp"
#include "scoped_env.hpp"
#include "ulibc/apic.hpp"
#include "ulibc/cpuset.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/rank_share.hpp"
#include "ulibc/topology.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ulibc::CpuSet;
using ulibc::Detail;
using ulibc::Policy;
using ulibc::PolicyKind;
using ulibc::rank_shares;
using ulibc::RankShares;
using ulibc::Topology;
using ulibc::testing::ScopedEnv;
using ulibc::testing::TempDir;

// ---- the snapshots, and where ULIBC differs from hwloc on purpose ----------

enum class Difference {
  // The node has no sysfs directory, yet processors link to it (cpuN/nodeM).
  // hwloc drops the node and leaves those processors without one; ULIBC keeps
  // it, memory 0, so that every online processor has a node to be placed by.
  node_without_directory,
  // A memory node without processors (HBM, NVM, CXL tiers). hwloc attaches it
  // to the processors it is local to and gives it their cpuset; ULIBC reports
  // the kernel's empty cpulist, and those processors keep their one CPU node.
  cpuless_node,
};

struct ExpectedDifference {
  Difference kind;
  int node;
  const char* reason;
};

struct Snapshot {
  const char* name;  // the tarball's name without .tar.bz2
  std::vector<ExpectedDifference> differences;
  friend void PrintTo(const Snapshot& s, std::ostream* out) { *out << s.name; }
};

const char* const kNoDirReason =
    "node0 has no directory under /sys/devices/system/node but cpu4,6,…,20 link to it; "
    "ULIBC keeps it as a memory-less node, hwloc drops it and its processors' locality";
const char* const kCpulessReason =
    "CPU-less memory tier: the kernel's cpulist is empty, hwloc shows the cpuset of its initiators";

const std::vector<Snapshot> kSnapshots = {
    {"128arm-2pa2n8cluster4co", {}},
    {"16amd64-8n2c-cpusets", {}},
    {"16amd64-8n2c", {}},
    {"16em64t-4s2c2t-offlines", {}},
    {"16em64t-4s2c2t", {}},
    {"20em64t-hybrid-1p6c2t+2ca4co1t", {}},
    {"256ppc-8n8s4t", {}},
    {"2arm-2c", {}},
    {"2i386-2c-nohugepage", {}},
    {"32amd64-4s2n4c-cgroup2", {}},
    {"48amd64-4pa2n6c-sparse", {}},
    {"64fake-4n2s2ca2c2t", {}},
    // Read by the linux backend alone this snapshot is consistent. hwloc's
    // "invalid information ... intersection without inclusion" warning comes
    // from its x86 backend mixing the test machine's CPUID caches into it;
    // hwloc_oracle.py runs the linux backend only, and hwloc's stderr must be empty.
    {"8em64t-2s2ca2c", {}},
    {"96em64t-4no4pa3ca2co", {}},
    {"fakeheteromemtiers",
     {{Difference::cpuless_node, 4, kCpulessReason},
      {Difference::cpuless_node, 6, kCpulessReason},
      {Difference::cpuless_node, 8, kCpulessReason},
      {Difference::cpuless_node, 9, kCpulessReason}}},
    {"offline-cpu0-node0", {{Difference::node_without_directory, 0, kNoDirReason}}},
};

std::set<int> difference_nodes(const Snapshot& s, Difference kind) {
  std::set<int> out;
  for (const auto& d : s.differences)
    if (d.kind == kind) out.insert(d.node);
  return out;
}

// ---- shell commands, extraction, the oracle --------------------------------

const fs::path kFixtures = ULIBC_SNAPSHOT_DIR;
const std::string kLstopo = ULIBC_LSTOPO;
const std::string kOraclePython = ULIBC_ORACLE_PYTHON;
const std::string kOracleScript = ULIBC_ORACLE_SCRIPT;

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a shell command; its stdout, or an error naming the command and status.
std::string run(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("popen failed: " + command);
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  const int status = pclose(pipe);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(command + ": exit status " + std::to_string(status));
  return out;
}

// Extracts `tarball` into `dir` and returns the snapshot root: the tarball's
// single top-level directory, whose name need not match the file's
// (32amd64-4s2n4c-cgroup2.tar.bz2 holds 32amd64-4s2n4c-cgroup/).
fs::path extract(const fs::path& tarball, const fs::path& dir) {
  run("tar xjf " + quoted(tarball.string()) + " -C " + quoted(dir.string()));
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(dir)) entries.push_back(e.path());
  if (entries.size() != 1 || !fs::is_directory(entries.front()))
    throw std::runtime_error(tarball.string() + ": expected one top-level directory");
  return entries.front();
}

json hwloc_view(const fs::path& root) {
  return json::parse(
      run(quoted(kOraclePython) + " " + quoted(kOracleScript) + " " + quoted(kLstopo) + " " + quoted(root.string())));
}

// hwloc's sets arrive as kernel cpumaps; compared as cpulists, so that a
// failure prints "0-3,8" rather than bytes.
std::string mask(const json& j) { return CpuSet::parse_mask(j.get<std::string>()).to_list(); }

// Why a snapshot test cannot run here, or "" when it can.
std::string missing_prerequisite() {
  if (!fs::is_directory(kFixtures)) return "snapshot directory " + kFixtures.string() + " is absent";
  if (kLstopo.empty()) return "hwloc's lstopo-no-graphics was not found when configuring";
  if (!fs::exists(kOraclePython)) return kOraclePython + " (Debian's python3) is absent";
  return "";
}

// ---- the comparisons ----------------------------------------------------------

// Online processors of ULIBC that satisfy `same` (a package or core partition).
template <class Pred>
CpuSet online_where(const Topology& t, Pred same) {
  CpuSet out;
  for (const auto& p : t.processors())
    if (p.online && same(p)) out.set(p.id);
  return out;
}

void compare_package_and_core(const Topology& t, const ulibc::Processor& p, const json& pu) {
  // hwloc's Package os_index is physical_package_id; where the kernel says -1
  // (POWER) hwloc has none and only the partition can be compared.
  if (const int package = pu["package"]; package >= 0) {
    EXPECT_EQ(p.package, package) << "package";
  }
  EXPECT_EQ(online_where(t, [&](auto& q) { return q.package == p.package; }).to_list(), mask(pu["package_cpus"]))
      << "processors sharing package " << p.package;
  if (const int core = pu["core"]; core >= 0) {
    EXPECT_EQ(p.core_id, core) << "core_id";
  }
  // A core as the mapping ranks it: the processors with the same
  // Processor::core. On multi-die packages of kernels without die_id
  // (32amd64, 48amd64) core_id repeats in each die, so it cannot be the key.
  EXPECT_EQ(online_where(t, [&](auto& q) { return q.core == p.core; }).to_list(), mask(pu["core_cpus"]))
      << "processors sharing core " << p.core << " (core_id " << p.core_id << " of package " << p.package << ")";
  const std::vector<int> siblings = CpuSet::parse_mask(pu["core_cpus"].get<std::string>()).ids();
  const auto rank = std::find(siblings.begin(), siblings.end(), p.id) - siblings.begin();
  EXPECT_EQ(p.smt, rank) << "SMT rank among the hardware threads of hwloc's Core " << mask(pu["core_cpus"]);
}

// hwloc's nodes covering the PU, less CPU-less tiers, must be exactly ULIBC's
// node; with none left, ULIBC's node must be one hwloc drops on purpose.
void compare_processor_node(const ulibc::Processor& p, const json& pu, const Snapshot& s,
                            std::set<int>& processors_hwloc_left_without_node) {
  std::set<int> nodes = pu["nodes"].get<std::set<int>>();
  for (int cpuless : difference_nodes(s, Difference::cpuless_node)) nodes.erase(cpuless);
  if (nodes.empty()) {
    EXPECT_TRUE(difference_nodes(s, Difference::node_without_directory).contains(p.node))
        << "hwloc has no node for this processor, ULIBC says node " << p.node;
    processors_hwloc_left_without_node.insert(p.id);
    return;
  }
  EXPECT_EQ(nodes, std::set<int>{p.node}) << "NUMA node";
}

void compare_processors(const Topology& t, const json& hw, const Snapshot& s) {
  ASSERT_FALSE(hw["pus"].empty()) << "hwloc reports no processor";
  std::set<int> without_node;
  for (const auto& pu : hw["pus"]) {
    const int id = pu["id"];
    SCOPED_TRACE("processor " + std::to_string(id));
    const ulibc::Processor* p = t.processor(id);
    ASSERT_NE(p, nullptr) << "ULIBC does not know processor " << id;
    EXPECT_TRUE(p->online);
    compare_package_and_core(t, *p, pu);
    compare_processor_node(*p, pu, s, without_node);
  }
  // A node hwloc drops: ULIBC's processors of it are exactly those hwloc left without one.
  for (int node : difference_nodes(s, Difference::node_without_directory)) {
    const ulibc::Node* n = t.node(node);
    ASSERT_NE(n, nullptr) << "expected difference gone: ULIBC has no node " << node;
    CpuSet dropped;
    for (int cpu : without_node) dropped.set(cpu);
    EXPECT_EQ((n->cpus & t.online()).to_list(), dropped.to_list()) << "processors of node " << node;
    EXPECT_FALSE(dropped.empty()) << "expected difference gone: hwloc gives every processor a node";
  }
}

void compare_nodes(const Topology& t, const json& hw, const Snapshot& s) {
  const auto no_dir = difference_nodes(s, Difference::node_without_directory);
  const auto cpuless = difference_nodes(s, Difference::cpuless_node);
  std::set<int> ulibc_ids, hwloc_ids;
  for (const auto& n : t.nodes()) ulibc_ids.insert(n.id);
  for (const auto& n : hw["nodes"]) hwloc_ids.insert(n["id"].get<int>());
  for (int id : no_dir) {
    EXPECT_FALSE(hwloc_ids.contains(id)) << "expected difference gone: hwloc reports node " << id;
    hwloc_ids.insert(id);
    if (const ulibc::Node* n = t.node(id)) {
      EXPECT_EQ(n->memory_bytes, 0u) << "node " << id << " memory";
    }
  }
  for (int id : cpuless) EXPECT_TRUE(hwloc_ids.contains(id)) << "expected difference gone: hwloc has no node " << id;
  EXPECT_EQ(ulibc_ids, hwloc_ids) << "NUMA node ids";

  for (const auto& h : hw["nodes"]) {
    const int id = h["id"];
    const ulibc::Node* n = t.node(id);
    if (!n) continue;  // already reported by the id comparison
    SCOPED_TRACE("node " + std::to_string(id));
    EXPECT_EQ(n->memory_bytes, h["memory"].get<std::uint64_t>()) << "memory (MemTotal)";
    if (cpuless.contains(id)) {
      EXPECT_TRUE(n->cpus.empty()) << "ULIBC gives CPU-less node processors " << n->cpus.to_list();
      EXPECT_FALSE(mask(h["cpus"]).empty())
          << "expected difference gone: hwloc shows node " << id << " without locality";
    } else {
      EXPECT_EQ((n->cpus & t.online()).to_list(), mask(h["cpus"])) << "online processors of the node";
    }
  }
}

void compare_snapshot(const Topology& t, const json& hw, const Snapshot& s) {
  EXPECT_EQ(hw["warnings"].get<std::string>(), "") << "hwloc warned about the snapshot";
  EXPECT_EQ(t.online().to_list(), mask(hw["online"])) << "online processors (hwloc: root cpuset)";
  EXPECT_EQ(t.allowed().to_list(), mask(hw["allowed"])) << "allowed processors (hwloc: allowed_cpuset)";
  compare_processors(t, hw, s);
  compare_nodes(t, hw, s);
}

// ---- the tests -------------------------------------------------------------------

class SnapshotTest : public ::testing::TestWithParam<Snapshot> {};

TEST_P(SnapshotTest, AgreesWithHwloc) {
  const Snapshot& s = GetParam();
  if (const std::string why = missing_prerequisite(); !why.empty()) GTEST_SKIP() << why;
  for (const auto& d : s.differences) RecordProperty("difference_node" + std::to_string(d.node), d.reason);
  TempDir dir;
  const fs::path root = extract(kFixtures / (std::string(s.name) + ".tar.bz2"), dir.path());
  const Topology t = Topology::load(root.string());
  compare_snapshot(t, hwloc_view(root), s);
}

// The ranks' shares of every real machine: for rank counts around its nodes, cores and processors, under two
// policies, the shares split the usable processors; whole nodes (rule 1) and whole cores (rules 1 to 3) are
// never divided between ranks, and only more ranks than processors (rule 5) share one.
TEST_P(SnapshotTest, RankSharesSplitTheMachine) {
  const Snapshot& s = GetParam();
  if (!fs::is_directory(kFixtures)) GTEST_SKIP() << "snapshot directory " << kFixtures << " is absent";
  TempDir dir;
  const Topology t =
      Topology::load(extract(kFixtures / (std::string(s.name) + ".tar.bz2"), dir.path()).string(), Detail::placement);
  const CpuSet usable = t.usable();
  std::set<int> nodes, cores;
  for (int id : usable) {
    nodes.insert(t.processor(id)->node);
    cores.insert(t.processor(id)->core);
  }
  const int n = static_cast<int>(nodes.size()), c = static_cast<int>(cores.size()), p = usable.count();
  for (const Policy& policy : {Policy(PolicyKind::scatter), Policy(PolicyKind::compact)})
    for (int ranks : {1, 2, 3, 4, n, n + 1, c, c + 1, p, p + 1}) {
      SCOPED_TRACE(policy.name() + ", " + std::to_string(ranks) + " ranks");
      const RankShares shares = rank_shares(t, policy, ranks);
      ASSERT_EQ(static_cast<int>(shares.cpus.size()), ranks);
      CpuSet all;
      std::map<int, int> core_owner, node_owner;
      for (int r = 0; r < ranks; ++r) {
        const CpuSet& share = shares.cpus[static_cast<std::size_t>(r)];
        ASSERT_FALSE(share.empty());
        EXPECT_TRUE(usable.contains(share));
        if (!shares.shared()) {
          EXPECT_FALSE(share.intersects(all)) << "rank " << r << ": " << share.to_list();
        }
        all = all | share;
        for (int id : share) {
          if (shares.rule <= 3) {
            EXPECT_EQ(core_owner.try_emplace(t.processor(id)->core, r).first->second, r);
          }
          if (shares.rule == 1) {
            EXPECT_EQ(node_owner.try_emplace(t.processor(id)->node, r).first->second, r);
          }
        }
      }
      EXPECT_EQ(all, usable);
      EXPECT_EQ(shares.shared(), ranks > p);
    }
}

// The APIC ids of /proc/cpuinfo name the hardware the way x86 lays it out: distinct, a core's threads differing
// only in the low bits its thread count needs, each package a block of ids no other package enters. Other
// architectures (and kernels too old to print apicid) have no table, and say why.
TEST_P(SnapshotTest, ApicIdsNameCoresAndPackages) {
  const Snapshot& s = GetParam();
  if (!fs::is_directory(kFixtures)) GTEST_SKIP() << "snapshot directory " << kFixtures << " is absent";
  TempDir dir;
  const Topology t = Topology::load(extract(kFixtures / (std::string(s.name) + ".tar.bz2"), dir.path()).string());
  const ulibc::ApicTable apic = ulibc::read_apic_ids(t);
  const std::string name = s.name;
  if (name.find("arm") != std::string::npos || name.find("ppc") != std::string::npos) {
    EXPECT_EQ(apic.absent_reason, "not an x86 machine: its processors have no APIC ids");
    return;
  }
  if (!apic.available()) {
    EXPECT_FALSE(apic.absent_reason.empty());
    return;
  }
  std::set<std::uint32_t> seen;
  std::map<int, std::vector<std::uint32_t>> by_core, by_package;
  for (const ulibc::Processor& p : t.processors()) {
    if (!p.online) continue;
    const auto id = apic.of(p.id)->id();
    ASSERT_TRUE(id) << "online processor " << p.id << " has no apicid line";
    EXPECT_TRUE(seen.insert(*id).second) << "APIC id " << *id << " twice";
    by_core[p.core].push_back(*id);
    by_package[p.package].push_back(*id);
  }
  for (const auto& [core, ids] : by_core) {
    int bits = 0;
    while ((1u << bits) < ids.size()) ++bits;
    for (std::uint32_t id : ids) EXPECT_EQ(id >> bits, ids.front() >> bits) << "core " << core;
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> blocks;
  for (const auto& [package, ids] : by_package)
    blocks.emplace_back(*std::min_element(ids.begin(), ids.end()), *std::max_element(ids.begin(), ids.end()));
  std::sort(blocks.begin(), blocks.end());
  for (std::size_t i = 1; i < blocks.size(); ++i)
    EXPECT_GT(blocks[i].first, blocks[i - 1].second) << "two packages' APIC ids interleave";
}

// A real machine's table, read whole: the hybrid part's performance cores count by one, its efficiency cores
// (one thread each) by two.
TEST(SnapshotApic, HybridMachinesTable) {
  if (!fs::is_directory(kFixtures)) GTEST_SKIP() << "snapshot directory " << kFixtures << " is absent";
  TempDir dir;
  const Topology t = Topology::load(extract(kFixtures / "20em64t-hybrid-1p6c2t+2ca4co1t.tar.bz2", dir.path()).string());
  const ulibc::ApicTable apic = ulibc::read_apic_ids(t);
  std::vector<std::uint32_t> ids;
  for (const auto& e : apic.entries) ids.push_back(e.id().value_or(9999));
  EXPECT_EQ(ids,
            (std::vector<std::uint32_t>{0, 1, 8, 9, 16, 17, 24, 25, 32, 33, 40, 41, 48, 50, 52, 54, 56, 58, 60, 62}));
  EXPECT_EQ(apic.source, "/proc/cpuinfo apicid");
}

std::string test_name(const ::testing::TestParamInfo<Snapshot>& info) {
  std::string name = info.param.name;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(LinuxSysfs, SnapshotTest, ::testing::ValuesIn(kSnapshots), test_name);

// Every tarball in the fixtures directory has its entry above, so none goes untested.
TEST(SnapshotList, CoversEveryTarball) {
  if (!fs::is_directory(kFixtures)) GTEST_SKIP() << "snapshot directory " << kFixtures << " is absent";
  std::set<std::string> on_disk, listed;
  for (const auto& e : fs::directory_iterator(kFixtures)) {
    const std::string file = e.path().filename().string();
    if (file.ends_with(".tar.bz2")) on_disk.insert(file.substr(0, file.size() - 8));
  }
  for (const auto& s : kSnapshots) listed.insert(s.name);
  EXPECT_EQ(on_disk, listed);
}

// Everything load() reads, as text, so that two loads can be compared whole.
std::string describe(const Topology& t) {
  std::ostringstream out;
  for (const auto& p : t.processors())
    out << "cpu" << p.id << " pkg" << p.package << " die" << p.die << " cl" << p.cluster << " core" << p.core_id
        << " smt" << p.smt << " node" << p.node << " on" << p.online << " al" << p.allowed << "\n";
  for (const auto& n : t.nodes()) {
    out << "node" << n.id << " cpus " << n.cpus.to_list() << " mem " << n.memory_bytes << " al" << n.allowed << " d";
    for (int d : n.distances) out << " " << d;
    out << "\n";
  }
  for (const auto& c : t.caches())
    out << "L" << c.level << c.type << " " << c.size_bytes << " " << c.cpus.to_list() << "\n";
  for (const auto& note : t.notes()) out << "note: " << note << "\n";
  return out.str();
}

// Topology::load("") reads $ULIBC_FSROOT, and must then see what load(path) sees.
TEST(SnapshotFsroot, EnvironmentVariableGivesSameTopologyAsPath) {
  if (!fs::is_directory(kFixtures)) GTEST_SKIP() << "snapshot directory " << kFixtures << " is absent";
  TempDir dir;
  // Offline processors, a cgroup cpuset and eight nodes: a load with much to get wrong.
  const fs::path root = extract(kFixtures / "16amd64-8n2c-cpusets.tar.bz2", dir.path());
  const Topology by_path = Topology::load(root.string());

  const Topology by_env = [&] {
    ScopedEnv env("ULIBC_FSROOT", root.string());
    return Topology::load("");
  }();

  EXPECT_FALSE(by_env.is_live());
  EXPECT_EQ(by_env.fsroot(), by_path.fsroot());
  EXPECT_EQ(describe(by_env), describe(by_path));
  EXPECT_EQ(by_env.allowed().to_list(), "0-3,5-6,12-15");  // the snapshot's cpuset, less offline cpu4
}

}  // namespace
