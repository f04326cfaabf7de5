// topology_bad_input_test.cpp — malformed sysfs trees: a clear Error naming the file, or a documented fallback.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "fake_sysfs.hpp"
#include "ulibc.hpp"

namespace {

namespace fs = std::filesystem;
using ulibc::Topology;
using ulibc::testing::FakeMachine;
using ulibc::testing::TempDir;

class BadSysfs : public ::testing::Test {
 protected:
  void SetUp() override {
    ulibc::testing::write_fake_sysfs(FakeMachine{.packages = 2, .cores_per_package = 2}, dir.path());
  }
  std::string file(const std::string& rel) const { return dir.path() + "/sys/devices/system/" + rel; }
  void overwrite(const std::string& rel, const std::string& text) const { std::ofstream(file(rel)) << text; }

  // Loading must fail with an input error whose message contains every `needle`.
  void expect_input_error(const std::vector<std::string>& needles) const {
    try {
      Topology::load(dir.path());
      ADD_FAILURE() << "loaded without error";
    } catch (const ulibc::Error& e) {
      EXPECT_EQ(e.kind(), ulibc::ErrorKind::input);
      for (const auto& n : needles) EXPECT_NE(std::string(e.what()).find(n), std::string::npos) << e.what();
    }
  }
  TempDir dir;
};

TEST(BadFsroot, MissingRootNamesIt) {
  try {
    Topology::load("/nonexistent/ulibc-root");
    ADD_FAILURE();
  } catch (const ulibc::Error& e) {
    EXPECT_EQ(e.kind(), ulibc::ErrorKind::input);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/ulibc-root"), std::string::npos) << e.what();
  }
}

TEST(BadFsroot, RootWithoutSysfs) {
  TempDir empty;
  EXPECT_THROW(Topology::load(empty.path()), ulibc::Error);
}

TEST_F(BadSysfs, GarbageNodeCpulist) {
  for (const char* garbage : {"1-", "5-3", "a", "99999999999"}) {
    overwrite("node/node1/cpulist", garbage);
    expect_input_error({file("node/node1/cpulist"), garbage});
  }
}

// As hwloc does: the first node keeps the processor, the conflict is a note, the machine stays usable.
TEST_F(BadSysfs, ProcessorInTwoNodesStaysInTheFirst) {
  overwrite("node/node1/cpulist", "1-3");
  const Topology t = Topology::load(dir.path());
  EXPECT_EQ(t.processor(1)->node, 0);
  EXPECT_EQ(t.node(0)->cpus.to_list(), "0-1");
  EXPECT_EQ(t.node(1)->cpus.to_list(), "2-3");
  ASSERT_EQ(t.notes().size(), 1u);
  EXPECT_EQ(t.notes()[0], "processor 1 is listed in both node0 and node1; kept in node0");
  const auto map = ulibc::Mapping::build(t, ulibc::Policy::parse("scatter"), 4);
  EXPECT_EQ(map.threads_per_node(), (std::vector<int>{2, 2}));
}

TEST_F(BadSysfs, NonIntegerCoreId) {
  overwrite("cpu/cpu2/topology/core_id", "seven");
  expect_input_error({file("cpu/cpu2/topology/core_id"), "seven"});
}

TEST_F(BadSysfs, EmptyIntegerFile) {
  overwrite("cpu/cpu1/topology/physical_package_id", "");
  expect_input_error({file("cpu/cpu1/topology/physical_package_id")});
}

TEST_F(BadSysfs, GarbageOnlineFile) {
  overwrite("cpu/online", "0-");
  expect_input_error({file("cpu/online")});
}

TEST_F(BadSysfs, GarbageDistance) {
  overwrite("node/node0/distance", "10 far");
  expect_input_error({file("node/node0/distance"), "far"});
}

TEST_F(BadSysfs, NodeWithoutCpulistFallsBackToProcessorLinks) {
  fs::remove(file("node/node1/cpulist"));
  fs::remove(file("node/node1/cpumap"));
  for (int cpu : {2, 3})
    fs::create_directory_symlink("../../node/node1", file("cpu/cpu" + std::to_string(cpu) + "/node1"));
  const Topology t = Topology::load(dir.path());
  EXPECT_EQ(t.node(1)->cpus.to_list(), "2-3");
  EXPECT_EQ(t.processor(3)->node, 1);
  ASSERT_FALSE(t.notes().empty());
  EXPECT_NE(t.notes()[0].find("node1"), std::string::npos);
}

TEST_F(BadSysfs, MissingNodeDirectoryRecoveredFromLinks) {
  fs::remove_all(file("node/node1"));
  overwrite("cpu/online", "0-2");  // an offline processor's link counts too
  for (int cpu : {2, 3})
    fs::create_directory_symlink("../../node/node1", file("cpu/cpu" + std::to_string(cpu) + "/node1"));
  const Topology t = Topology::load(dir.path());
  ASSERT_NE(t.node(1), nullptr);
  EXPECT_FALSE(t.node(1)->has_memory());  // nothing tells its size
  EXPECT_EQ(t.node(1)->cpus.to_list(), "2-3");
  EXPECT_FALSE(t.processor(3)->online);
  EXPECT_EQ(t.processor(3)->node, 1);
  EXPECT_EQ(t.distance(0, 1), 20);  // completed from node0's row
}

TEST_F(BadSysfs, DistanceRowOfTheWrongLengthIsNotedAndDefaulted) {
  overwrite("node/node0/distance", "10 20 30");
  const Topology t = Topology::load(dir.path());
  EXPECT_EQ(t.distance(0, 1), 20);
  EXPECT_FALSE(t.notes().empty());
}

}  // namespace
