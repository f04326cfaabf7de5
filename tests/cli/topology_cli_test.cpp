// topology_cli_test.cpp — `ulibc topology` on synthetic machines: the JSON carries the documented
// fields with the right values, and the text names what matters.
#include <gtest/gtest.h>

#include "fake_sysfs.hpp"
#include "run_cli.hpp"

namespace ulibc::testing {
namespace {

using nlohmann::json;

// Two packages of 4 cores × 2 SMT, AMD numbering: 16 processors, 2 nodes.
FakeMachine two_socket() {
  return {.packages = 2, .cores_per_package = 4, .smt = 2, .numbering = Numbering::smt_adjacent};
}

TEST(TopologyCli, JsonCountsMatchTheMachine) {
  TempDir dir;
  write_fake_sysfs(two_socket(), dir.path());
  const json j = run_cli_json({"topology", "--json", "--fsroot", dir.path()});
  EXPECT_EQ(j["fsroot"], dir.path());
  ASSERT_EQ(j["processors"].size(), 16u);
  ASSERT_EQ(j["nodes"].size(), 2u);
  ASSERT_EQ(j["packages"].size(), 2u);
  EXPECT_EQ(j["counts"]["cores"], 8);
  EXPECT_EQ(j["processors"][9]["core"], 4);  // package 1, core 0: after the 4 cores of package 0
  EXPECT_EQ(j["counts"]["usable"], 16);
  EXPECT_EQ(j["counts"]["smt_per_core_max"], 2);
  EXPECT_TRUE(j["notes"].is_array());
  EXPECT_TRUE(j["caches"].is_array());
}

TEST(TopologyCli, JsonProcessorFields) {
  TempDir dir;
  write_fake_sysfs(two_socket(), dir.path());
  const json j = run_cli_json({"topology", "--json", "--fsroot", dir.path()});
  // Processor 5 = package 0, core 2, second SMT sibling (5 = 2·2 + 1).
  const json& p = j["processors"].at(5);
  EXPECT_EQ(p["id"], 5);
  EXPECT_EQ(p["package"], 0);
  EXPECT_EQ(p["core_id"], 2);
  EXPECT_EQ(p["smt"], 1);
  EXPECT_EQ(p["node"], 0);
  EXPECT_EQ(p["online"], true);
  EXPECT_EQ(p["allowed"], true);
  EXPECT_TRUE(p.contains("die"));
  EXPECT_TRUE(p.contains("cluster"));
  EXPECT_EQ(p["core"], 2);  // machine-wide core number
}

TEST(TopologyCli, JsonNodeAndPackageFields) {
  TempDir dir;
  FakeMachine m = two_socket();
  m.memoryless_nodes = CpuSet{1};
  m.remote_distance = 32;
  write_fake_sysfs(m, dir.path());
  const json j = run_cli_json({"topology", "--json", "--fsroot", dir.path()});
  const json& n0 = j["nodes"][0];
  EXPECT_EQ(n0["id"], 0);
  EXPECT_EQ(ints(n0["cpus"]), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(n0["memory_bytes"], 1ull << 30);
  EXPECT_EQ(n0["has_memory"], true);
  EXPECT_EQ(ints(n0["distances"]), (std::vector<int>{10, 32}));
  ASSERT_EQ(n0["hugepages"].size(), 1u);
  EXPECT_EQ(n0["hugepages"][0]["page_bytes"], 2048u * 1024u);
  const json& n1 = j["nodes"][1];
  EXPECT_EQ(n1["memory_bytes"], 0);
  EXPECT_EQ(n1["has_memory"], false);
  EXPECT_EQ(ints(j["packages"][1]["cpus"]), (std::vector<int>{8, 9, 10, 11, 12, 13, 14, 15}));
}

TEST(TopologyCli, JsonAllowedFollowsTheCgroupCpuset) {
  TempDir dir;
  FakeMachine m = two_socket();
  m.cpuset = CpuSet::parse_list("2-5");
  write_fake_sysfs(m, dir.path());
  const json j = run_cli_json({"topology", "--json", "--fsroot", dir.path()});
  EXPECT_EQ(j["counts"]["online"], 16);
  EXPECT_EQ(j["counts"]["usable"], 4);
  EXPECT_EQ(j["processors"][1]["allowed"], false);
  EXPECT_EQ(j["processors"][2]["allowed"], true);
  EXPECT_EQ(j["cpus"]["usable"], "2-5");
}

// Old AMD kernels repeat core_id in every die of a package: the totals must
// count cores by the kernel's sibling sets, not by (package, core_id).
TEST(TopologyCli, CoresCountedWhenCoreIdRepeatsPerDie) {
  TempDir dir;
  write_fake_sysfs({.cores_per_package = 8, .smt = 2, .core_id_period = 4}, dir.path());
  const json j = run_cli_json({"topology", "--json", "--fsroot", dir.path()});
  EXPECT_EQ(j["counts"]["cores"], 8);
  EXPECT_EQ(j["counts"]["smt_per_core_max"], 2);
}

TEST(TopologyCli, FsrootFromEnvironment) {
  TempDir dir;
  write_fake_sysfs(two_socket(), dir.path());
  const json j = run_cli_json({"topology", "--json"}, {{"ULIBC_FSROOT", dir.path()}});
  EXPECT_EQ(j["processors"].size(), 16u);
}

TEST(TopologyCli, TextSummary) {
  TempDir dir;
  FakeMachine m = two_socket();
  m.memoryless_nodes = CpuSet{1};
  m.offline = CpuSet{15};
  write_fake_sysfs(m, dir.path());
  const CliResult r = run_cli({"topology", "--fsroot", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("processors      16 (online 15, allowed 15, usable 15)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("NUMA nodes      2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cores           8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("SMT per core    1-2"), std::string::npos) << r.out;  // core 3 of package 1 lost its sibling
  EXPECT_NE(r.out.find("1 GiB"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("memory-less"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Node distances:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("    0  10  20"), std::string::npos) << r.out;
}

// The processor → APIC id table, eight a row like the ULIBC paper's, and "apic_id" in the JSON. The ids here
// are those of a two-socket Xeon whose second package starts at 32.
TEST(TopologyCli, ApicIdTableFromTheSnapshotsCpuinfo) {
  TempDir dir;
  write_fake_sysfs(two_socket(), dir.path());
  std::string cpuinfo;
  for (int p = 0; p < 16; ++p)
    cpuinfo += "processor\t: " + std::to_string(p) +
               "\nvendor_id\t: GenuineIntel\napicid\t\t: " + std::to_string((p / 8) * 32 + p % 8) + "\n\n";
  write_file(dir.path() + "/proc/cpuinfo", cpuinfo);
  const CliResult r = run_cli({"topology", "--fsroot", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("APIC ids (/proc/cpuinfo apicid):\n"
                       "  processors 0-7   : 0 1 2 3 4 5 6 7\n"
                       "  processors 8-15  : 32 33 34 35 36 37 38 39\n"),
            std::string::npos)
      << r.out;
  const json j = run_cli_json({"topology", "--json", "--fsroot", dir.path()});
  EXPECT_EQ(j["processors"][9]["apic_id"], 33);
  EXPECT_EQ(j["apic"]["available"], true);

  write_file(dir.path() + "/proc/cpuinfo", "processor\t: 0\nCPU implementer\t: 0x41\n");
  EXPECT_NE(run_cli({"topology", "--fsroot", dir.path()}).out.find("APIC ids: none (not an x86 machine"),
            std::string::npos);
  EXPECT_TRUE(run_cli_json({"topology", "--json", "--fsroot", dir.path()})["processors"][0]["apic_id"].is_null());

  write_file(dir.path() + "/proc/cpuinfo", "processor\t: 0\napicid\t\t: x\n");
  expect_usage_error(run_cli({"topology", "--fsroot", dir.path()}), {dir.path() + "/proc/cpuinfo:2"});
}

}  // namespace
}  // namespace ulibc::testing
