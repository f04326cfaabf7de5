// cpuset_test.cpp — CpuSet and its parsers of the kernel's cpulist and cpumap formats.
#include "ulibc/cpuset.hpp"

#include <gtest/gtest.h>

#include "ulibc/error.hpp"

using ulibc::CpuSet;

TEST(CpuSet, ParsesKernelCpulists) {
  EXPECT_EQ(CpuSet::parse_list("0-3,8,10-11\n").ids(), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(CpuSet::parse_list("5").ids(), std::vector<int>{5});
  EXPECT_TRUE(CpuSet::parse_list("\n").empty());  // the kernel writes an empty list for no processors
  EXPECT_EQ(CpuSet::parse_list("8,0-1").to_list(), "0-1,8");
}

TEST(CpuSet, ParsesKernelCpumaps) {
  EXPECT_EQ(CpuSet::parse_mask("0000ffff").to_list(), "0-15");
  EXPECT_EQ(CpuSet::parse_mask("00000001,00000000,80000000\n").to_list(), "31,64");
  EXPECT_EQ(CpuSet::parse_mask("f06f").to_list(), "0-3,5-6,12-15");
  EXPECT_TRUE(CpuSet::parse_mask("00000000,00000000").empty());
}

TEST(CpuSet, RejectsGarbageWithTheOffendingText) {
  for (const char* bad :
       {"1-", "5-3", "a", "-1", "1,,2", "99999999999", "70000", "1-2-3", "0x1", "0--0", "+1", "1-+2"}) {
    try {
      CpuSet::parse_list(bad);
      ADD_FAILURE() << "accepted \"" << bad << "\"";
    } catch (const ulibc::Error& e) {
      EXPECT_EQ(e.kind(), ulibc::ErrorKind::input);
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
  for (const char* bad : {"xyz", "123456789", "ff,,ff", "ff ff"})
    EXPECT_THROW(CpuSet::parse_mask(bad), ulibc::Error) << bad;
}

TEST(CpuSet, HoldsMoreThanACpuSetT) {
  const CpuSet big = CpuSet::parse_list("0-4095");
  EXPECT_EQ(big.count(), 4096);
  EXPECT_EQ(big.last(), 4095);
  std::string mask(1024, 'f');
  for (std::size_t i = 8; i < mask.size(); i += 9) mask.insert(i, ",");
  EXPECT_EQ(CpuSet::parse_mask(mask), big);
}

TEST(CpuSet, SetAlgebraAndIteration) {
  const CpuSet a = CpuSet::parse_list("0-7,100");
  const CpuSet b = CpuSet::parse_list("4-11");
  EXPECT_EQ((a & b).to_list(), "4-7");
  EXPECT_EQ((a | b).to_list(), "0-11,100");
  EXPECT_EQ((a - b).to_list(), "0-3,100");
  EXPECT_EQ((b - a).to_list(), "8-11");
  EXPECT_TRUE(a.intersects(b));
  EXPECT_TRUE(a.contains(CpuSet{1, 100}));
  EXPECT_FALSE(a.contains(CpuSet{1, 101}));
  CpuSet c = a;
  c.reset(100);
  EXPECT_EQ(c, CpuSet::parse_list("0-7"));  // equality ignores the now-empty high words
  std::vector<int> seen;
  for (int id : a) seen.push_back(id);
  EXPECT_EQ(seen, a.ids());
  EXPECT_EQ(CpuSet{}.first(), -1);
}
