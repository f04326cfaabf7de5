// tests/unit/kernel_mask_test.cpp — the one builder of the kernel's processor and node masks: word layout,
// length, the stack/heap boundary, and the way back to a set.
#include "os/kernel_mask.hpp"

#include <gtest/gtest.h>

namespace {

using ulibc::CpuSet;
using ulibc::os::KernelMask;

constexpr int kBits = KernelMask::kWordBits;

TEST(KernelMask, IsJustLongEnoughForTheLastId) {
  EXPECT_EQ(KernelMask(3).bits(), static_cast<std::size_t>(kBits));
  EXPECT_EQ(KernelMask(kBits - 1).bits(), static_cast<std::size_t>(kBits));
  EXPECT_EQ(KernelMask(kBits).bits(), static_cast<std::size_t>(2 * kBits));
  EXPECT_EQ(KernelMask(CpuSet::parse_list("0,130")).bytes(), 3 * sizeof(unsigned long));
}

TEST(KernelMask, AnEmptySetIsOneZeroWord) {
  KernelMask mask{CpuSet()};
  EXPECT_EQ(mask.bits(), static_cast<std::size_t>(kBits));
  EXPECT_EQ(mask.data()[0], 0ul);
  EXPECT_TRUE(mask.to_set().empty());
}

TEST(KernelMask, PutsIdIIntoBitIModuloTheWord) {
  KernelMask mask(CpuSet::parse_list("0,3,64,130"));
  ASSERT_EQ(mask.bits(), static_cast<std::size_t>(3 * kBits));
  EXPECT_EQ(mask.data()[0], (1ul << 0) | (1ul << 3));
  EXPECT_EQ(mask.data()[1], 1ul << 0);
  EXPECT_EQ(mask.data()[2], 1ul << 2);
}

TEST(KernelMask, SetsTheBitsOfSingleIds) {
  KernelMask mask(70);
  mask.set(70);
  mask.set(1);
  EXPECT_EQ(mask.to_set(), CpuSet::parse_list("1,70"));
}

TEST(KernelMask, RoundTripsOnTheStackAndOnTheHeap) {
  for (const char* list : {"5", "0-1023", "1023", "1024", "0,2047-2050", "65535", "7,300-310,4000-4095"}) {
    const CpuSet ids = CpuSet::parse_list(list);
    EXPECT_EQ(KernelMask(ids).to_set(), ids) << list;
  }
}

TEST(KernelMask, ReadsWhatTheKernelWroteIntoALongBuffer) {
  KernelMask mask(4095);  // the size a growing get_mempolicy buffer reaches
  mask.data()[63] = 1ul << (kBits - 1);
  EXPECT_EQ(mask.to_set(), CpuSet{4095});
}

}  // namespace
