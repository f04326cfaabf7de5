// block_cache_test.cpp — the global address space's local pieces: where a distribution puts each element, and the
// software cache over a backing that is a plain array (what the ranks' homes are to the real one).
#include "global_memory/block_cache.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "global_memory/distribution.hpp"
#include "ulibc/error.hpp"

namespace {

using namespace ulibc::global;

// Every element located once, in the home and position a direct count gives, and every run ending where the home's
// contiguous stretch does.
void expect_consistent(const Distribution& d) {
  std::vector<std::uint64_t> seen(static_cast<std::size_t>(d.ranks()), 0);
  for (std::uint64_t e = 0; e < d.elements(); ++e) {
    const auto p = d.locate(e);
    ASSERT_GE(p.home, 0);
    ASSERT_LT(p.home, d.ranks());
    ASSERT_EQ(p.index, seen[static_cast<std::size_t>(p.home)]++) << "element " << e;
    ASSERT_GE(p.run, 1u);
    if (e + 1 < d.elements()) {
      const auto next = d.locate(e + 1);
      const bool same_run = next.home == p.home && next.index == p.index + 1;
      ASSERT_EQ(p.run > 1, same_run) << "element " << e;
    }
  }
  for (int r = 0; r < d.ranks(); ++r) EXPECT_EQ(d.elements_on(r), seen[static_cast<std::size_t>(r)]) << "rank " << r;
}

TEST(Distribution, BlockAndCyclicPlaceEveryElementOnce) {
  for (std::uint64_t n : {0, 1, 7, 100, 1001})
    for (int ranks : {1, 2, 3, 4, 7}) {
      SCOPED_TRACE(std::to_string(n) + " elements, " + std::to_string(ranks) + " ranks");
      expect_consistent(Distribution::block(n, 8, ranks));
      for (std::uint64_t chunk : {1, 3, 64}) expect_consistent(Distribution::cyclic(n, 8, ranks, chunk));
    }
}

TEST(Distribution, BlockSharesDifferByAtMostOneAndCyclicDealsChunks) {
  const Distribution b = Distribution::block(10, 4, 3);
  EXPECT_EQ(b.elements_on(0) + b.elements_on(1) + b.elements_on(2), 10u);
  EXPECT_EQ(b.bytes(), 40u);
  EXPECT_EQ(b.locate(9).home, 2);
  const Distribution c = Distribution::cyclic(10, 4, 3, 2);  // chunks 0-1, 2-3, 4-5, 6-7, 8-9
  EXPECT_EQ(c.locate(6).home, 0);
  EXPECT_EQ(c.locate(6).index, 2u);
  EXPECT_EQ(c.locate(8).home, 1);
  EXPECT_EQ(c.elements_on(0), 4u);
  EXPECT_EQ(c.elements_on(2), 2u);
}

TEST(Distribution, BadShapesAreRefused) {
  EXPECT_THROW(Distribution::block(10, 4, 0), ulibc::Error);
  EXPECT_THROW(Distribution::block(10, 0, 2), ulibc::Error);
  EXPECT_THROW(Distribution::cyclic(10, 4, 2, 0), ulibc::Error);
  EXPECT_THROW(Distribution::block(std::uint64_t{1} << 62, 8, 2), ulibc::Error);
}

// Homes as one array: what was fetched and stored, counted.
struct ArrayBacking : BlockCache::Backing {
  explicit ArrayBacking(std::size_t bytes, std::size_t block) : home(bytes), block(block) {
    for (std::size_t i = 0; i < bytes; ++i) home[i] = static_cast<std::byte>(i % 251);
  }
  void fetch(std::uint64_t b, std::span<std::byte> into) override {
    std::memcpy(into.data(), home.data() + b * block, into.size());
    ++fetches;
  }
  void store(std::uint64_t b, std::uint64_t at, std::span<const std::byte> bytes) override {
    std::memcpy(home.data() + b * block + at, bytes.data(), bytes.size());
    stored += bytes.size();
    ++stores;
  }
  void complete() override { ++completions; }
  std::vector<std::byte> home;
  std::size_t block;
  int fetches = 0, stores = 0, completions = 0;
  std::size_t stored = 0;
};

// One read use of block b: pinned, then unpinned unwritten.
void read_once(BlockCache& cache, std::uint64_t b) {
  cache.pin(b, true);
  cache.unpin(b, 0, 0, false);
}

// One use of block b that writes `value` at byte `at` (fetching the block first when `read`).
void write_one(BlockCache& cache, std::uint64_t b, std::size_t at, std::byte value, bool read) {
  cache.pin(b, read)[at] = value;
  cache.unpin(b, at, 1, true);
}

TEST(BlockCache, ReadsComeFromHomeOnceUntilInvalidated) {
  ArrayBacking home(1000, 64);
  BlockCache cache(1000, 64, 4, home);
  EXPECT_EQ(cache.blocks(), 16u);
  EXPECT_EQ(cache.length_of(15), 1000u - 15 * 64);
  std::byte* b = cache.pin(3, true);
  EXPECT_EQ(b[5], static_cast<std::byte>((3 * 64 + 5) % 251));
  cache.unpin(3, 0, 0, false);
  read_once(cache, 3);
  EXPECT_EQ(home.fetches, 1);
  EXPECT_EQ(cache.stats().hits, 1u);
  EXPECT_EQ(cache.stats().misses, 1u);
  cache.invalidate();
  read_once(cache, 3);
  EXPECT_EQ(home.fetches, 2);
  EXPECT_EQ(cache.stats().bytes_fetched, 128u);
}

TEST(BlockCache, OnlyTheWrittenBytesGoHome) {
  ArrayBacking home(256, 64);
  BlockCache cache(256, 64, 2, home);
  std::byte* b = cache.pin(1, true);
  b[10] = std::byte{0xAA};
  b[11] = std::byte{0xBB};
  b[40] = std::byte{0xCC};
  cache.unpin(1, 10, 2, true);
  cache.pin(1, true);
  cache.unpin(1, 40, 1, true);
  // Another writer changed byte 20 of the same block at home meanwhile: it must survive the write-back.
  home.home[64 + 20] = std::byte{0x11};
  cache.write_back();
  EXPECT_EQ(home.stores, 2);  // two runs: [10, 12) and [40, 41)
  EXPECT_EQ(home.stored, 3u);
  EXPECT_EQ(home.home[64 + 10], std::byte{0xAA});
  EXPECT_EQ(home.home[64 + 11], std::byte{0xBB});
  EXPECT_EQ(home.home[64 + 40], std::byte{0xCC});
  EXPECT_EQ(home.home[64 + 20], std::byte{0x11});
  cache.write_back();  // nothing dirty is left
  EXPECT_EQ(home.stores, 2);
}

TEST(BlockCache, WriteOnlyBlocksFetchNothingUntilRead) {
  ArrayBacking home(256, 64);
  BlockCache cache(256, 64, 2, home);
  write_one(cache, 2, 0, std::byte{0x42}, false);
  EXPECT_EQ(home.fetches, 0);
  const std::byte* b = cache.pin(2, true);  // a read: the unwritten bytes from home, the written one kept
  cache.unpin(2, 0, 0, false);
  EXPECT_EQ(home.fetches, 1);
  EXPECT_EQ(b[0], std::byte{0x42});
  EXPECT_EQ(b[1], static_cast<std::byte>((128 + 1) % 251));
}

TEST(BlockCache, TheLeastRecentlyUsedUnpinnedBlockIsEvictedAfterItsWriteBack) {
  ArrayBacking home(512, 64);
  BlockCache cache(512, 64, 2, home);
  write_one(cache, 0, 1, std::byte{7}, true);
  read_once(cache, 1);
  read_once(cache, 1);  // block 1 used last: block 0 goes first
  read_once(cache, 2);
  EXPECT_EQ(cache.stats().evictions, 1u);
  EXPECT_EQ(home.home[1], std::byte{7});  // written back before its slot was reused
  EXPECT_GE(home.completions, 1);
  read_once(cache, 1);  // still cached: no fetch
  EXPECT_EQ(home.fetches, 3);
}

TEST(BlockCache, PinnedBlocksAreNeverEvictedAndAFullCacheRefuses) {
  ArrayBacking home(512, 64);
  BlockCache cache(512, 64, 2, home);
  cache.pin(0, true);
  cache.pin(1, true);
  EXPECT_THROW(cache.pin(2, true), ulibc::Error);
  cache.unpin(1, 0, 0, false);
  read_once(cache, 2);  // in block 1's slot, now unpinned
  cache.unpin(0, 0, 0, false);
  EXPECT_THROW(BlockCache(512, 0, 2, home), ulibc::Error);
  EXPECT_THROW(BlockCache(512, 64, 0, home), ulibc::Error);
}

}  // namespace
