// tests/kernels/page_array_test.cpp — large arrays mapped whole and handed back when freed.
#include "harness/page_array.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

namespace ulibc::harness {
namespace {

// Whether the page holding p is mapped in this process (mincore refuses an unmapped range with ENOMEM).
bool mapped(const void* p) {
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  void* start = reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(p) & ~(page - 1));
  unsigned char resident;
  return mincore(start, page, &resident) == 0 || errno != ENOMEM;
}

TEST(PageArray, LargeArraysAreUnmappedWhenFreedSmallOnesUseTheAllocator) {
  constexpr std::size_t kLarge = kPageArrayBytes / sizeof(std::uint64_t) * 3;
  const std::uint64_t* gone;
  {
    PageArray<std::uint64_t> large(kLarge);
    for (std::size_t i = 0; i < kLarge; i += 512) large[i] = i;
    for (std::size_t i = 0; i < kLarge; i += 512) ASSERT_EQ(large[i], i);
    gone = large.get() + kLarge / 2;
    EXPECT_TRUE(mapped(gone));
    PageArray<std::uint64_t> moved(std::move(large));
    EXPECT_FALSE(large);
    EXPECT_EQ(moved.size(), kLarge);
    EXPECT_EQ(moved[512], 512u);
  }
  EXPECT_FALSE(mapped(gone));  // handed back at once, not kept by the allocator

  PageArray<int> small(10);
  for (int i = 0; i < 10; ++i) small[i] = i;
  PageArray<int> other;
  other = std::move(small);
  EXPECT_EQ(other[9], 9);
  EXPECT_EQ(other.size(), 10u);
  EXPECT_EQ(small.size(), 0u);
}

}  // namespace
}  // namespace ulibc::harness
