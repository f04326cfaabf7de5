// topology_test.cpp — discovery on synthetic machines: every shape and oddity real machines show.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "fake_sysfs.hpp"
#include "ulibc.hpp"

namespace {

using ulibc::CpuSet;
using ulibc::Topology;
using ulibc::testing::FakeMachine;
using ulibc::testing::TempDir;

struct Loaded {
  TempDir dir;
  Topology topo;
  explicit Loaded(const FakeMachine& m) : topo(Topology::load(ulibc::testing::write_fake_sysfs(m, dir.path()))) {}
};

TEST(Topology, TwoPackagesSmtAdjacent) {
  Loaded l(FakeMachine{
      .packages = 2, .cores_per_package = 4, .smt = 2, .numbering = ulibc::testing::Numbering::smt_adjacent});
  const Topology& t = l.topo;
  EXPECT_FALSE(t.is_live());
  ASSERT_EQ(t.processors().size(), 16u);
  ASSERT_EQ(t.packages().size(), 2u);
  EXPECT_EQ(t.packages()[1].cpus.to_list(), "8-15");
  EXPECT_EQ(t.processor(5)->core_id, 2);
  EXPECT_EQ(t.processor(5)->smt, 1);
  EXPECT_EQ(t.processor(4)->smt, 0);
  EXPECT_EQ(t.nodes()[1].memory_bytes, 1ull << 30);
  EXPECT_EQ(t.distance(0, 1), 20);
  EXPECT_EQ(t.distance(1, 1), 10);
  EXPECT_EQ(t.distance(0, 7), -1);
  EXPECT_EQ(t.usable().count(), 16);
  EXPECT_TRUE(t.notes().empty());
}

TEST(Topology, SubNumaClusteringGivesSeveralNodesPerPackage) {
  Loaded l(FakeMachine{.packages = 2, .nodes_per_package = 2, .cores_per_package = 4});
  ASSERT_EQ(l.topo.nodes().size(), 4u);
  EXPECT_EQ(l.topo.nodes()[1].cpus.to_list(), "2-3");
  EXPECT_EQ(l.topo.processor(3)->package, 0);
  EXPECT_EQ(l.topo.processor(3)->node, 1);
}

TEST(Topology, SeveralPackagesPerNode) {
  Loaded l(FakeMachine{.packages = 4, .packages_per_node = 2, .cores_per_package = 2});
  ASSERT_EQ(l.topo.nodes().size(), 2u);
  ASSERT_EQ(l.topo.packages().size(), 4u);
  EXPECT_EQ(l.topo.nodes()[0].cpus.to_list(), "0-3");
}

TEST(Topology, OfflineProcessorsIncludingCpu0) {
  Loaded l(FakeMachine{.packages = 2, .cores_per_package = 2, .smt = 2, .offline = CpuSet{0, 5}});
  const Topology& t = l.topo;
  EXPECT_EQ(t.online().to_list(), "1-4,6-7");
  EXPECT_FALSE(t.processor(0)->online);
  EXPECT_FALSE(t.processor(0)->allowed);
  EXPECT_EQ(t.processor(0)->package, -1);  // no topology directory for an offline processor
  EXPECT_EQ(t.processor(0)->node, 0);      // but its node still lists it
  EXPECT_EQ(t.processor(4)->smt, 0);       // processor 0, its sibling, is offline: 4 ranks first
  EXPECT_EQ(t.usable().to_list(), "1-4,6-7");
}

TEST(Topology, PerProcessorOnlineFlagsWithoutTheOnlineFile) {
  Loaded l(FakeMachine{.packages = 1, .cores_per_package = 4, .offline = CpuSet{2}, .write_online_file = false});
  EXPECT_EQ(l.topo.online().to_list(), "0-1,3");  // cpu0 has no flag: it cannot go offline
}

TEST(Topology, SparseNodeIdsAndMemorylessNode) {
  Loaded l(FakeMachine{.packages = 3, .cores_per_package = 2, .node_ids = {0, 33, 72}, .memoryless_nodes = CpuSet{1}});
  const Topology& t = l.topo;
  ASSERT_EQ(t.nodes().size(), 3u);
  EXPECT_EQ(t.nodes()[1].id, 33);
  EXPECT_FALSE(t.node(33)->has_memory());
  EXPECT_TRUE(t.node(72)->has_memory());
  EXPECT_EQ(t.processor(4)->node, 72);
  EXPECT_EQ(t.node(72)->distances, (std::vector<int>{20, 20, 10}));
  EXPECT_EQ(t.distance(33, 72), 20);
}

TEST(Topology, MasksOnlyOnOldKernels) {
  Loaded l(FakeMachine{.packages = 2, .cores_per_package = 2, .smt = 2, .write_cpulist = false});
  EXPECT_EQ(l.topo.nodes()[1].cpus.to_list(), "2-3,6-7");
  EXPECT_EQ(l.topo.processor(6)->smt, 1);
}

TEST(Topology, NoNodeDirectoryMeansOneNode) {
  Loaded l(FakeMachine{.packages = 2, .cores_per_package = 2, .write_node_dir = false});
  ASSERT_EQ(l.topo.nodes().size(), 1u);
  EXPECT_EQ(l.topo.nodes()[0].cpus.to_list(), "0-3");
  EXPECT_EQ(l.topo.nodes()[0].memory_bytes, 2ull << 30);  // from /proc/meminfo
  EXPECT_EQ(l.topo.processor(3)->node, 0);
}

TEST(Topology, UnknownPackageIdsNumberedBySiblingSets) {
  Loaded l(FakeMachine{.packages = 3, .cores_per_package = 2, .package_id_unknown = true});
  EXPECT_EQ(l.topo.packages().size(), 3u);
  EXPECT_EQ(l.topo.processor(2)->package, 1);
  EXPECT_EQ(l.topo.processor(5)->package, 2);
  EXPECT_FALSE(l.topo.notes().empty());
}

TEST(Topology, CoresComeFromSiblingSetsWhenCoreIdRepeatsPerDie) {
  // Two dies of 2 cores per package, core_id 0,1,0,1: four distinct cores.
  Loaded l(FakeMachine{.packages = 1,
                       .cores_per_package = 4,
                       .smt = 2,
                       .numbering = ulibc::testing::Numbering::smt_adjacent,
                       .core_id_period = 2});
  const Topology& t = l.topo;
  EXPECT_EQ(t.processor(0)->core_id, t.processor(4)->core_id);
  EXPECT_NE(t.processor(0)->core, t.processor(4)->core);
  EXPECT_EQ(t.processor(4)->smt, 0);
  EXPECT_EQ(t.processor(5)->smt, 1);
  EXPECT_EQ(t.processor(5)->core, t.processor(4)->core);
  const auto m = ulibc::Mapping::build(t, ulibc::Policy::parse("compact+"), 4);
  EXPECT_EQ(m.max_threads_per_core(), 1);  // four cores, not two with two threads each
  EXPECT_EQ(m.max_cores_per_node(), 4);
}

TEST(Topology, CgroupCpusetLimitsAllowedInEveryFlavor) {
  using ulibc::testing::CgroupFlavor;
  for (auto flavor : {CgroupFlavor::legacy_cpuset, CgroupFlavor::v1, CgroupFlavor::v1_noprefix, CgroupFlavor::v2}) {
    Loaded l(FakeMachine{.packages = 2,
                         .cores_per_package = 4,
                         .offline = CpuSet{3},
                         .cpuset = CpuSet::parse_list("1-5"),
                         .cgroup = flavor});
    EXPECT_EQ(l.topo.allowed().to_list(), "1-2,4-5") << static_cast<int>(flavor);
    EXPECT_EQ(l.topo.usable(), l.topo.allowed());
    EXPECT_TRUE(l.topo.processor(6)->online);
    EXPECT_FALSE(l.topo.processor(6)->allowed);
  }
}

TEST(Topology, CgroupV1NoprefixLimitsMemoryNodesToo) {
  Loaded l(FakeMachine{.packages = 2,
                       .cores_per_package = 2,
                       .cpuset = CpuSet::parse_list("0-1"),
                       .cgroup = ulibc::testing::CgroupFlavor::v1_noprefix});
  EXPECT_EQ(l.topo.allowed().to_list(), "0-1");
  EXPECT_TRUE(l.topo.nodes()[0].allowed);
  EXPECT_FALSE(l.topo.nodes()[1].allowed);  // the group's `mems` file says 0
}

TEST(Topology, LoadsAMachineOf4096Processors) {
  Loaded l(FakeMachine{.packages = 16, .nodes_per_package = 2, .cores_per_package = 128, .smt = 2});
  EXPECT_EQ(l.topo.processors().size(), 4096u);
  EXPECT_EQ(l.topo.nodes().size(), 32u);
  EXPECT_EQ(l.topo.processor(4095)->smt, 1);
  EXPECT_EQ(l.topo.processor(4095)->package, 15);
  EXPECT_EQ(l.topo.usable().count(), 4096);
}

TEST(Topology, FsrootFromEnvironment) {
  TempDir dir;
  ulibc::testing::write_fake_sysfs(FakeMachine{.packages = 3, .cores_per_package = 1}, dir.path());
  ::setenv("ULIBC_FSROOT", dir.path().c_str(), 1);
  const Topology t = Topology::load();
  ::unsetenv("ULIBC_FSROOT");
  EXPECT_EQ(t.fsroot(), dir.path());
  EXPECT_EQ(t.nodes().size(), 3u);
  EXPECT_FALSE(t.is_live());
}

TEST(Topology, PlacementDetailReadsLessButPlacesTheSame) {
  TempDir dir;
  ulibc::testing::write_fake_sysfs(FakeMachine{.packages = 2, .cores_per_package = 2, .smt = 2}, dir.path());
  const Topology full = Topology::load(dir.path());
  const Topology lean = Topology::load(dir.path(), ulibc::Detail::placement);
  EXPECT_EQ(lean.detail(), ulibc::Detail::placement);
  EXPECT_FALSE(full.nodes()[0].hugepages.empty());
  EXPECT_TRUE(lean.nodes()[0].hugepages.empty());
  ASSERT_EQ(lean.processors().size(), full.processors().size());
  for (std::size_t i = 0; i < full.processors().size(); ++i) {
    const auto& a = full.processors()[i];
    const auto& b = lean.processors()[i];
    EXPECT_EQ(std::tie(a.id, a.package, a.core_id, a.core, a.smt, a.node, a.online, a.allowed),
              std::tie(b.id, b.package, b.core_id, b.core, b.smt, b.node, b.online, b.allowed));
  }
  EXPECT_EQ(lean.nodes()[1].distances, full.nodes()[1].distances);
  EXPECT_EQ(lean.nodes()[1].memory_bytes, full.nodes()[1].memory_bytes);
  const Topology live = Topology::load("/", ulibc::Detail::placement);
  EXPECT_TRUE(live.caches().empty());
  EXPECT_FALSE(Topology::load("/").caches().empty() && std::filesystem::exists("/sys/devices/system/cpu/cpu0/cache"));
}

TEST(Topology, LiveMachineIsConsistent) {
  const Topology t = Topology::load("/");
  EXPECT_TRUE(t.is_live());
  EXPECT_TRUE(Topology::load("/.").is_live());  // spelled differently, still this machine
  ASSERT_FALSE(t.processors().empty());
  EXPECT_FALSE(t.usable().empty());
  EXPECT_TRUE(t.online().contains(t.allowed()));
  for (const auto& p : t.processors()) {
    if (!p.online) continue;
    EXPECT_GE(p.node, 0) << p.id;
    EXPECT_GE(p.smt, 0) << p.id;
    ASSERT_NE(t.node(p.node), nullptr);
    EXPECT_TRUE(t.node(p.node)->cpus.test(p.id));
  }
}

// Caches are read once each, and a cache whose size differs from the first one read at its index has its level
// and type read too: here processors 2-3 are a hybrid part's efficiency cores, whose index 1 is a shared L2
// instead of an L1 instruction cache.
TEST(Topology, CachesReadOncePerCacheAndPerKindWhereSizesDiffer) {
  TempDir dir;
  ulibc::testing::write_fake_sysfs(FakeMachine{.packages = 1, .cores_per_package = 4}, dir.path());
  auto cache = [&](int cpu, int index, int level, const std::string& type, const std::string& size,
                   const std::string& shared) {
    const std::string d =
        dir.path() + "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cache/index" + std::to_string(index);
    std::filesystem::create_directories(d);
    std::ofstream(d + "/level") << level << "\n";
    std::ofstream(d + "/type") << type << "\n";
    std::ofstream(d + "/size") << size << "\n";
    std::ofstream(d + "/shared_cpu_list") << shared << "\n";
  };
  for (int cpu : {0, 1}) {
    cache(cpu, 0, 1, "Data", "48K", std::to_string(cpu));
    cache(cpu, 1, 1, "Instruction", "32K", std::to_string(cpu));
    cache(cpu, 2, 3, "Unified", "30720K", "0-3");
  }
  for (int cpu : {2, 3}) {
    cache(cpu, 0, 1, "Data", "48K", std::to_string(cpu));
    cache(cpu, 1, 2, "Unified", "2048K", "2-3");
    cache(cpu, 2, 3, "Unified", "30720K", "0-3");
  }
  const Topology t = Topology::load(dir.path());
  std::vector<std::string> got;
  for (const ulibc::Cache& c : t.caches())
    got.push_back("L" + std::to_string(c.level) + " " + c.type + " " + std::to_string(c.size_bytes >> 10) + "K " +
                  c.cpus.to_list());
  EXPECT_EQ(got, (std::vector<std::string>{"L1 Data 48K 0", "L1 Data 48K 1", "L1 Data 48K 2", "L1 Data 48K 3",
                                           "L1 Instruction 32K 0", "L1 Instruction 32K 1", "L2 Unified 2048K 2-3",
                                           "L3 Unified 30720K 0-3"}));
}

}  // namespace
