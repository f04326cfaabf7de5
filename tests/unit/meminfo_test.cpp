// tests/unit/meminfo_test.cpp — the one meminfo parser: /proc/meminfo and node files, counts, and
// malformed text (which must read as "not said", never as a number).
#include "os/meminfo.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "fake_sysfs.hpp"

namespace {

using ulibc::os::meminfo_value;

constexpr const char* kProcMeminfo =
    "MemTotal:       32791180 kB\n"
    "MemFree:         1203424 kB\n"
    "MemAvailable:   20512344 kB\n"
    "HugePages_Total:       8\n"
    "HugePages_Free:        3\n"
    "Hugepagesize:       2048 kB\n";

constexpr const char* kNodeMeminfo =
    "Node 1 MemTotal:       16318380 kB\n"
    "Node 1 MemFree:          602112 kB\n"
    "Node 1 HugePages_Free:      2\n";

TEST(Meminfo, ReadsKilobyteLinesAsBytes) {
  EXPECT_EQ(meminfo_value(kProcMeminfo, "MemTotal"), 32791180ull << 10);
  EXPECT_EQ(meminfo_value(kProcMeminfo, "MemAvailable"), 20512344ull << 10);
  EXPECT_EQ(meminfo_value(kProcMeminfo, "Hugepagesize"), 2048ull << 10);
}

TEST(Meminfo, ReadsCountsAsThemselves) { EXPECT_EQ(meminfo_value(kProcMeminfo, "HugePages_Free"), 3u); }

TEST(Meminfo, ReadsANodesLinesWithoutTheNodePrefix) {
  EXPECT_EQ(meminfo_value(kNodeMeminfo, "MemTotal"), 16318380ull << 10);
  EXPECT_EQ(meminfo_value(kNodeMeminfo, "HugePages_Free"), 2u);
}

TEST(Meminfo, MatchesWholeKeysOnly) {
  EXPECT_EQ(meminfo_value(kProcMeminfo, "Mem"), std::nullopt);
  EXPECT_EQ(meminfo_value(kProcMeminfo, "Total"), std::nullopt);
  EXPECT_EQ(meminfo_value("SwapMemTotal: 5 kB\nMemTotal: 7 kB\n", "MemTotal"), 7u << 10);
}

TEST(Meminfo, AbsentKeyOrEmptyTextIsNotSaid) {
  EXPECT_EQ(meminfo_value(kProcMeminfo, "Hugetlb"), std::nullopt);
  EXPECT_EQ(meminfo_value("", "MemTotal"), std::nullopt);
}

TEST(Meminfo, MalformedValuesAreNotSaid) {
  EXPECT_EQ(meminfo_value("MemTotal:\n", "MemTotal"), std::nullopt);
  EXPECT_EQ(meminfo_value("MemTotal:   kB\n", "MemTotal"), std::nullopt);
  EXPECT_EQ(meminfo_value("MemTotal:   -5 kB\n", "MemTotal"), std::nullopt);
  EXPECT_EQ(meminfo_value("MemTotal:   12 MB\n", "MemTotal"), std::nullopt);
  EXPECT_EQ(meminfo_value("MemTotal:   12x kB\n", "MemTotal"), std::nullopt);
  EXPECT_EQ(meminfo_value("MemTotal:   99999999999999999999999 kB\n", "MemTotal"), std::nullopt);
  EXPECT_EQ(meminfo_value("MemTotal:   18014398509481984 kB\n", "MemTotal"), std::nullopt);  // 2^54 KiB: 2^64 bytes
  EXPECT_EQ(meminfo_value("MemTotal 12 kB\n", "MemTotal"), std::nullopt);  // no colon: not a line of the format
}

TEST(Meminfo, ToleratesALastLineWithoutNewlineAndTabs) {
  EXPECT_EQ(meminfo_value("MemFree:\t12 kB", "MemFree"), 12u << 10);
}

TEST(Meminfo, ReadsAFileBelowARoot) {
  ulibc::testing::TempDir dir;
  std::ofstream(dir.path() + "/meminfo") << kNodeMeminfo;
  const ulibc::os::FsRoot fs(dir.path());
  EXPECT_EQ(ulibc::os::read_meminfo(fs, "/meminfo", "MemFree"), 602112ull << 10);
  EXPECT_EQ(ulibc::os::read_meminfo(fs, "/absent", "MemFree"), std::nullopt);
}

}  // namespace
