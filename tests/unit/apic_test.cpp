// apic_test.cpp — the processor-id ↔ APIC-id table: from a snapshot's /proc/cpuinfo, from CPUID on the live
// machine (checked against cpuinfo), absent on other architectures, and clear errors for a malformed cpuinfo.
#include "ulibc/apic.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "ulibc/affinity.hpp"

namespace {

using ulibc::ApicTable;
using ulibc::read_apic_ids;
using ulibc::Topology;
using ulibc::testing::FakeMachine;
using ulibc::testing::TempDir;

// A two-package machine of four processors whose cpuinfo is `cpuinfo`.
class Cpuinfo : public ::testing::Test {
 protected:
  void SetUp() override {
    ulibc::testing::write_fake_sysfs(FakeMachine{.packages = 2, .cores_per_package = 2}, dir.path());
  }
  ApicTable read(const std::string& cpuinfo) {
    std::ofstream(dir.path() + "/proc/cpuinfo") << cpuinfo;
    return read_apic_ids(Topology::load(dir.path()));
  }
  TempDir dir;
};

std::string x86_record(int proc, int apic) {
  return "processor\t: " + std::to_string(proc) +
         "\nvendor_id\t: GenuineIntel\nphysical id\t: " + std::to_string(proc / 2) +
         "\napicid\t\t: " + std::to_string(apic) + "\ninitial apicid\t: 7\n\n";
}

TEST_F(Cpuinfo, SnapshotIdsComeFromItsCpuinfo) {
  const ApicTable t = read(x86_record(0, 0) + x86_record(1, 4) + x86_record(2, 2) + x86_record(3, 6));
  ASSERT_TRUE(t.available()) << t.absent_reason;
  EXPECT_EQ(t.source, "/proc/cpuinfo apicid");
  ASSERT_EQ(t.entries.size(), 4u);
  const std::vector<std::uint32_t> expected = {0, 4, 2, 6};
  for (int p = 0; p < 4; ++p) {
    EXPECT_EQ(t.of(p)->id(), expected[static_cast<std::size_t>(p)]) << "processor " << p;
    EXPECT_FALSE(t.of(p)->cpuid) << "a snapshot is never asked with CPUID";
  }
  EXPECT_EQ(t.of(9), nullptr);
  EXPECT_TRUE(t.disagreements.empty());
}

TEST_F(Cpuinfo, AProcessorWithoutALineHasNoId) {
  const ApicTable t = read(x86_record(0, 0) + x86_record(2, 2) + "processor\t: 3\nvendor_id\t: GenuineIntel\n");
  ASSERT_TRUE(t.available());
  EXPECT_EQ(t.of(0)->id(), 0u);
  EXPECT_FALSE(t.of(1)->id());
  EXPECT_FALSE(t.of(3)->id());
}

TEST_F(Cpuinfo, OtherArchitecturesHaveNone) {
  const ApicTable t = read("processor\t: 0\nBogoMIPS\t: 100.00\nCPU implementer\t: 0x41\n\nprocessor\t: 1\n");
  EXPECT_FALSE(t.available());
  EXPECT_EQ(t.absent_reason, "not an x86 machine: its processors have no APIC ids");
}

TEST_F(Cpuinfo, AnOldX86KernelWithoutApicidLinesSaysSo) {
  const ApicTable t = read("processor\t: 0\nvendor_id\t: GenuineIntel\nphysical id\t: 0\n");
  EXPECT_FALSE(t.available());
  EXPECT_NE(t.absent_reason.find("no apicid lines"), std::string::npos) << t.absent_reason;
}

TEST_F(Cpuinfo, MalformedLinesAreErrorsNamingFileAndLine) {
  const std::string file = dir.path() + "/proc/cpuinfo";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"processor\t: 0\napicid\t\t: twelve\n", file + ":2"},
      {"processor\t: 0\napicid\t\t: -1\n", file + ":2"},
      {"processor\t: 0\napicid\t\t: 4294967296\n", file + ":2"},
      {"processor\t: -3\n", file + ":1"},
      {"processor\t: 70000\n", file + ":1"},
      {"apicid\t\t: 1\nprocessor\t: 0\n", "before any processor"},
      {"processor\t: 1\napicid\t\t: 1\n\nprocessor\t: 1\n", "processor 1 again"},
  };
  for (const auto& [text, needle] : cases) ulibc::testing::expect_input_error([&] { read(text); }, needle);
}

TEST_F(Cpuinfo, NoCpuinfoIsNoTable) {
  std::filesystem::remove(dir.path() + "/proc/cpuinfo");
  const ApicTable t = read_apic_ids(Topology::load(dir.path()));
  EXPECT_FALSE(t.available());
  EXPECT_NE(t.absent_reason.find("no /proc/cpuinfo"), std::string::npos) << t.absent_reason;
}

#if defined(__x86_64__) || defined(__i386__)
// The ULIBC paper's method on this machine: each usable processor asked with CPUID while the thread runs on
// it, every answer agreeing with the kernel's apicid, and the caller's own mask given back untouched.
TEST(LiveApic, EveryUsableProcessorAnswersAndCpuinfoAgrees) {
  const Topology live = Topology::load("/");
  const ulibc::CpuSet before = ulibc::current_affinity();
  const ApicTable t = read_apic_ids(live);
  EXPECT_EQ(ulibc::current_affinity(), before);
  ASSERT_TRUE(t.available()) << t.absent_reason;
  EXPECT_NE(t.source.find("CPUID leaf 0x"), std::string::npos) << t.source;
  EXPECT_TRUE(t.disagreements.empty()) << t.disagreements.front();
  std::set<std::uint32_t> seen;
  for (const ulibc::Processor& p : live.processors()) {
    if (!p.usable()) continue;
    const ulibc::ApicEntry* e = t.of(p.id);
    ASSERT_NE(e, nullptr);
    ASSERT_TRUE(e->cpuid) << "processor " << p.id;
    if (e->cpuinfo) {
      EXPECT_EQ(*e->cpuid, *e->cpuinfo) << "processor " << p.id;
    }
    EXPECT_TRUE(seen.insert(*e->cpuid).second) << "APIC id " << *e->cpuid << " twice";
  }
}
#endif

}  // namespace
